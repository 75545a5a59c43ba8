import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { CORRELATION_HEADER, correlationIdFor } from "./correlation";
import { logEvent } from "./logging";

/** Correlation id in and out, API response headers, and one structured log line per request. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const startedAt = Date.now();
  const correlationId = correlationIdFor(c.req.header(CORRELATION_HEADER));
  c.set("correlationId", correlationId);
  await next();
  c.header(CORRELATION_HEADER, correlationId);
  c.header("X-Content-Type-Options", "nosniff");
  if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  const principal = c.get("principal");
  logEvent("info", {
    correlationId,
    method: c.req.method,
    path: new URL(c.req.url).pathname,
    status: c.res.status,
    durationMs: Date.now() - startedAt,
    clientId: principal?.clientId,
    tenantId: principal?.tenantId,
  });
};
