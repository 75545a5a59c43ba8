import { DEFAULT_RATE_LIMITER_TIMEOUT_MS } from "../../env";
import { errorMessage } from "../errors";
import { logEvent } from "../logging";
import { withTimeout } from "../upstream";
import type { AcquireRequest, AcquireResult, RateLimiter } from "./rate-limiter";
import { type BucketConfig, secondsToRefill } from "./token-bucket";

/** Outcome of one request against one bucket; it becomes the RateLimit-* headers. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next token (only meaningful when not allowed). */
  retryAfterSeconds: number;
}

/**
 * Tokens this isolate has already taken from a key's Durable Object and may spend without asking it.
 * `bucketRemaining` is what the Durable Object reported when the lease was granted.
 */
interface Lease {
  tokens: number;
  bucketRemaining: number;
  expiresAtMs: number;
  /** When it was granted, and how many tokens it held then: the next lease's size follows how fast it went. */
  grantedAtMs: number;
  size: number;
}

const LEASE_TTL_MS = 5_000;
const MAX_LEASE_BATCH = 10;
const MAX_GROWN_LEASE = 100;
/** A lease spent within this time after its grant makes the next one twice as large (up to maxLeaseSize). */
const QUICKLY_SPENT_MS = 1_000;
const MAX_KEYS = 10_000;

/** A first lease is at most 5 % of the burst (and 10 tokens), so small buckets are exact (one DO call per request). */
export function leaseBatchSize(config: BucketConfig): number {
  return Math.max(1, Math.min(MAX_LEASE_BATCH, Math.floor(config.capacity / 20)));
}

/** A busy client's leases grow to at most 10 % of the burst (and 100 tokens), never below the first lease's size. */
export function maxLeaseSize(config: BucketConfig): number {
  return Math.max(leaseBatchSize(config), Math.min(MAX_GROWN_LEASE, Math.floor(config.capacity / 10)));
}

/**
 * The size of the lease to ask for after `previous`: the first size for a new key or after a lease expired with
 * tokens left (the client slowed down); twice the last one when it was spent within QUICKLY_SPENT_MS (a busy client
 * then calls the Durable Object every ~100 requests instead of every 10); else the same again.
 */
function nextLeaseSize(previous: Lease | undefined, config: BucketConfig, now: number): number {
  const first = leaseBatchSize(config);
  if (!previous || previous.tokens > 0) return first;
  const size = now - previous.grantedAtMs < QUICKLY_SPENT_MS ? previous.size * 2 : previous.size;
  return Math.max(first, Math.min(maxLeaseSize(config), size));
}

function decision(config: BucketConfig, allowed: boolean, remaining: number, retryAfterSeconds = 0): RateLimitDecision {
  const bounded = Math.max(0, Math.min(config.capacity, remaining));
  return {
    allowed,
    limit: config.capacity,
    remaining: bounded,
    resetSeconds: secondsToRefill(config.capacity - bounded, config),
    retryAfterSeconds,
  };
}

/** How often a request waiting for this isolate's lease request in flight looks at the lease again. */
const WAIT_POLL_MS = 2;

/** What an isolate knows of one key. */
interface KeyState {
  lease?: Lease;
  /** A lease request of this isolate for the key is in flight. */
  asking: boolean;
  /** Requests waiting for it (they size the next one). */
  waiting: number;
  /** The latest refusal of the bucket, numbered: a request that waited through one is refused with it. */
  refusal?: { decision: RateLimitDecision; number: number };
  refusals: number;
}

/**
 * Per-isolate allowances leased from the RateLimiter Durable Objects (see docs/architecture.md, Rate limiting).
 *
 * One lease request per key and isolate at a time: a request that finds no leased token while another request of the
 * isolate is asking waits for that lease (looking at it every WAIT_POLL_MS with a timer of its own, never awaiting a
 * promise another request resolves, which Workers may cancel as hung) instead of leasing tokens of its own. When the
 * lease does not cover every waiting request, the next one to look asks again, for as many as are waiting. So a full
 * bucket admits a burst of its size however concurrent, with two or three Durable Object calls, and an isolate never
 * holds more than a lease of its own sizing.
 */
export class LocalAllowances {
  private readonly keys = new Map<string, KeyState>();

  /** `timeoutMs`: how long a request waits for the limiter when its caller does not say (consume, peek). */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly timeoutMs = DEFAULT_RATE_LIMITER_TIMEOUT_MS,
  ) {}

  clear(): void {
    this.keys.clear();
  }

  /**
   * Spends one token of `key`. Returns null when the limiter is unavailable (no answer within `timeoutMs`): rate
   * limiting then fails open, because an outage of the limiter must not take the API down with it.
   */
  async consume(
    namespace: DurableObjectNamespace<RateLimiter>,
    key: string,
    config: BucketConfig,
    timeoutMs = this.timeoutMs,
  ): Promise<RateLimitDecision | null> {
    // The config is part of the lease key so that a changed limit never spends a lease granted under the old one.
    const state = this.stateOf(`${key}|${config.capacity}|${config.refillPerMinute}`);
    const seenRefusals = state.refusals;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const spent = this.spend(state, config);
      if (spent) return spent;
      if (state.refusal && state.refusal.number > seenRefusals) return state.refusal.decision;
      if (!state.asking) return this.ask(namespace, key, config, state, timeoutMs);
      // Past the deadline the limiter counts as unavailable: fail open, as when the Durable Object does not answer.
      if (Date.now() >= deadline) return null;
      state.waiting++;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      state.waiting--;
    }
  }

  /** Whether `key` has a token left, without spending one (asks the Durable Object; null when it is unavailable). */
  async peek(
    namespace: DurableObjectNamespace<RateLimiter>,
    key: string,
    config: BucketConfig,
    timeoutMs = this.timeoutMs,
  ): Promise<RateLimitDecision | null> {
    const result = await acquire(namespace, key, { ...config, want: 0, giveBack: 0 }, timeoutMs);
    return result && decision(config, result.remaining >= 1, result.remaining, result.retryAfterSeconds);
  }

  private spend(state: KeyState, config: BucketConfig): RateLimitDecision | null {
    const lease = state.lease;
    if (!lease || lease.tokens <= 0 || lease.expiresAtMs <= this.now()) return null;
    lease.tokens -= 1;
    return decision(config, true, lease.bucketRemaining + lease.tokens);
  }

  /** The isolate's one lease request for the key: for this request and every one waiting, and at least the usual size. */
  private async ask(
    namespace: DurableObjectNamespace<RateLimiter>,
    key: string,
    config: BucketConfig,
    state: KeyState,
    timeoutMs: number,
  ): Promise<RateLimitDecision | null> {
    const now = this.now();
    // The lease is spent or expired: it sizes the next one, and an expired one's tokens go back with this request.
    const previous = state.lease;
    state.lease = undefined;
    state.asking = true;
    let result: AcquireResult | null;
    try {
      const want = Math.max(nextLeaseSize(previous, config, now), state.waiting + 1);
      result = await acquire(namespace, key, { ...config, want, giveBack: previous?.tokens ?? 0 }, timeoutMs);
    } finally {
      state.asking = false;
    }
    if (!result) return null;
    if (result.granted === 0) {
      const refused = decision(config, false, result.remaining, result.retryAfterSeconds);
      state.refusals++;
      state.refusal = { decision: refused, number: state.refusals };
      return refused;
    }
    const kept = result.granted - 1;
    if (kept > 0) {
      state.lease = {
        tokens: kept,
        bucketRemaining: result.remaining,
        expiresAtMs: now + LEASE_TTL_MS,
        grantedAtMs: now,
        size: result.granted,
      };
    }
    return decision(config, true, result.remaining + kept);
  }

  private stateOf(leaseKey: string): KeyState {
    let state = this.keys.get(leaseKey);
    if (!state) {
      if (this.keys.size >= MAX_KEYS) {
        const oldest = this.keys.keys().next().value;
        if (oldest !== undefined) this.keys.delete(oldest);
      }
      state = { asking: false, waiting: 0, refusals: 0 };
      this.keys.set(leaseKey, state);
    }
    return state;
  }
}

export const localAllowances = new LocalAllowances();

/** One call to the key's Durable Object; null when it cannot be reached (rate limiting fails open). */
async function acquire(
  namespace: DurableObjectNamespace<RateLimiter>,
  key: string,
  request: AcquireRequest,
  timeoutMs: number,
): Promise<AcquireResult | null> {
  try {
    const stub = namespace.get(namespace.idFromName(key));
    return await withTimeout("DO", stub.acquire(request), timeoutMs);
  } catch (err) {
    logEvent("warn", {
      rateLimiter: "unavailable",
      bucket: key.split(":")[0],
      message: errorMessage(err),
    });
    return null;
  }
}
