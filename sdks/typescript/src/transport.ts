/**
 * The transport under openapi-fetch: a `fetch(request)` that authenticates, pins the API version, makes writes
 * idempotent and retries what can be retried. It returns the final Response (2xx or not); the client's middleware turns
 * a non-2xx into a typed error.
 */

import { randomUUID } from "./crypto.js";
import { ConnectionError, errorFromResponse, parseRetryAfter } from "./errors.js";
import { KEYED_WRITES } from "./keyed-writes.js";

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  version: string;
  maxRetries: number;
  fetch: FetchLike;
  /** First backoff step; doubles on every retry. */
  initialRetryDelayMs: number;
  /** Cap of one backoff step (not of `Retry-After`). */
  maxRetryDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once, with `retryAfter`. */
  maxRetryAfterMs: number;
  /** Per attempt, until the response headers arrive; an attempt that times out is retried like a network error. 0: none. */
  timeoutMs: number;
  /** Renew the token this long before it expires. */
  tokenRefreshMarginMs: number;
  now: () => number;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const TOKEN_PATH = "/auth/oauth2/token";

/** Idempotency keys the transport generated, by the openapi-fetch Request they were generated for. */
export const generatedKeys = new WeakMap<Request, string>();

interface CachedToken {
  value: string;
  /** When to stop using it (expiry minus the margin), in ms since the epoch. */
  renewAt: number;
}

export class Transport {
  private token: CachedToken | undefined;
  private pending: Promise<string> | undefined;
  /** A token refused right after it was renewed (wrong API for this client, say): not renewed again for every call. */
  private refusedAfterRenewal: string | undefined;

  constructor(private readonly options: TransportOptions) {}

  /** A valid access token: the cached one, or a new one (concurrent callers share one token request). */
  getToken(): Promise<string> {
    const token = this.token;
    if (token && this.options.now() < token.renewAt) return Promise.resolve(token.value);
    this.pending ??= this.requestToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets `value` if it is still the cached token (after the API refused it). */
  invalidateToken(value?: string): void {
    if (value === undefined || this.token?.value === value) this.token = undefined;
  }

  private async requestToken(): Promise<string> {
    const { clientId, clientSecret } = this.options;
    const url = `${this.options.baseUrl}${TOKEN_PATH}`;
    const body = new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret });
    const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" });
    const response = await this.send({ url, method: "POST", headers, body: body.toString(), auth: false });
    if (!response.ok) throw await errorFromResponse(response, { method: "POST", url });
    const json = (await response.json()) as { access_token: string; expires_in?: number };
    const lifetimeMs = (json.expires_in ?? 3600) * 1000;
    const margin = Math.min(this.options.tokenRefreshMarginMs, lifetimeMs / 2);
    this.token = { value: json.access_token, renewAt: this.options.now() + lifetimeMs - margin };
    return json.access_token;
  }

  /** The fetch given to openapi-fetch. */
  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const isTokenCall = url.pathname.endsWith(TOKEN_PATH);
    const headers = new Headers(request.headers);
    if (!headers.has("Medparts-Version")) headers.set("Medparts-Version", this.options.version);
    if (!isTokenCall && WRITE_METHODS.has(request.method) && !headers.get("Idempotency-Key")) {
      const key = await randomUUID();
      headers.set("Idempotency-Key", key);
      generatedKeys.set(request, key);
    }
    // Read once: every attempt sends these same bytes.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const resendable = isTokenCall || isResendable(request.method, url.pathname);
    return this.send({ url: request.url, method: request.method, headers, body, auth: !isTokenCall, resendable, signal: request.signal });
  };

  /**
   * Sends a request, retrying 429 and an idempotency-conflict still in progress; and, when `resendable`, network errors,
   * timeouts and 502, 503, 504 too: those leave unknown whether the request was applied, so only a request the API
   * deduplicates (or that is idempotent by its method) may go again.
   */
  async send(req: {
    url: string;
    method: string;
    headers: Headers;
    /** Bytes, sent unchanged by every attempt. */
    body: BodyInit | undefined;
    auth: boolean;
    /** Safe to send again after a failure that leaves unknown whether it was applied (isResendable). */
    resendable?: boolean;
    signal?: AbortSignal | null;
  }): Promise<Response> {
    const resendable = req.resendable ?? true;
    const { maxRetries } = this.options;
    const headers = new Headers(req.headers);
    if (!headers.has("Medparts-Version")) headers.set("Medparts-Version", this.options.version);
    let renewedToken = false;
    for (let attempt = 0; ; attempt++) {
      let token: string | undefined;
      if (req.auth) {
        token = await this.getToken();
        headers.set("Authorization", `Bearer ${token}`);
      }
      let response: Response;
      const attemptSignal = withTimeout(req.signal ?? undefined, this.options.timeoutMs);
      try {
        response = await this.options.fetch(req.url, {
          method: req.method,
          headers,
          body: req.body,
          signal: attemptSignal.signal,
          redirect: "follow",
        });
      } catch (error) {
        attemptSignal.clear();
        if (req.signal?.aborted) throw req.signal.reason ?? error; // the caller cancelled: not retried
        if (!isNetworkError(error) && !attemptSignal.timedOut()) throw error;
        if (attempt >= maxRetries || !resendable) {
          const timedOut = attemptSignal.timedOut();
          throw new ConnectionError({
            message: `${req.method} ${req.url}: ${timedOut ? `no answer within ${this.options.timeoutMs} ms` : "network error"} after ${attempt + 1} attempt(s)${error instanceof Error && error.message ? ` (${error.message})` : ""}${resendable ? "" : "; not sent again: the API does not deduplicate it, and it may have been applied"}`,
            method: req.method,
            url: req.url,
            idempotencyKey: headers.get("Idempotency-Key") ?? undefined,
            cause: error,
          });
        }
        await sleep(this.backoff(attempt), req.signal ?? undefined);
        continue;
      }
      attemptSignal.clear();

      if (response.status === 401 && token !== undefined && isInvalidToken(response)) {
        if (renewedToken) {
          this.refusedAfterRenewal = token;
          return response;
        }
        if (token === this.refusedAfterRenewal) return response;
        // The token was refused (expired early, keys rotated...): renew it once, not counted as a retry.
        renewedToken = true;
        this.invalidateToken(token);
        await discard(response);
        attempt--;
        continue;
      }
      if (attempt < maxRetries) {
        const delay = await this.retryDelay(response, attempt, resendable);
        if (delay !== undefined) {
          await discard(response);
          await sleep(delay, req.signal ?? undefined);
          continue;
        }
      }
      return response;
    }
  }

  /** How long to wait before retrying this response, or undefined when it is final. */
  private async retryDelay(response: Response, attempt: number, resendable: boolean): Promise<number | undefined> {
    const { status } = response;
    // A 429 was not applied; a 503 or 504 may have been (a reply lost on the way): only a resendable request goes again.
    let retryable = status === 429 || (resendable && (status === 503 || status === 504));
    // A replayed 5xx is the stored answer of the first request: sending it again replays it again.
    if (status >= 500 && response.headers.get("X-Idempotency-Cached") === "true") retryable = false;
    if (status === 409) retryable = await isInProgressConflict(response);
    if (!retryable) return undefined;
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"), this.options.now());
    if (retryAfter !== undefined && retryAfter * 1000 > this.options.maxRetryAfterMs) return undefined;
    return Math.max(retryAfter === undefined ? 0 : retryAfter * 1000, this.backoff(attempt));
  }

  /** Exponential backoff with jitter: a random point in the upper half of initial * 2^attempt (capped). */
  private backoff(attempt: number): number {
    const step = Math.min(this.options.maxRetryDelayMs, this.options.initialRetryDelayMs * 2 ** attempt);
    return step / 2 + Math.random() * (step / 2);
  }
}

/** The writes the API deduplicates by Idempotency-Key, as patterns of their paths (./keyed-writes.ts, generated). */
const KEYED_PATTERNS = KEYED_WRITES.map((write) => {
  const [method, template] = write.split(" ") as [string, string];
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return { method, path: new RegExp(`${pattern}$`) };
});

/**
 * Whether a request may be sent again after a failure that leaves unknown whether it was applied: GET, HEAD, PUT and
 * DELETE by their meaning (RFC 9110 9.2.2), a POST or PATCH only when the API deduplicates it by Idempotency-Key.
 */
export function isResendable(method: string, pathname: string): boolean {
  const upper = method.toUpperCase();
  if (upper === "GET" || upper === "HEAD" || upper === "PUT" || upper === "DELETE") return true;
  return KEYED_PATTERNS.some((keyed) => keyed.method === upper && keyed.path.test(pathname));
}

async function isInProgressConflict(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { type?: unknown; detail?: unknown; error?: unknown };
    const detail = typeof body.detail === "string" ? body.detail : typeof body.error === "string" ? body.error : "";
    return /currently being processed/i.test(detail);
  } catch {
    return false;
  }
}

function isInvalidToken(response: Response): boolean {
  const challenge = response.headers.get("WWW-Authenticate") ?? "";
  // invalid_token per RFC 6750; a 401 without a challenge is treated the same (nothing else explains a 401).
  return challenge === "" || /error="?invalid_token/i.test(challenge);
}

/** fetch rejects with a TypeError when the request never got an answer (DNS, refused, reset...). */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && /fetch failed|network|ECONNRE|socket/i.test(error.message));
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to free.
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The caller's signal combined with a per-attempt timeout (without AbortSignal.any, for Node 18). */
function withTimeout(signal: AbortSignal | undefined, timeoutMs: number) {
  if (!timeoutMs) return { signal, clear: () => {}, timedOut: () => false };
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    // Only the timer: the caller's signal keeps aborting the response body, which is read after fetch resolves.
    clear: () => clearTimeout(timer),
    timedOut: () => timedOut,
  };
}
