/**
 * Failures of the platform services the Worker depends on (D1, KV, Durable Objects). The error handler
 * maps them to 503 (with Retry-After) or 504 instead of a 500: they are transient and worth a retry.
 */

export type UpstreamService = "D1" | "KV" | "DO";
export type UpstreamFailureKind = "unavailable" | "timeout";

export const UPSTREAM_RETRY_AFTER_SECONDS = 5;

export class UpstreamError extends Error {
  constructor(
    readonly service: UpstreamService,
    readonly kind: UpstreamFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UpstreamError";
  }
}

export interface UpstreamFailure {
  service: UpstreamService;
  kind: UpstreamFailureKind;
  /** Message of the recognized error itself, not of a wrapper (drizzle's wrapper quotes query parameters). */
  message: string;
}

const TIMEOUT = /time[d]?[ -]?out|exceeded timeout/i;
// D1 errors that say the database could not serve the query just now, so a retry may succeed. Any other D1 error
// (a constraint, a type, "LIKE or GLOB pattern too complex", ...) is about the query or the data: retrying it
// cannot help, so it stays a 500 and never becomes a 503 that clients are told to retry.
const D1_TRANSIENT = /network connection lost|overloaded|timed? ?out|exceeded timeout|was reset|unavailable|try again later/i;
const MAX_CAUSE_DEPTH = 5;

function serviceOf(err: Error): UpstreamService | null {
  const message = err.message;
  if (/^D1_|D1_ERROR|^D1 DB /.test(message)) return D1_TRANSIENT.test(message) ? "D1" : null;
  if (/^KV (GET|PUT|DELETE|LIST|get|put|delete|list)/.test(message)) return "KV";
  // The runtime flags Durable Object infrastructure errors (and lost connections) with these properties.
  const flags = err as Error & { retryable?: unknown; overloaded?: unknown };
  if (flags.retryable === true || flags.overloaded === true || /Durable Object|Network connection lost/i.test(message)) return "DO";
  return null;
}

/** Recognizes an upstream failure in the error or its `cause` chain (drizzle wraps D1 errors). */
export function classifyUpstreamFailure(err: unknown): UpstreamFailure | null {
  let current: unknown = err;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (current instanceof UpstreamError) return { service: current.service, kind: current.kind, message: current.message };
    const service = serviceOf(current);
    if (service) return { service, kind: TIMEOUT.test(current.message) ? "timeout" : "unavailable", message: current.message };
    current = current.cause;
  }
  return null;
}

/** Rejects with an UpstreamError timeout if `operation` has not settled within `timeoutMs`. */
export async function withTimeout<T>(service: UpstreamService, operation: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UpstreamError(service, "timeout", `${service} call timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([operation, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
