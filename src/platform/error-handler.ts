import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import type { AppEnv } from "../env";
import { BusinessRuleError, IdempotencyConflictError, malformedJson, notFound, ProblemError, ValidationError } from "./errors";
import { logEvent } from "./logging";
import { businessRuleResponse, idempotencyConflictResponse, problemResponse, validationResponse } from "./responses";
import { classifyUpstreamFailure, UPSTREAM_RETRY_AFTER_SECONDS } from "./upstream";
import { fieldErrorsFromZod } from "./zod-errors";

/** Maps every thrown error to a problem document (docs/errors.md); nothing internal leaks to the client. */
export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ProblemError) {
    return problemResponse(c, { ...err, errors: err.options.errors, headers: err.options.headers });
  }
  if (err instanceof ValidationError) return validationResponse(c, err.fieldErrors, err.detail);
  if (err instanceof z.ZodError) return validationResponse(c, fieldErrorsFromZod(err), "The request has invalid fields.");
  if (err instanceof BusinessRuleError) return businessRuleResponse(c, err.errors);
  if (err instanceof IdempotencyConflictError) return idempotencyConflictResponse(c, err.message);
  if (err instanceof HTTPException && err.status === 400) {
    // hono's validator raises this for a body that is not parseable JSON.
    const error = malformedJson();
    return validationResponse(c, error.fieldErrors, error.detail);
  }
  if (err instanceof HTTPException && err.status === 415) {
    // @hono/zod-openapi's answer to a Content-Type the route declares no body for (e.g. text/plain to the token endpoint).
    return problemResponse(c, {
      status: 415,
      slug: "unsupported-media-type",
      title: "Unsupported Media Type",
      detail: "This operation does not accept the request's Content-Type; see its requestBody in the OpenAPI document.",
    });
  }
  if (err instanceof HTTPException) {
    return problemResponse(c, { status: err.status, slug: "http-error", title: err.message || "Error", detail: err.message });
  }
  const upstream = classifyUpstreamFailure(err);
  if (upstream) {
    logEvent("warn", { correlationId: c.get("correlationId"), upstream: upstream.service, kind: upstream.kind, message: upstream.message });
    return upstream.kind === "timeout"
      ? problemResponse(c, {
          status: 504,
          slug: "upstream-timeout",
          title: "Gateway Timeout",
          detail: "A storage service did not answer in time. Retry with exponential backoff.",
        })
      : problemResponse(c, {
          status: 503,
          slug: "service-unavailable",
          title: "Service Unavailable",
          detail: "A storage service is temporarily unavailable. Retry with exponential backoff.",
          headers: { "Retry-After": String(UPSTREAM_RETRY_AFTER_SECONDS) },
        });
  }
  logEvent("error", { correlationId: c.get("correlationId"), error: err.name, message: err.message });
  return problemResponse(c, {
    status: 500,
    slug: "internal",
    title: "Internal Server Error",
    detail:
      "An unexpected error occurred. Quote the correlationId (also sent as the X-Correlation-Id response header) when contacting support.",
  });
}

/** What a path or method without a route answers (also a route that does not exist for the caller). */
export function noRoute(c: Context<AppEnv>) {
  c.set("noRoute", true);
  return notFound(`No route for ${c.req.method} ${new URL(c.req.url).pathname}.`);
}
