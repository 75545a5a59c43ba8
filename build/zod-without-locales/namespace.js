// zod's v4/classic/external.js as of zod 4.6 (the `z` namespace), without `locales`: see index.js.
export * as core from "./core.js";
export * from "../../node_modules/zod/v4/classic/schemas.js";
export * from "../../node_modules/zod/v4/classic/checks.js";
export * from "../../node_modules/zod/v4/classic/errors.js";
export * from "../../node_modules/zod/v4/classic/parse.js";
export * from "../../node_modules/zod/v4/classic/compat.js";
export {
  globalRegistry,
  registry,
  config,
  memoizer,
  $output,
  $input,
  $brand,
  clone,
  regexes,
  treeifyError,
  prettifyError,
  formatError,
  flattenError,
  TimePrecision,
  util,
  NEVER,
  INVALID,
  toZod,
  compile,
  withParser,
  ZodCompileAsyncError,
  ZodCompileUnsupportedError,
  getDiscriminatedOption,
} from "../../node_modules/zod/v4/core/index.js";
export { toJSONSchema } from "../../node_modules/zod/v4/core/json-schema-processors.js";
// Not fromJSONSchema (v4/classic/from-json-schema.js, 12 KB): nothing here reads JSON Schema into zod, and the namespace
// object keeps every member it exports in the bundle.
export { deepPartial } from "../../node_modules/zod/v4/classic/deep-partial.js";
export { input, output } from "../../node_modules/zod/v4/classic/in-out.js";
export { ZodISODateTime, ZodISODate, ZodISOTime, ZodISODuration } from "../../node_modules/zod/v4/classic/iso.js";
export * as iso from "../../node_modules/zod/v4/classic/iso.js";
export * as coerce from "../../node_modules/zod/v4/classic/coerce.js";
