/**
 * Typed errors. Every non-2xx answer of the API is thrown as a subclass of {@link MedpartsError}, chosen by status;
 * network failures (after the retries) as {@link ConnectionError}; bad webhook signatures as
 * {@link SignatureVerificationError}.
 *
 * The customer and vendor APIs answer errors as RFC 9457 problem documents; the token endpoint answers in the
 * RFC 6749 form `{ error, error_description }`. Both are mapped onto the same fields.
 */

/** One entry of a problem's `errors`: what is wrong, and the field it concerns when there is one. */
export interface ProblemFieldError {
  /** A camelCase path into the body (`quoteItems[1].quantity`), a query parameter or a header; absent when none. */
  field?: string;
  detail: string;
}

/** An RFC 9457 problem document as the Medparts API answers it (`application/problem+json`). */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  correlationId: string;
  timestamp: string;
  service: string;
  errors: ProblemFieldError[];
  [extension: string]: unknown;
}

/** The token endpoint's RFC 6749 section 5.2 error body. */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
}

export interface MedpartsErrorInit {
  message?: string;
  status?: number;
  type?: string;
  code?: string;
  title?: string;
  detail?: string;
  instance?: string;
  errors?: ProblemFieldError[];
  correlationId?: string;
  problem?: unknown;
  headers?: Headers;
  method?: string;
  url?: string;
  idempotencyKey?: string;
  retryAfter?: number;
  cause?: unknown;
}

/** The base class of every error this SDK throws. */
export class MedpartsError extends Error {
  /** HTTP status; `undefined` for a connection failure or a bad webhook signature. */
  readonly status: number | undefined;
  /** The problem type URI (`https://<host>/docs/errors/<slug>`); `undefined` for token endpoint and network errors. */
  readonly type: string | undefined;
  /**
   * What to branch on: the problem type's slug (`validation`, `idempotency-conflict`, `price-option-used`, ...), or the
   * token endpoint's OAuth `error` code (`invalid_client`, `temporarily_unavailable`, ...).
   */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  /** One entry per message, with the `field` it concerns; always an array (empty when `detail` says it all). */
  readonly errors: ProblemFieldError[];
  /** The request's correlation id (problem body or `X-Correlation-Id` header): quote it to support. */
  readonly correlationId: string | undefined;
  /** The whole parsed error body: the problem document, the OAuth error, or the raw text when it was not JSON. */
  readonly problem: unknown;
  /** The response headers (`Retry-After`, `WWW-Authenticate`, `Medparts-Mode`, `RateLimit-*`...). */
  readonly headers: Headers | undefined;
  readonly method: string | undefined;
  readonly url: string | undefined;
  /** The `Idempotency-Key` the request was sent with (generated or yours): send it again to retry the same write. */
  readonly idempotencyKey: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`), when it said so. */
  readonly retryAfter: number | undefined;

  constructor(init: MedpartsErrorInit = {}) {
    super(init.message ?? describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.instance = init.instance;
    this.errors = init.errors ?? [];
    this.correlationId = init.correlationId;
    this.problem = init.problem;
    this.headers = init.headers;
    this.method = init.method;
    this.url = init.url;
    this.idempotencyKey = init.idempotencyKey;
    this.retryAfter = init.retryAfter;
  }
}

/** 400, 405, 413, 415, 422 and any other 4xx without its own class: fix the request before sending it again. */
export class InvalidRequestError extends MedpartsError {}
/** 401: missing, expired or invalid token (after one renewal), or the token endpoint's `invalid_client`. */
export class AuthenticationError extends MedpartsError {}
/** 403: `insufficient-scope` or `forbidden` (a requester or facility your tenant may not use). */
export class PermissionError extends MedpartsError {}
/** 404: not found, or not yours (another tenant's or vendor's resource is a 404 too). */
export class NotFoundError extends MedpartsError {}
/** 409: `order-changed`, `price-option-used`, `lines-not-cancellable`, `change-superseded`, ... */
export class ConflictError extends MedpartsError {}
/** 409 `idempotency-conflict`: the key was used with another body, or the first request is still running. */
export class IdempotencyConflictError extends ConflictError {
  /** True for "the request is currently being processed": wait, then send the same request with the same key. */
  get inProgress(): boolean {
    return /currently being processed/i.test(this.detail ?? "");
  }
}
/** 429 (after the retries, or when `Retry-After` was longer than `maxRetryAfterMs`). See `retryAfter`. */
export class RateLimitError extends MedpartsError {}
/** 5xx (after the retries for 503 and 504). */
export class ApiServerError extends MedpartsError {}
/** The request never got an answer: network failure or timeout, after the retries. `cause` holds the last failure. */
export class ConnectionError extends MedpartsError {}
/** A webhook delivery whose `Medparts-Signature` is missing, malformed, stale or does not match the body. */
export class SignatureVerificationError extends MedpartsError {}

function describe(init: MedpartsErrorInit): string {
  const head = [init.status, init.title ?? init.code].filter((part) => part !== undefined).join(" ");
  let text = head && init.detail ? `${head}: ${init.detail}` : head || init.detail || "Medparts error";
  const fields = (init.errors ?? []).map((e) => (e.field ? `${e.field}: ${e.detail}` : e.detail));
  if (fields.length) text += ` [${fields.join("; ")}]`;
  if (init.correlationId) text += ` (correlation id ${init.correlationId})`;
  return text;
}

function classFor(status: number, code: string | undefined): typeof MedpartsError {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return code === "idempotency-conflict" ? IdempotencyConflictError : ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ApiServerError;
  if (status >= 400) return InvalidRequestError;
  return MedpartsError;
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

export interface ResponseContext {
  method?: string;
  url?: string;
  idempotencyKey?: string;
}

/** Reads a non-2xx response (problem document, OAuth error or anything else) into its typed error. */
export async function errorFromResponse(response: Response, context: ResponseContext = {}): Promise<MedpartsError> {
  let text = "";
  try {
    text = await response.text();
  } catch {
    // A body that cannot be read: the status and headers still say what happened.
  }
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the text.
  }
  return errorFromBody(response.status, body, response.headers, context);
}

export function errorFromBody(status: number, body: unknown, headers: Headers, context: ResponseContext = {}): MedpartsError {
  const init: MedpartsErrorInit = {
    status,
    problem: body,
    headers,
    method: context.method,
    url: context.url,
    idempotencyKey: context.idempotencyKey,
    correlationId: headers.get("X-Correlation-Id") ?? undefined,
    retryAfter: parseRetryAfter(headers.get("Retry-After")),
  };
  if (isRecord(body) && typeof body.error === "string" && !("type" in body)) {
    // The token endpoint (RFC 6749 section 5.2).
    init.code = body.error;
    init.title = body.error;
    init.detail = typeof body.error_description === "string" ? body.error_description : undefined;
  } else if (isRecord(body)) {
    if (typeof body.type === "string") {
      init.type = body.type;
      init.code = body.type
        .replace(/[?#].*$/, "")
        .split("/")
        .filter(Boolean)
        .pop();
    }
    if (typeof body.title === "string") init.title = body.title;
    if (typeof body.detail === "string") init.detail = body.detail;
    if (typeof body.instance === "string") init.instance = body.instance;
    if (typeof body.correlationId === "string") init.correlationId = body.correlationId;
    init.errors = normalizeFieldErrors(body.errors);
  } else if (typeof body === "string" && body) {
    init.detail = body.length > 500 ? `${body.slice(0, 500)}...` : body;
  }
  const ErrorClass = classFor(status, init.code);
  return new ErrorClass(init);
}

/** `errors` as a list of `{ field?, detail }`; tolerates the older forms (strings, or a map of field to messages). */
function normalizeFieldErrors(errors: unknown): ProblemFieldError[] {
  if (Array.isArray(errors)) {
    return errors.map((entry): ProblemFieldError => {
      if (typeof entry === "string") return { detail: entry };
      if (isRecord(entry)) {
        const out: ProblemFieldError = { detail: typeof entry.detail === "string" ? entry.detail : JSON.stringify(entry) };
        if (typeof entry.field === "string") out.field = entry.field;
        return out;
      }
      return { detail: String(entry) };
    });
  }
  if (isRecord(errors)) {
    return Object.entries(errors).flatMap(([field, messages]) =>
      (Array.isArray(messages) ? messages : [messages]).map((detail) => ({ field, detail: String(detail) })),
    );
  }
  return [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
