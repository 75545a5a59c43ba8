import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../../env";
import { ProblemError } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { classifyUpstreamFailure, UPSTREAM_RETRY_AFTER_SECONDS } from "../../platform/upstream";

/**
 * SCIM's own error form (RFC 7644 3.12): every answer under /scim/v2 that is not a success, the platform's refusals
 * (401, 413, 429, 5xx) included, is `{ schemas: [Error URN], status: "400", scimType?, detail }` in application/scim+json.
 */
export const SCIM_ERROR_URN = "urn:ietf:params:scim:api:messages:2.0:Error";
export const SCIM_CONTENT_TYPE = "application/scim+json";
export { SCIM_API_BASE as SCIM_BASE } from "../../platform/planes";

export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** Whether a D1 write failed on a constraint of the kind (a user name or group name taken; a group gone meanwhile). */
export const violatesConstraint = (err: unknown, kind: "UNIQUE" | "FOREIGN KEY") =>
  err instanceof Error && err.message.toUpperCase().includes(`${kind} CONSTRAINT FAILED`);

export const scimBadRequest = (scimType: ScimType, detail: string) => new ScimError(400, detail, scimType);
export const scimNotFound = (detail: string) => new ScimError(404, detail);

export const ScimErrorSchema = z
  .object({
    schemas: z.array(z.literal(SCIM_ERROR_URN)),
    status: z
      .string()
      .regex(/^\d{3}$/)
      .openapi({ description: "The HTTP status, as a string (RFC 7644 3.12)", example: "409" }),
    scimType: z
      .enum([
        "invalidFilter",
        "tooMany",
        "uniqueness",
        "mutability",
        "invalidSyntax",
        "invalidPath",
        "noTarget",
        "invalidValue",
        "invalidVers",
        "sensitive",
      ])
      .optional(),
    detail: z.string(),
  })
  .openapi("ScimError", { description: "A SCIM error (RFC 7644 3.12)" });

export const scimErrorResponse = (description: string) => ({ description, content: { [SCIM_CONTENT_TYPE]: { schema: ScimErrorSchema } } });

/** The refusals every SCIM operation may give. */
export const scimErrorResponses = {
  400: scimErrorResponse(
    "Invalid request: `scimType` says why (invalidSyntax, invalidValue, invalidFilter, invalidPath, noTarget, mutability)",
  ),
  401: scimErrorResponse("Missing, unknown or revoked SCIM token, or its tenant is disabled"),
  413: scimErrorResponse("Request body larger than 1 MiB"),
  415: scimErrorResponse("The body is not application/scim+json or application/json"),
  429: scimErrorResponse("Rate limited: wait Retry-After seconds"),
  500: scimErrorResponse("Unexpected error"),
  503: scimErrorResponse("A storage service is temporarily unavailable: retry"),
  504: scimErrorResponse("A storage service did not answer in time: retry"),
} as const;

export function scimJson(c: Context, body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": SCIM_CONTENT_TYPE, "X-Correlation-Id": c.get("correlationId") ?? "", ...headers },
  });
}

/** The 204 of a DELETE: no body, the correlation id. */
export const scimNoContent = (c: Context) =>
  new Response(null, { status: 204, headers: { "X-Correlation-Id": c.get("correlationId") ?? "" } });

function errorBody(status: number, detail: string, scimType?: ScimType) {
  return { schemas: [SCIM_ERROR_URN], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/** Every error under /scim/v2 in SCIM's form; nothing internal leaks. */
export function handleScimError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ScimError) return scimJson(c, errorBody(err.status, err.message, err.scimType), err.status, err.headers);
  if (err instanceof ProblemError) {
    const headers = (err.options.headers ?? {}) as Record<string, string>;
    return scimJson(c, errorBody(err.status, err.detail), err.status, headers);
  }
  if (err instanceof HTTPException && err.status === 400) {
    return scimJson(c, errorBody(400, "The body is not valid JSON.", "invalidSyntax"), 400);
  }
  if (err instanceof HTTPException) return scimJson(c, errorBody(err.status, err.message || "Error"), err.status);
  const upstream = classifyUpstreamFailure(err);
  if (upstream) {
    logEvent("warn", { correlationId: c.get("correlationId"), upstream: upstream.service, kind: upstream.kind, message: upstream.message });
    return upstream.kind === "timeout"
      ? scimJson(c, errorBody(504, "A storage service did not answer in time. Retry."), 504)
      : scimJson(c, errorBody(503, "A storage service is temporarily unavailable. Retry."), 503, {
          "Retry-After": String(UPSTREAM_RETRY_AFTER_SECONDS),
        });
  }
  logEvent("error", { correlationId: c.get("correlationId"), error: err.name, message: err.message });
  return scimJson(c, errorBody(500, "An unexpected error occurred. Quote the X-Correlation-Id response header to support."), 500);
}

/** Routers of /scim/v2: a request that fails its schema is SCIM's 400 invalidValue (or invalidSyntax for the body's shape). */
export function createScimRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issues = result.error.issues
          .slice(0, 5)
          .map((issue) => `${[result.target === "json" ? "body" : result.target, ...issue.path].join(".")}: ${issue.message}`);
        throw scimBadRequest(result.target === "json" ? "invalidSyntax" : "invalidValue", issues.join("; "));
      }
    },
  });
}
