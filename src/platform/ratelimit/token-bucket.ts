/**
 * Token bucket arithmetic, pure so that it is testable without a Durable Object. The bucket holds at
 * most `capacity` tokens (the burst) and refills continuously at `refillPerMinute`.
 */

export interface BucketConfig {
  capacity: number;
  refillPerMinute: number;
}

export interface BucketState {
  tokens: number;
  updatedAtMs: number;
}

export interface TakeResult {
  state: BucketState;
  granted: number;
  /** Whole tokens left in the bucket after the grant. */
  remaining: number;
  /** Seconds until one token is available again (0 if one is available now). */
  retryAfterSeconds: number;
}

const refillPerMs = (config: BucketConfig) => config.refillPerMinute / 60_000;

export function refill(state: BucketState, config: BucketConfig, nowMs: number): BucketState {
  const elapsedMs = Math.max(0, nowMs - state.updatedAtMs);
  return {
    tokens: Math.min(config.capacity, state.tokens + elapsedMs * refillPerMs(config)),
    updatedAtMs: Math.max(nowMs, state.updatedAtMs),
  };
}

/** Returns `giveBack` unused tokens, then takes up to `want` whole tokens. */
export function take(state: BucketState, config: BucketConfig, nowMs: number, want: number, giveBack = 0): TakeResult {
  const refilled = refill(state, config, nowMs);
  const available = Math.min(config.capacity, refilled.tokens + Math.max(0, giveBack));
  const granted = Math.max(0, Math.min(want, Math.floor(available)));
  const tokens = available - granted;
  return {
    state: { tokens, updatedAtMs: refilled.updatedAtMs },
    granted,
    remaining: Math.floor(tokens),
    retryAfterSeconds: tokens >= 1 ? 0 : secondsToRefill(1 - tokens, config),
  };
}

/** Milliseconds (rounded up) until `tokens` more tokens have been added. */
export function msToRefill(tokens: number, config: BucketConfig): number {
  return tokens <= 0 ? 0 : Math.ceil(tokens / refillPerMs(config));
}

/** Whole seconds (rounded up) until `tokens` more tokens have been added. */
export function secondsToRefill(tokens: number, config: BucketConfig): number {
  return Math.ceil(msToRefill(tokens, config) / 1000);
}
