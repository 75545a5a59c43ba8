import { z } from "@hono/zod-openapi";

/** Shared response schemas: the success envelope and the error forms of spec 7.2. */

export function envelopeSchema<T extends z.ZodTypeAny>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    correlationId: z.string(),
    timestamp: z.string().datetime(),
  });
}

export const ProblemSchema = z
  .object({
    type: z.string().url(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    correlationId: z.string(),
    timestamp: z.string().datetime(),
    service: z.string(),
    errors: z.array(z.string()).optional(),
  })
  .openapi("Problem");

export const ValidationProblemSchema = ProblemSchema.extend({
  errors: z.record(z.string(), z.array(z.string())),
}).openapi("ValidationProblem");

export const ControllerErrorSchema = z
  .object({
    success: z.literal(false),
    errors: z.array(z.string()),
    correlationId: z.string(),
    timestamp: z.string().datetime(),
  })
  .openapi("ControllerError");

export const IdempotencyConflictSchema = z.object({ error: z.string() }).openapi("IdempotencyConflict");

const problemContent = { "application/problem+json": { schema: ProblemSchema } };

const integerHeader = (description: string) => ({ description, schema: { type: "integer" as const } });

/** IETF RateLimit header fields, sent on every response counted against a bucket (docs/api.md, Platform). */
export const rateLimitResponseHeaders = {
  "RateLimit-Limit": integerHeader("Burst size of the caller's bucket"),
  "RateLimit-Remaining": integerHeader("Requests left in the bucket"),
  "RateLimit-Reset": integerHeader("Seconds until the bucket is full again"),
};

/** Responses any route may give because of the platform protections (src/http, src/ratelimit). */
export const platformErrorResponses = {
  413: { description: "Request body larger than the limit (1 MiB by default)", content: problemContent },
  429: {
    description: "Rate limited: wait Retry-After seconds",
    headers: { "Retry-After": integerHeader("Seconds until a request will be admitted"), ...rateLimitResponseHeaders },
    content: problemContent,
  },
  503: {
    description: "A storage service is temporarily unavailable: retry with exponential backoff",
    headers: { "Retry-After": integerHeader("Seconds to wait before retrying") },
    content: problemContent,
  },
  504: { description: "A storage service did not answer in time: retry with exponential backoff", content: problemContent },
} as const;

/** Standard error responses for an authenticated route; routes add their specific ones. */
export const authenticatedErrorResponses = {
  400: { description: "Validation failed", content: { "application/problem+json": { schema: ValidationProblemSchema } } },
  401: { description: "Missing, malformed, expired or invalid access token", content: problemContent },
  403: { description: "Forbidden: missing scope, another tenant's data or a facility without access", content: problemContent },
  415: { description: "The request body is not JSON (send Content-Type: application/json)", content: problemContent },
  500: { description: "Unexpected error", content: problemContent },
  ...platformErrorResponses,
} as const;

export const notFoundResponse = { 404: { description: "Not found", content: problemContent } } as const;

/** Integer ids in query strings: digits only, positive, within safe range. */
export const queryId = z
  .string()
  .regex(/^\d{1,15}$/, "Must be a positive integer.")
  .transform(Number)
  .pipe(z.number().int().positive("Must be a positive integer."));
