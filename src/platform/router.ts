import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { type FieldErrors, ValidationError } from "./errors";
import { fieldErrorsFromZod } from "./zod-errors";

/**
 * Every route module builds its router here, so that request validation failures from the zod
 * schemas become the 400 validation form of spec 7.2 everywhere.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const root = result.target === "json" ? "body" : result.target;
        const errors = fieldErrorsFromZod(result.error, root);
        if (result.target === "query") nameRepeatedParameters(errors, c.req.queries());
        throw new ValidationError(errors);
      }
    },
  });
}

/** `?limit=1&limit=2` reaches the schema as an array: say which parameter is repeated instead of "received array". */
function nameRepeatedParameters(errors: FieldErrors, queries: Record<string, string[]>): void {
  for (const [name, values] of Object.entries(queries)) {
    if (values.length > 1 && errors[name]) errors[name] = [`The query parameter ${name} is given ${values.length} times; give it once.`];
  }
}
