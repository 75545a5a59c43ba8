import type { ErrorHandler, NotFoundHandler } from "hono";
import type { AppEnv } from "../env";
import { handleError } from "./error-handler";
import { methodNotAllowedOrNotFound, type UnmatchedOptions } from "./method-not-allowed";
import { requestContext } from "./request-context";
import { createRouter } from "./router";

export type PlaneApp = ReturnType<typeof createRouter>;

interface Frame {
  /** How the platform's 404/405 treats a request no route answers (src/platform/method-not-allowed.ts). */
  unmatched?: UnmatchedOptions;
  /** Wraps the platform's 404/405 (the operator plane answers under /scim/v2 in SCIM's form). */
  notFound?: (standard: NotFoundHandler<AppEnv>) => NotFoundHandler<AppEnv>;
  onError?: (standard: ErrorHandler<AppEnv>) => ErrorHandler<AppEnv>;
}

/**
 * A Worker's app as both planes assemble it: the request context before anything else (correlation id, logs), then
 * what `mount` adds (middleware, routes, the OpenAPI document), then the platform's 404/405 and error forms.
 */
export function assembleApp(mount: (app: PlaneApp) => void, frame: Frame = {}): PlaneApp {
  const app = createRouter();
  app.use("*", requestContext);
  mount(app);
  const notFound = methodNotAllowedOrNotFound(app.router, frame.unmatched);
  app.notFound(frame.notFound ? frame.notFound(notFound) : notFound);
  app.onError(frame.onError ? frame.onError(handleError) : handleError);
  return app;
}
