import { env, runInDurableObject } from "cloudflare:test";
import type { RateLimiter } from "../../src/platform/ratelimit/rate-limiter";
import type { Fault } from "./faults";

/** Request headers the test entry worker understands (test/helpers/worker.ts). */
export const testVars = (vars: Record<string, string | number>) => ({
  "X-Test-Vars": new URLSearchParams(Object.entries(vars).map(([k, v]): [string, string] => [k, String(v)])).toString(),
});
export const testFault = (fault: Fault) => ({ "X-Test-Fault": fault });

/** Replaces the clock of one RateLimiter Durable Object: `clock` gets the one it had and returns the new one. */
async function setBucketClock(key: string, clock: (previous: () => number) => () => number): Promise<void> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
  // runInDurableObject wants objects typed with the test Env; RateLimiter is typed with the production Bindings.
  await runInDurableObject(stub as DurableObjectStub, (instance) => {
    const limiter = instance as unknown as RateLimiter;
    limiter.now = clock(limiter.now);
  });
}

/** Moves the clock of one RateLimiter Durable Object forward; no real time passes. */
export const advanceBucketClock = (key: string, ms: number) => setBucketClock(key, (previous) => () => previous() + ms);

/** Makes one RateLimiter Durable Object read its time from `now` (a test's own clock, shared with other objects or isolates). */
export const useBucketClock = (key: string, now: () => number) => setBucketClock(key, () => now);

/**
 * Stops the clock of one RateLimiter Durable Object (before its first request): nothing refills while the test runs,
 * however slowly the machine answers; advanceBucketClock still moves it.
 */
export const stopBucketClock = (key: string) => {
  const stoppedAt = Date.now();
  return useBucketClock(key, () => stoppedAt);
};

/** The whole tokens left in a key's RateLimiter Durable Object (what isolates leased is no longer in it). */
export const bucketTokens = (key: string) =>
  runInDurableObject(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)) as DurableObjectStub, (_, state) =>
    Math.round(state.storage.sql.exec<{ tokens: number }>("SELECT tokens FROM bucket").one().tokens),
  );

export function rateLimitHeaders(res: Response) {
  const number = (name: string) => (res.headers.has(name) ? Number(res.headers.get(name)) : null);
  return {
    limit: number("RateLimit-Limit"),
    remaining: number("RateLimit-Remaining"),
    reset: number("RateLimit-Reset"),
    retryAfter: number("Retry-After"),
  };
}

/**
 * Polls `read` until `done` holds (or gives up after `timeoutMs` and returns the last value, for the caller's
 * assertion to report): for work a response does not wait for, such as recording an idempotent 2xx in its
 * Durable Object (`waitUntil`).
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}

/**
 * Polls `check` until it gives a value and returns it, or throws naming `what` after `timeoutMs`: for what queues,
 * alarms and schedules do in the background (a projection, an outbox, a sandbox step).
 */
export async function eventuallyFound<T>(check: () => Promise<T | null | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
