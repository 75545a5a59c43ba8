/**
 * Errors the application throws on purpose. The error handler (src/platform/error-handler.ts) turns each
 * class into one of the body forms of spec section 7.2; see docs/errors.md for which form is used when.
 */

export type FieldErrors = Record<string, string[]>;

/**
 * An empty FieldErrors to fill by field name: without a prototype, so that a name taken from a request ("toString",
 * "__proto__") is a field like any other instead of reaching Object.prototype.
 */
export const noFieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

/** RFC 7807 problem details (form 2). `slug` becomes the problem `type` URI. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    readonly detail: string,
    readonly options: { errors?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

/** 400 validation problem whose `errors` maps camelCase field paths to messages (form 3). */
export class ValidationError extends Error {
  constructor(
    readonly fieldErrors: FieldErrors,
    readonly detail = "The request has invalid fields.",
  ) {
    super(detail);
  }
}

/** Business-rule rejection by a controller, controller-level form 1: `{ success: false, errors }`. */
export class BusinessRuleError extends Error {
  constructor(
    readonly status: 422,
    readonly errors: string[],
  ) {
    super(errors.join("; "));
  }
}

/** Idempotency conflict, spec form `{ "error": message }`. */
export class IdempotencyConflictError extends Error {}

export const notFound = (detail: string) => new ProblemError(404, "not-found", "Not Found", detail);
export const forbidden = (detail: string) => new ProblemError(403, "forbidden", "Forbidden", detail);
/** 422 for a reference in a request that does not hold (an unknown product, tenant, vendor, SKU...), each named in `errors`. */
export const unprocessable = (errors: string[]) =>
  new ProblemError(422, "unprocessable", "Unprocessable", "A reference in the request does not hold; `errors` names each.", { errors });
export const malformedJson = () =>
  new ValidationError({ body: ["Malformed JSON in request body."] }, "The request body is not valid JSON.");
export const invalidSearchQuery = (detail: string) => new ProblemError(400, "invalid-search-query", "Invalid search query", detail);
