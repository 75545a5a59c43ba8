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
const MAX_LEASES = 10_000;
const LIMITER_TIMEOUT_MS = 1_000;

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

/** Per-isolate allowances leased from the RateLimiter Durable Objects (see docs/architecture.md, Rate limiting). */
export class LocalAllowances {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly now: () => number = Date.now) {}

  clear(): void {
    this.leases.clear();
  }

  /**
   * Spends one token of `key`. Returns null when the limiter is unavailable: rate limiting then fails
   * open, because an outage of the limiter must not take the API down with it.
   */
  async consume(namespace: DurableObjectNamespace<RateLimiter>, key: string, config: BucketConfig): Promise<RateLimitDecision | null> {
    // The config is part of the lease key so that a changed limit never spends a lease granted under the old one.
    const leaseKey = `${key}|${config.capacity}|${config.refillPerMinute}`;
    const now = this.now();
    const lease = this.leases.get(leaseKey);
    if (lease && lease.tokens > 0 && lease.expiresAtMs > now) {
      lease.tokens -= 1;
      return decision(config, true, lease.bucketRemaining + lease.tokens);
    }
    this.leases.delete(leaseKey);

    const want = nextLeaseSize(lease, config, now);
    const result = await acquire(namespace, key, { ...config, want, giveBack: lease?.tokens ?? 0 });
    if (!result) return null;
    if (result.granted === 0) return decision(config, false, result.remaining, result.retryAfterSeconds);

    const kept = result.granted - 1;
    if (kept > 0) {
      this.remember(leaseKey, {
        tokens: kept,
        bucketRemaining: result.remaining,
        expiresAtMs: now + LEASE_TTL_MS,
        grantedAtMs: now,
        size: result.granted,
      });
    }
    return decision(config, true, result.remaining + kept);
  }

  /** Whether `key` has a token left, without spending one (asks the Durable Object; null when it is unavailable). */
  async peek(namespace: DurableObjectNamespace<RateLimiter>, key: string, config: BucketConfig): Promise<RateLimitDecision | null> {
    const result = await acquire(namespace, key, { ...config, want: 0, giveBack: 0 });
    return result && decision(config, result.remaining >= 1, result.remaining, result.retryAfterSeconds);
  }

  private remember(leaseKey: string, lease: Lease): void {
    // Concurrent requests of one isolate may each have fetched a lease: keep the tokens of both.
    const live = this.leases.get(leaseKey);
    if (live && live.expiresAtMs > this.now()) {
      live.tokens += lease.tokens;
      live.size += lease.size;
      live.bucketRemaining = Math.min(live.bucketRemaining, lease.bucketRemaining);
      return;
    }
    if (this.leases.size >= MAX_LEASES) {
      const oldest = this.leases.keys().next().value;
      if (oldest !== undefined) this.leases.delete(oldest);
    }
    this.leases.set(leaseKey, lease);
  }
}

export const localAllowances = new LocalAllowances();

/** One call to the key's Durable Object; null when it cannot be reached (rate limiting fails open). */
async function acquire(
  namespace: DurableObjectNamespace<RateLimiter>,
  key: string,
  request: AcquireRequest,
): Promise<AcquireResult | null> {
  try {
    const stub = namespace.get(namespace.idFromName(key));
    return await withTimeout("DO", stub.acquire(request), LIMITER_TIMEOUT_MS);
  } catch (err) {
    logEvent("warn", {
      rateLimiter: "unavailable",
      bucket: key.split(":")[0],
      message: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}
