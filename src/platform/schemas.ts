import { z } from "@hono/zod-openapi";
import { IDEMPOTENCY_KEY_HEADER, UUID_WITH_DASHES } from "./idempotency/middleware";
import { MONEY_TEXT, textToCents } from "./money";
import { IDEMPOTENCY_KEY_EXAMPLE } from "./openapi/try-it";
import { unknownFieldMessage } from "./zod-errors";

/** Shared response schemas: the success envelope and the error forms of spec 7.2. */

export function envelopeSchema<T extends z.ZodTypeAny>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    correlationId: z.string(),
    timestamp: z.string().datetime(),
  });
}

/** A documented answer whose body is the success envelope around `schema`. */
export const envelopeResponse = <T extends z.ZodTypeAny>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema: envelopeSchema(schema) } },
});

/** A route's required JSON request body. */
export const requiredJsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

export const ProblemFieldErrorSchema = z
  .object({
    field: z.string().optional().openapi({
      description:
        "The field that is wrong: a camelCase path into the body (`quoteItems[1].quantity`), a query parameter or a header; absent when the message names no field",
    }),
    detail: z.string().openapi({ description: "What is wrong, for a person" }),
  })
  .openapi("ProblemFieldError", {
    description: "One entry of a problem's `errors`",
    example: { field: "quoteItems[1].quantity", detail: "Too small: expected number to be >=1" },
  });

const problemFields = z.object({
  type: z.string().url().openapi({
    description: "The URI of the problem type's page on this deployment (`/docs/errors/<slug>`): what happened and what to do",
  }),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  correlationId: z.string(),
  timestamp: z.string().datetime(),
  service: z.string(),
  errors: z.array(ProblemFieldErrorSchema).openapi({
    description:
      "What is wrong, an entry per message: each field's with its `field`, the others without; empty when the detail says it all",
  }),
});

export const ProblemSchema = problemFields.openapi("Problem", {
  description: "RFC 9457 problem details (application/problem+json): every error of the customer, vendor and operator APIs",
  example: {
    type: "https://api.medparts.example/docs/errors/forbidden",
    title: "Forbidden",
    status: 403,
    detail: "The requester has no access to facility 2001.",
    instance: "/customer/api/catalog/detail",
    correlationId: "7d0f4c52-54c2-4b55-9a3e-1d8f2b0c6a11",
    timestamp: "2026-11-23T10:15:30.000Z",
    service: "medparts-customer-api",
    errors: [],
  },
});

export const ValidationProblemSchema = problemFields.openapi("ValidationProblem", {
  description: "400 problem: `errors` names each field that is wrong",
  example: {
    type: "https://api.medparts.example/docs/errors/validation",
    title: "Validation failed",
    status: 400,
    detail: "The request has invalid fields.",
    instance: "/customer/api/orders",
    correlationId: "7d0f4c52-54c2-4b55-9a3e-1d8f2b0c6a11",
    timestamp: "2026-11-23T10:15:30.000Z",
    service: "medparts-customer-api",
    errors: [{ field: "quoteItems[1].quantity", detail: "Too small: expected number to be >=1" }],
  },
});

const problemContent = { "application/problem+json": { schema: ProblemSchema } };

const integerHeader = (description: string) => ({ description, schema: { type: "integer" as const } });

/** IETF RateLimit header fields, sent on every response counted against a bucket (docs/api.md, Platform). */
export const rateLimitResponseHeaders = {
  "RateLimit-Limit": integerHeader("Burst size of the caller's bucket"),
  "RateLimit-Remaining": integerHeader("Requests left in the bucket"),
  "RateLimit-Reset": integerHeader("Seconds until the bucket is full again"),
};

/** Responses any route may give because of the platform protections (src/platform, src/platform/ratelimit). */
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
  403: { description: "Forbidden: the token lacks this operation's scope", content: problemContent },
  415: { description: "The request body is not JSON (send Content-Type: application/json)", content: problemContent },
  500: { description: "Unexpected error", content: problemContent },
  ...platformErrorResponses,
} as const;

/** A documented response whose body is problem details. */
export const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: ProblemSchema } } });

/** The 403 of an operation that refuses more than a missing scope (spec 5.6): `reasons` says what. */
export const forbiddenResponse = (reasons: string) => ({
  403: problem(`Forbidden: the token lacks this operation's scope, or ${reasons}`),
});

/** The 403 of operations that act for a requester at a facility (access checks, src/shared/users/access.ts). */
export const requesterForbiddenResponse = forbiddenResponse(
  "the requester (or user) is not one of the tenant's users, or has no access to the facility: the same answer whether the id exists elsewhere or nowhere",
);

export const notFoundResponse = { 404: { description: "Not found", content: problemContent } } as const;

/**
 * An object of a request body that refuses unknown fields (docs/decisions.md): a misspelt optional field is a 400 naming
 * it ("Unknown field; did you mean lineIds?"), never dropped in silence, and the document says `additionalProperties: false`.
 */
export function closedObject<S extends z.ZodRawShape>(shape: S) {
  const fields = Object.keys(shape);
  // A catchall that refuses every value (its issue's path ends with the key) rather than z.strictObject, which reports all
  // unknown keys in one issue with no way to name the nearest field for each. The document would show this catchall as
  // "any value": hence additionalProperties: false by hand.
  const unknownField = z.unknown().refine(() => false, { error: (issue) => unknownFieldMessage(String(issue.path?.at(-1)), fields) });
  return z.object(shape).catchall(unknownField).openapi({ additionalProperties: false });
}

/** Free text a person reads: at most `max` characters with something besides spaces, trimmed. */
export const readableText = (max: number) => z.string().max(max).regex(/\S/, "Must contain a non-space character.").trim();

/** A whole number sent as query text: digits only (no sign, exponent or fraction), from min to max. */
export const wholeNumberText = (min: number, max: number, message: string) =>
  z
    .string()
    .regex(/^\d{1,16}$/, message) // Number.MAX_SAFE_INTEGER has 16 digits; the range check below is exact
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

/** A positive integer id in the path (`/agreements/{agreementId}`), documented as an integer; `max` bounds it. */
export const integerPathParam = (name: string, example: number, max = Number.MAX_SAFE_INTEGER, message = "Must be a positive integer.") =>
  wholeNumberText(1, max, message).openapi({
    param: { name, in: "path" },
    type: "integer",
    minimum: 1,
    maximum: max,
    example,
  });

/** Integer ids in query strings: digits only, positive, within safe range. */
export const queryId = wholeNumberText(1, Number.MAX_SAFE_INTEGER, "Must be a positive integer.");

/** The Idempotency-Key request header of an idempotent operation (spec 8), as documented and validated. */
export const idempotencyKeyHeaders = (description: string) =>
  z.object({
    [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: z.string().regex(UUID_WITH_DASHES).openapi({
      description,
      example: IDEMPOTENCY_KEY_EXAMPLE,
    }),
  });

/** How the document states the two-decimal rule of every amount a request gives: in prose, which every validator reads alike. */
export const TWO_DECIMALS_RULE = "a decimal string with at most two decimal places (more is a 400, never rounded)";

/**
 * A price a request gives: a decimal string of more than 0 with at most two places (more is refused, not rounded), up
 * to `max`. A string, not a JSON number: a number in binary floating point cannot hold every amount of cents.
 */
export const decimalPrice = (description: string, max = 9_999_999_999_999.99) =>
  z
    .string()
    .regex(MONEY_TEXT, 'Must be a decimal string with at most two decimal places, e.g. "12.50".')
    .refine((v) => (textToCents(v) ?? 1) > 0, "Must be more than 0.")
    .refine((v) => (textToCents(v) ?? 0) <= Math.round(max * 100), `Must be at most ${max}.`)
    .openapi({ description: `${description}: ${TWO_DECIMALS_RULE}`, example: "123.45" });

/** An amount of money in an answer: a decimal string with two places, in the `currency` beside it. */
export const moneyAmount = (description: string) =>
  z
    .string()
    .openapi({ description: `${description}: a decimal string with two places, in the \`currency\` beside it`, example: "1249.50" });

/** The ISO 4217 code of the amounts of the object that has it (and of the objects inside it). */
export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .openapi({ description: "ISO 4217 currency of the amounts of this object and of the objects inside it", example: "USD" });

/**
 * Money of the purchasing documents (confirmations, invoices, credit memos, settings): a decimal string, scale 2 at
 * most ("12.5", "12.50"), never negative and never a JSON number (src/platform/money.ts). Answers give exactly 2 places.
 */
export const moneyText = (description: string) =>
  z
    .string()
    .regex(MONEY_TEXT, 'Must be a decimal string with at most two decimal places, e.g. "12.50".')
    .openapi({ description: `${description}: a decimal string with at most two decimal places`, example: "12.50" });

/** A quantity of an order line (a parcel's, a confirmation's): 1 to 9999 units, optional where it has a default. */
export const optionalLineQuantity = (description: string) => z.number().int().min(1).max(9999).optional().openapi({ description });

/**
 * The example of a date the API takes only from today on (ship dates, return-by dates): far enough ahead that the
 * portal's Try-it and generated samples keep working for years, where a date near the release would soon be refused.
 */
export const FUTURE_DATE_EXAMPLE = "2030-06-03";
