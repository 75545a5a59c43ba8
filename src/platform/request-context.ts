import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { CORRELATION_HEADER, correlationIdFor } from "./correlation";
import { logEvent } from "./logging";
import { setResponseHeaders } from "./responses";

/** Correlation id in and out, API response headers, and one structured log line per request. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const startedAt = Date.now();
  const correlationId = correlationIdFor(c.req.header(CORRELATION_HEADER));
  c.set("correlationId", correlationId);
  await next();
  setResponseHeaders(c, {
    [CORRELATION_HEADER]: correlationId,
    "X-Content-Type-Options": "nosniff",
    ...(c.res.headers.has("Cache-Control") ? {} : { "Cache-Control": "no-store" }),
  });
  const principal = c.get("principal");
  logEvent("info", {
    correlationId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    durationMs: Date.now() - startedAt,
    clientId: principal?.clientId,
    tenantId: principal?.tenantId,
  });
};
