/**
 * Retry helper for integrators of the Medparts API (spec 7.3), self-contained so it can be copied into a
 * client code base. Usage and rules: docs/api.md, "Platform: retries and limits".
 *
 *   const res = await fetchWithRetry(`${base}/customer/api/orders`, {
 *     method: "POST",
 *     headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
 *     body: JSON.stringify(order),
 *   });
 *
 * - 2xx, 3xx and 4xx come back at once: a 4xx will fail the same way again, except
 *   429 (rate limited) and 409 "the request is currently being processed" (idempotency), which are retried.
 * - 5xx and network errors are retried.
 * - Waits grow exponentially with full jitter (a random wait between 0 and base * 2^(retry-1), capped),
 *   and never less than the server's Retry-After. A Retry-After longer than `maxDelayMs` is not waited
 *   for: that response is returned, the caller decides.
 * - Send the same body on every attempt (strings or bytes, not a stream); for POST /orders keep the same
 *   Idempotency-Key across attempts, which is what makes retrying an order safe.
 */

export interface RetryOptions {
  /** Attempts in total, the first included. Default 5. */
  maxAttempts?: number;
  /** Upper bound of the first retry's wait. Default 500 ms. */
  baseDelayMs?: number;
  /** Upper bound of any wait. Default 30 s. */
  maxDelayMs?: number;
  /** Injectable for tests and custom runtimes. */
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1). */
  random?: () => number;
  /** Milliseconds since the epoch, to read an HTTP-date Retry-After. */
  now?: () => number;
  /** Called before each wait (logging, metrics). */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  /** The attempt that failed, 1-based. */
  attempt: number;
  delayMs: number;
  status?: number;
  error?: unknown;
}

const DEFAULTS = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

const PROCESSING = /currently being processed/i;

/** Whether a response is worth sending again unchanged (spec 7.3). */
export async function isRetryableResponse(res: Response): Promise<boolean> {
  if (res.status >= 500 || res.status === 429) return true;
  if (res.status !== 409) return false;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown; detail?: unknown } | null;
  // The problem's detail (since 2026-12-07), or the spec's `{ error }` of a client pinned before.
  const message = body?.detail ?? body?.error;
  return typeof message === "string" && PROCESSING.test(message);
}

/** Retry-After in milliseconds (delta-seconds or HTTP-date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: () => number = Date.now): number | null {
  if (header === null || header.trim() === "") return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now());
}

/**
 * The wait after failed attempt `attempt` (1-based): full jitter over an exponentially growing window,
 * raised to the server's Retry-After. Null means "do not wait that long": give up.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: number | null,
  options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random"> = {},
): number | null {
  const base = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const random = options.random ?? Math.random;
  if (retryAfter !== null && retryAfter > max) return null;
  const window = Math.min(max, base * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * window);
  return Math.max(jittered, retryAfter ?? 0);
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** fetch with the retry rules above; returns the last response, or throws the last network error. */
export async function fetchWithRetry(input: RequestInfo | URL, init: RequestInit = {}, options: RetryOptions = {}): Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts);
  const doFetch = options.fetch ?? ((i: RequestInfo | URL, r?: RequestInit) => fetch(i, r));
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;

  for (let attempt = 1; ; attempt++) {
    let res: Response | undefined;
    let error: unknown;
    try {
      res = await doFetch(input instanceof Request ? input.clone() : input, init);
    } catch (err) {
      error = err;
    }
    const last = attempt >= maxAttempts;
    if (res && (last || !(await isRetryableResponse(res)))) return res;
    if (!res && last) throw error;

    const delayMs = retryDelayMs(attempt, res ? retryAfterMs(res.headers.get("Retry-After"), now) : null, options);
    if (delayMs === null && res) return res;
    options.onRetry?.({ attempt, delayMs: delayMs ?? 0, status: res?.status, error });
    // The response is dropped: free its body before waiting.
    await res?.body?.cancel();
    await sleep(delayMs ?? 0);
  }
}
