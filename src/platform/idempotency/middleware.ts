import type { Context, MiddlewareHandler } from "hono";
import { database } from "../../db/client";
import type { StoredResponse } from "../../db/schema";
import type { AppEnv } from "../../env";
import { inBackground } from "../background";
import { readJsonBody } from "../content-type";
import { errorMessage, IdempotencyConflictError, ProblemError, revivedError, ValidationError } from "../errors";
import { logEvent } from "../logging";
import { idempotencyConflictResponse } from "../responses";
import { sha256Hex } from "../sha256";
import { tenantDatabase } from "../tenant-home";
import type { BeginOutcome, KeyLock, StoreRun } from "./key-lock";
import { type IdempotentRequest, loadCommittedResult } from "./results";

/**
 * Idempotency for unsafe POSTs (spec section 8). The middleware validates the key, fingerprints the request and asks
 * the key's lock, kept by the tenant's store (src/shared/tenants/idempotency-lock.ts), whether to run the handler,
 * replay a cached result or refuse with 409. Route it after authentication: keys are per tenant (the bearer check sets
 * the tenant's locks).
 */

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_CACHED_HEADER = "X-Idempotency-Cached";
export const PROCESSING_MESSAGE = "the request is currently being processed";
export const MISMATCH_MESSAGE = "the Idempotency-Key was already used with a different request body";
/** Any UUID version, with dashes, either case. No regex flags: the OpenAPI document publishes the pattern as is. */
export const UUID_WITH_DASHES = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The lock of a key: its tenant store's (the bearer check sets them), beside the results that commit with its writes. */
function keyLock(c: Context<AppEnv>, key: string): KeyLock {
  const locks = c.get("keyLocks");
  if (!locks) throw new Error("an idempotent route needs the bearer check of a buyer before it");
  return locks(key);
}

/** JSON with object keys sorted at every level: equal documents give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of method, path and canonical body: what "the same request" means for a key. */
export async function requestFingerprint(method: string, path: string, body: unknown): Promise<string> {
  return sha256Hex(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`);
}

function requireKey(value: string | undefined): string {
  if (value && UUID_WITH_DASHES.test(value)) return value;
  throw new ValidationError(
    { idempotencyKey: [`The ${IDEMPOTENCY_KEY_HEADER} header is required and must be a UUID with dashes.`] },
    `Missing or invalid ${IDEMPOTENCY_KEY_HEADER} header.`,
  );
}

const isCacheable = (status: number) => (status >= 200 && status < 300) || status >= 500;

/**
 * The answer as stored, read whole now (it is JSON already in memory): recording it must not wait for the client to
 * read its copy, which a clone's second branch would.
 */
async function snapshot(c: Context<AppEnv>): Promise<StoredResponse> {
  const { res } = c;
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const stored = { status: res.status, headers, body: await res.text() };
  c.res = new Response(stored.body, { status: stored.status, headers: res.headers });
  return stored;
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set(IDEMPOTENCY_CACHED_HEADER, "true");
  return new Response(stored.body, { status: stored.status, headers });
}

function storeUnavailable(err: unknown): ProblemError {
  logEvent("error", { event: "idempotency_store_unavailable", message: errorMessage(err) });
  return new ProblemError(
    503,
    "unavailable",
    "Service Unavailable",
    "The idempotency store is temporarily unavailable; retry with backoff.",
    {
      headers: { "Retry-After": "2" },
    },
  );
}

/** The response a handler sends as JSON, as stored for replay: the same status, content type and bytes. */
export function storedJson(status: number, payload: unknown): StoredResponse {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(payload) };
}

function logRecordFailure(c: Context<AppEnv>, err: unknown): void {
  logEvent("error", {
    correlationId: c.get("correlationId"),
    event: "idempotency_record_failed",
    message: errorMessage(err),
  });
}

/**
 * Spec 8 for one request. The key's lock in the tenant's store serializes attempts (processing marker, 409s, cached
 * 4xx-free results); the same store holds the results that committed with their writes (`results.ts`), and a committed
 * result wins: it is replayed whatever the lock says (a marker left by a crash, lost attempts, a cached 5xx).
 */
export const idempotent: MiddlewareHandler<AppEnv> = (c, next) => idempotentWith({})(c, next);

/**
 * The whole request in one call to the tenant's store, its key's lock included, for a tenant that lives in its store
 * (docs/tenant-stores.md, "Order creation"): the route's reads that are not the tenant's own come first (remembered,
 * ideally), then the store decides, checks and writes. Undefined when the body is not one the handler would accept: the
 * usual path then answers it.
 */
export type InStore = (c: Context<AppEnv>, body: unknown, request: IdempotentRequest) => Promise<StoreRun> | undefined;

/** A failure of an `InStore` run before it reached the store (its reads): answered as it is, the key untouched. */
class FailedBeforeTheStore extends Error {
  constructor(readonly failure: unknown) {
    super("failed before the store was called");
  }
}

/** The reads an `InStore` run makes before calling the store: their failure is answered as it is (a 503 of D1, say). */
export const beforeTheStore = <T>(reads: Promise<T>): Promise<T> =>
  reads.catch((error: unknown) => {
    throw new FailedBeforeTheStore(error);
  });

/**
 * What the tenant's store answered for this request when it ran it whole (`InStore`), for the route's handler: the
 * value its operation gave, or its error thrown now; undefined when the request took the usual path.
 */
export function ranInStore<T>(c: Context<AppEnv>): T | undefined {
  const ran = c.get("ranInStore");
  if (!ran) return undefined;
  if ("failure" in ran) throw revivedError(ran.failure);
  return ran.value as T;
}

/** For the handler of an `InStore` route whose run failed before the store: that failure, thrown now. */
export async function failedBeforeTheStore(c: Context<AppEnv>): Promise<void> {
  const failure = c.get("failedBeforeTheStore");
  if (failure) throw failure.error;
}

export const idempotentWith =
  ({ inStore }: { inStore?: InStore }): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const key = requireKey(c.req.header(IDEMPOTENCY_KEY_HEADER));
    const body = await readJsonBody(c);
    // The body as the client sent it (before a version change brought it forward): a retry of a request begun before a
    // release that changed its body's form is still the same request.
    const fingerprint = await requestFingerprint(c.req.method, c.req.path, c.get("bodyAsSent") ?? body);
    // Test mode keeps its own keys (its sandbox twin), so a test request never replays a live one.
    const tenantId = c.get("principal").dataTenantId;
    const store = keyLock(c, key);
    const db = database(tenantDatabase(c));
    const whole = inStore?.(c, body, { tenantId, key, fingerprint });
    let failedBefore: { error: unknown } | undefined;

    const begin = () =>
      store.begin(fingerprint).then(
        (decision) => ({ decision }),
        (error: unknown) => ({ error }),
      );
    let decided: StoreRun | { decision: BeginOutcome } | { error: unknown } = whole
      ? await whole.then(
          (run) => run,
          (error: unknown) => ({ error }),
        )
      : await begin();
    if ("error" in decided && decided.error instanceof FailedBeforeTheStore) {
      // The reads before the store failed: the key's lock decides as on the usual path (a committed result or a cached
      // answer replays, another body or an attempt under way is a 409), and the handler answers the reads' failure, a
      // 5xx the key then replays (spec 8, rule 6).
      failedBefore = { error: decided.error.failure };
      decided = await begin();
    }
    // The usual outcomes need no read of the results: a new key proceeds (if the lock had lost a committed result, the write
    // batch fails on the result's unique key and the check after the handler replays it), a settled key replays.
    const usual = "decision" in decided && (decided.decision.outcome === "proceed" || isSettledReplay(decided.decision));
    if (!usual) {
      // Where the lock is the tenant's store, a store that failed to decide may fail this read too: a 503 either way.
      const committed = await loadCommittedResult(db, tenantId, key).catch((error: unknown) => {
        if ("error" in decided) throw storeUnavailable(decided.error);
        throw error;
      });
      if (committed) {
        if (committed.fingerprint !== fingerprint) throw new IdempotencyConflictError(MISMATCH_MESSAGE);
        // Teach the lock the committed result (a crash's marker, lost attempts, a cached 5xx).
        if ("decision" in decided) await store.settle(fingerprint, committed.response).catch((err: unknown) => logRecordFailure(c, err));
        return replay(committed.response);
      }
    }
    if ("error" in decided) throw storeUnavailable(decided.error);
    const { decision } = decided;
    if (decision.outcome === "replay") return replay(decision.response);
    if (decision.outcome === "mismatch") throw new IdempotencyConflictError(MISMATCH_MESSAGE);
    if (decision.outcome === "processing") throw new IdempotencyConflictError(PROCESSING_MESSAGE);

    c.set("idempotentRequest", { tenantId, key, fingerprint });
    if (failedBefore) c.set("failedBeforeTheStore", failedBefore);
    const ranWhole = "ran" in decided ? (decided as Extract<StoreRun, { ran: unknown }>) : undefined;
    if (ranWhole) c.set("ranInStore", ranWhole.ran);
    await next();

    // A failure answer while a result of this key did commit (the batch committed but its reply was lost, or a
    // concurrent attempt won after the lock lost its state): the committed result is the answer, never the error. (A
    // store that ran the request whole and recorded its 4xx decided under the lock, after its committed results.)
    if (c.res.status >= 400 && !ranWhole?.recorded) {
      const won = await loadCommittedResult(db, tenantId, key).catch(() => null);
      if (won) c.res = won.fingerprint === fingerprint ? replay(won.response) : idempotencyConflictResponse(c, MISMATCH_MESSAGE);
    }

    // The store that ran the request whole recorded its 2xx or 4xx in that same call.
    if (ranWhole?.recorded && c.res.status < 500) return;
    const record = isCacheable(c.res.status) ? store.complete(decision.attemptId, await snapshot(c)) : store.release(decision.attemptId);
    const recorded = record.catch((err: unknown) => logRecordFailure(c, err));
    // A 2xx committed its result in the handler's batch: it is recorded in the lock in the background (the answer
    // does not wait; a retry meanwhile finds the marker, then the committed result). A failure answer
    // is recorded before it is sent, so that an immediate retry is not told the key is still processing. Either
    // way the handler's result stands if recording fails; an unreleased marker times out after 5 minutes.
    if (c.res.status < 300) inBackground(c, recorded);
    else await recorded;
  };

/** A 2xx or 4xx result the lock replays; a cached 5xx may have been overtaken by a committed result. */
const isSettledReplay = (decision: BeginOutcome) => decision.outcome === "replay" && decision.response.status < 500;

/** The request behind `idempotent` that a handler is answering; its write batch commits the result with it. */
export function idempotentRequest(c: Context<AppEnv>): IdempotentRequest {
  const request = c.get("idempotentRequest");
  if (!request) throw new Error("idempotentRequest() needs the idempotent middleware on the route");
  return request;
}
