import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ValidationError } from "./errors";
import { fieldErrorsFromZod } from "./zod-errors";

/**
 * Every route module builds its router here, so that request validation failures from the zod
 * schemas become the 400 validation form of spec 7.2 everywhere.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const root = result.target === "json" ? "body" : result.target;
        throw new ValidationError(fieldErrorsFromZod(result.error, root));
      }
    },
  });
}
