import type { Context, Hono, NotFoundHandler } from "hono";
import type { AppEnv } from "../env";
import { handleNotFound } from "./error-handler";
import { problemResponse } from "./responses";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type AppRouter = Hono<AppEnv>["router"];

/** Methods with a route (not just middleware) at `path`; HEAD comes with GET (hono answers it from GET). */
export function allowedMethods(router: AppRouter, path: string): string[] {
  const allowed: string[] = METHODS.filter((method) => router.match(method, path)[0].some(([[, route]]) => route.method !== "ALL"));
  if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
  return allowed;
}

/** 405 with Allow when the path exists under other methods, otherwise the 404 problem. */
export function methodNotAllowedOrNotFound(router: AppRouter): NotFoundHandler<AppEnv> {
  return (c: Context<AppEnv>) => {
    const allow = allowedMethods(router, c.req.path);
    if (allow.length === 0) return handleNotFound(c);
    return problemResponse(c, {
      status: 405,
      slug: "method-not-allowed",
      title: "Method Not Allowed",
      detail: `${c.req.method} is not supported on ${c.req.path}; use ${allow.join(", ")}.`,
      headers: { Allow: allow.join(", ") },
    });
  };
}
