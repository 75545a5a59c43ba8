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

/** Standard error responses for an authenticated route; routes add their specific ones. */
export const authenticatedErrorResponses = {
  400: { description: "Validation failed", content: { "application/problem+json": { schema: ValidationProblemSchema } } },
  401: { description: "Missing, malformed, expired or invalid access token", content: problemContent },
  403: { description: "Forbidden: missing scope, another tenant's data or a facility without access", content: problemContent },
  500: { description: "Unexpected error", content: problemContent },
} as const;

export const notFoundResponse = { 404: { description: "Not found", content: problemContent } } as const;

/** Integer ids in query strings: digits only, positive, within safe range. */
export const queryId = z
  .string()
  .regex(/^\d{1,15}$/, "Must be a positive integer.")
  .transform(Number)
  .pipe(z.number().int().positive("Must be a positive integer."));
