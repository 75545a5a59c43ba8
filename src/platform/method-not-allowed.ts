import type { Context, Hono, MiddlewareHandler, NotFoundHandler } from "hono";
import type { AppEnv } from "../env";
import { handleError, noRoute } from "./error-handler";
import { problemResponse } from "./responses";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type AppRouter = Hono<AppEnv>["router"];

/** Methods with a route (not just middleware) at `path`; HEAD comes with GET (hono answers it from GET). */
export function allowedMethods(router: AppRouter, path: string): string[] {
  const allowed: string[] = METHODS.filter((method) => router.match(method, path)[0].some(([[, route]]) => route.method !== "ALL"));
  if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  return allowed;
}

export interface UnmatchedOptions {
  /**
   * Under `prefix`, a request that presents a credential is authenticated and rate-limited by `bearer` as on any route
   * there: an unknown path or method answers a token as a route that exists answers it (401, 429, and the same
   * headers on the 404 or 405).
   */
  authenticate?: { prefix: string; bearer: MiddlewareHandler<AppEnv> };
  /** Routes that exist only for some callers (the sandbox's test helpers): to the others a wrong method is a 404 too. */
  hidden?: (c: Context<AppEnv>) => boolean;
}

/** 405 with Allow when the path exists under other methods, otherwise the 404 problem. */
export function methodNotAllowedOrNotFound(router: AppRouter, options: UnmatchedOptions = {}): NotFoundHandler<AppEnv> {
  const answer = (c: Context<AppEnv>) => {
    const allow = options.hidden?.(c) ? [] : allowedMethods(router, c.req.path);
    if (allow.length === 0) return handleError(noRoute(c), c);
    return problemResponse(c, {
      status: 405,
      slug: "method-not-allowed",
      title: "Method Not Allowed",
      detail: `${c.req.method} is not supported on ${c.req.path}; use ${allow.join(", ")}.`,
      headers: { Allow: allow.join(", ") },
    });
  };
  return async (c: Context<AppEnv>) => {
    const auth = options.authenticate;
    if (!auth || !c.req.path.startsWith(auth.prefix) || !c.req.header("Authorization")) return answer(c);
    try {
      await auth.bearer(c, async () => {
        c.res = answer(c);
      });
      return c.res;
    } catch (error) {
      // hono hands a not-found handler's errors to no error handler: the route's 401 or 429, as a route answers it.
      return handleError(error as Error, c);
    }
  };
}
