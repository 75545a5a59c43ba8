/**
 * Errors the application throws on purpose. The error handler (src/platform/error-handler.ts) turns each
 * class into one of the body forms of spec section 7.2; see docs/errors.md for which form is used when.
 */

import type { ProblemSlug } from "./problem-types";

export type FieldErrors = Record<string, string[]>;

/**
 * One entry of a problem's `errors` (docs/errors.md): what is wrong in `detail`, and the field it is wrong in (a
 * camelCase path such as `quoteItems[1].quantity`, a header or a query parameter) when there is one.
 */
export interface ProblemFieldError {
  field?: string;
  detail: string;
}

/**
 * The entries of an error answer's `errors` in whichever form an API version gave them: entries (since 2026-12-07),
 * strings, or a map of field paths to messages. For the Medparts planes that call the API (desk, EDI, procurement).
 */
export function listedErrors(errors: unknown): ProblemFieldError[] {
  if (Array.isArray(errors)) {
    return errors.map((entry) =>
      entry !== null && typeof entry === "object"
        ? {
            ...("field" in entry && typeof entry.field === "string" ? { field: entry.field } : {}),
            detail: String((entry as { detail?: unknown }).detail ?? ""),
          }
        : { detail: String(entry) },
    );
  }
  if (errors !== null && typeof errors === "object") return problemErrors(errors as FieldErrors);
  return [];
}

/** A problem's `errors` as every answer gives them: field messages in field order, then messages of no field. */
export function problemErrors(errors: string[] | FieldErrors | undefined): ProblemFieldError[] {
  if (errors === undefined) return [];
  if (Array.isArray(errors)) return errors.map((detail) => ({ detail }));
  return Object.entries(errors).flatMap(([field, messages]) => messages.map((detail) => ({ field, detail })));
}

/**
 * An empty FieldErrors to fill by field name: without a prototype, so that a name taken from a request ("toString",
 * "__proto__") is a field like any other instead of reaching Object.prototype.
 */
export const noFieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

/** RFC 9457 problem details. `slug` becomes the problem `type` URI. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly slug: ProblemSlug,
    readonly title: string,
    readonly detail: string,
    readonly options: { errors?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

/** 400 validation problem: its `errors` name the fields (camelCase paths) and what is wrong with each. */
export class ValidationError extends Error {
  constructor(
    readonly fieldErrors: FieldErrors,
    readonly detail = "The request has invalid fields.",
  ) {
    super(detail);
  }
}

/** A 422 business-rule rejection (`business-rule`), one message per offending line (form 1 of spec 7.2 before 2026-12-07). */
export class BusinessRuleError extends Error {
  constructor(
    readonly status: 422,
    readonly errors: string[],
  ) {
    super(errors.join("; "));
  }
}

/** A 409 idempotency conflict (`idempotency-conflict`; the spec's `{ "error": message }` before 2026-12-07). */
export class IdempotencyConflictError extends Error {}

export const notFound = (detail: string) => new ProblemError(404, "not-found", "Not Found", detail);
export const forbidden = (detail: string) => new ProblemError(403, "forbidden", "Forbidden", detail);
/** 422 for a reference in a request that does not hold (an unknown product, tenant, vendor, SKU...), each named in `errors`. */
export const unprocessable = (errors: string[]) =>
  new ProblemError(422, "unprocessable", "Unprocessable", "A reference in the request does not hold; `errors` names each.", { errors });
export const malformedJson = () =>
  new ValidationError({ body: ["Malformed JSON in request body."] }, "The request body is not valid JSON.");
export const invalidSearchQuery = (detail: string) => new ProblemError(400, "invalid-search-query", "Invalid search query", detail);

/**
 * An error as it crosses a Durable Object's RPC (which keeps only an Error's message): the request errors above with
 * every field, anything else as unexpected.
 */
export type TransferableError =
  | { kind: "problem"; status: number; slug: ProblemSlug; title: string; detail: string; options: ProblemError["options"] }
  | { kind: "business"; errors: string[] }
  | { kind: "validation"; fieldErrors: FieldErrors; detail: string }
  | { kind: "unexpected"; message: string };

export function transferableError(error: unknown): TransferableError {
  if (error instanceof ProblemError) {
    const { status, slug, title, detail, options } = error;
    return { kind: "problem", status, slug, title, detail, options };
  }
  if (error instanceof BusinessRuleError) return { kind: "business", errors: error.errors };
  if (error instanceof ValidationError) return { kind: "validation", fieldErrors: { ...error.fieldErrors }, detail: error.detail };
  return { kind: "unexpected", message: errorMessage(error) };
}

/** The error `transferableError` described, to throw on this side. */
export function revivedError(error: TransferableError): Error {
  switch (error.kind) {
    case "problem":
      return new ProblemError(error.status, error.slug, error.title, error.detail, error.options);
    case "business":
      return new BusinessRuleError(422, error.errors);
    case "validation":
      return new ValidationError(Object.assign(noFieldErrors(), error.fieldErrors), error.detail);
    case "unexpected":
      return new Error(error.message);
  }
}

/** An error's message, whatever was thrown. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
