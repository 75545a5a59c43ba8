/**
 * What the Worker bundle gets for `import ... from "zod"` (wrangler.toml [alias]): zod's own entry, minus the
 * `locales` namespace. @hono/zod-openapi hands the whole `z` namespace to zod-to-openapi's extendZodWithOpenApi, so
 * the bundler must keep every member of it, and `z.locales` is 40-odd translations of zod's error messages (262 KiB
 * minified) that the API never uses: its messages are its own, in English (src/platform/zod-errors.ts). The English
 * default that zod configures for itself is untouched. scripts/checks/bundle.ts fails if zod's entry changes shape.
 */
import * as z from "./namespace.js";

export * from "./namespace.js";
export { z, z as default };
