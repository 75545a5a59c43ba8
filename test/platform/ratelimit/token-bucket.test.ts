import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import { LocalAllowances, leaseBatchSize, maxLeaseSize, type RateLimitDecision } from "../../../src/platform/ratelimit/limiter";
import { rateLimitHeaders } from "../../../src/platform/ratelimit/middleware";
import { apiClientPolicy, tokenEndpointPolicy } from "../../../src/platform/ratelimit/policy";
import { type BucketConfig, take } from "../../../src/platform/ratelimit/token-bucket";
import { runs } from "../../helpers/depth";
import { namespaceAround } from "../../helpers/faults";
import { advanceBucketClock, bucketTokens, useBucketClock } from "../../helpers/platform";

/**
 * How long these isolates wait for the limiter: a minute, not production's second, so that a loaded machine's slow
 * answer never fails a request open (served unlimited) and the counts stay exact (issue 65).
 */
const PATIENT_MS = 60_000;

describe("token bucket arithmetic", () => {
  const config = { capacity: 10, refillPerMinute: 60 };

  it("refills continuously up to the capacity", () => {
    const empty = { tokens: 0, updatedAtMs: 0 };
    expect(take(empty, config, 999, 1).granted).toBe(0);
    expect(take(empty, config, 1_000, 1)).toMatchObject({ granted: 1, remaining: 0 });
    expect(take(empty, config, 3_600_000, 20)).toMatchObject({ granted: 10, remaining: 0 });
  });

  it("reports the wait for the next token", () => {
    expect(take({ tokens: 0.25, updatedAtMs: 0 }, config, 0, 1)).toMatchObject({ granted: 0, retryAfterSeconds: 1 });
    expect(take({ tokens: 0, updatedAtMs: 0 }, { capacity: 2, refillPerMinute: 6 }, 0, 1).retryAfterSeconds).toBe(10);
  });

  it("takes returned tokens back, never beyond the capacity, and ignores a clock going backwards", () => {
    expect(take({ tokens: 5, updatedAtMs: 0 }, config, 0, 0, 3).state.tokens).toBe(8);
    expect(take({ tokens: 9, updatedAtMs: 0 }, config, 0, 0, 3).state.tokens).toBe(10);
    expect(take({ tokens: 5, updatedAtMs: 10_000 }, config, 0, 1).state).toEqual({ tokens: 4, updatedAtMs: 10_000 });
  });
});

describe("configuration", () => {
  it("reads rate and burst from the vars, falling back to defaults on missing or invalid values", () => {
    expect(apiClientPolicy({ RATE_LIMIT_BURST: "50", RATE_LIMIT_PER_MINUTE: "120" })).toEqual({ capacity: 50, refillPerMinute: 120 });
    expect(apiClientPolicy({ RATE_LIMIT_BURST: "-1", RATE_LIMIT_PER_MINUTE: "many" })).toEqual({ capacity: 100, refillPerMinute: 600 });
    expect(tokenEndpointPolicy({})).toEqual({ capacity: 10, refillPerMinute: 30 });
  });

  it("leases nothing for small buckets (exact) and at most 10 tokens for large ones", () => {
    expect(leaseBatchSize({ capacity: 10, refillPerMinute: 1 })).toBe(1);
    expect(leaseBatchSize({ capacity: 100, refillPerMinute: 1 })).toBe(5);
    expect(leaseBatchSize({ capacity: 100_000, refillPerMinute: 1 })).toBe(10);
  });

  it("lets a busy client's leases grow to 10 % of the burst and at most 100 tokens, never below the first size", () => {
    expect(maxLeaseSize({ capacity: 10, refillPerMinute: 1 })).toBe(1);
    expect(maxLeaseSize({ capacity: 100, refillPerMinute: 1 })).toBe(10);
    expect(maxLeaseSize({ capacity: 100_000, refillPerMinute: 1 })).toBe(100);
  });
});

describe("per-isolate allowance reconciled with the Durable Object", () => {
  const config = { capacity: 100, refillPerMinute: 0.000001 };

  it("leases a batch, spends it locally, and returns the unused rest when the lease expires", async () => {
    let now = 1_000_000;
    const allowances = new LocalAllowances(() => now, PATIENT_MS);
    const key = `unit:${crypto.randomUUID()}`;

    const first = await allowances.consume(env.RATE_LIMITER, key, config);
    expect(first).toMatchObject({ allowed: true, remaining: 99 });
    expect(await bucketTokens(key)).toBe(95); // 5 leased to this isolate
    await allowances.consume(env.RATE_LIMITER, key, config);
    expect(await bucketTokens(key)).toBe(95); // served locally, no Durable Object call

    now += 6_000; // the lease (5 s) expires with 3 tokens unused
    const afterExpiry = await allowances.consume(env.RATE_LIMITER, key, config);
    expect(afterExpiry).toMatchObject({ allowed: true, remaining: 97 });
    expect(await bucketTokens(key)).toBe(93); // 95 + 3 returned - 5 leased
  });

  it("a lease spent within a second doubles the next one up to 10 % of the burst; one left unspent brings it back", async () => {
    let now = 2_000_000;
    const allowances = new LocalAllowances(() => now, PATIENT_MS);
    const key = `unit:${crypto.randomUUID()}`;
    const large = { capacity: 1000, refillPerMinute: 0.000001 };
    const spend = async (requests: number) => {
      for (let i = 0; i < requests; i++) expect((await allowances.consume(env.RATE_LIMITER, key, large))?.allowed).toBe(true);
    };
    // Leases of 10, 20, 40, 80, then 100 (the cap), each spent at once: the Durable Object holds what was leased.
    await spend(10);
    expect(await bucketTokens(key)).toBe(990);
    await spend(1);
    expect(await bucketTokens(key)).toBe(970);
    await spend(19 + 1);
    expect(await bucketTokens(key)).toBe(930);
    await spend(39 + 1 + 79 + 1);
    expect(await bucketTokens(key)).toBe(750);
    await spend(99 + 1);
    expect(await bucketTokens(key)).toBe(650);

    // Spent slowly (over more than a second): the same size again.
    await spend(50);
    now += 2_000;
    await spend(49 + 1);
    expect(await bucketTokens(key)).toBe(550);

    // The client slows down: the lease expires with tokens left, which go back, and the next lease is the first size.
    now += 6_000;
    await spend(1);
    expect(await bucketTokens(key)).toBe(550 + 99 - 10);
  });

  it("never lets two isolates together exceed the burst", async () => {
    const key = `unit:${crypto.randomUUID()}`;
    const a = new LocalAllowances(Date.now, PATIENT_MS);
    const b = new LocalAllowances(Date.now, PATIENT_MS);
    let allowed = 0;
    for (let i = 0; i < 120; i++) {
      const decision = await (i % 2 ? a : b).consume(env.RATE_LIMITER, key, config);
      if (decision?.allowed) allowed++;
    }
    expect(allowed).toBe(100);
  });
});

describe("cleanup of refilled buckets", () => {
  it("an alarm deletes the state once the bucket is full again and unused for a minute, and not before", async () => {
    const key = `unit:${crypto.randomUUID()}`;
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
    // 2 of 10 tokens taken at one token per second: full again after 2 s.
    await stub.acquire({ capacity: 10, refillPerMinute: 60, want: 2, giveBack: 0 });
    const stored = () =>
      runInDurableObject(stub as DurableObjectStub, async (_, state) => ({
        tables: state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'bucket'").toArray().length,
        alarm: await state.storage.getAlarm(),
      }));
    expect((await stored()).tables).toBe(1);
    expect((await stored()).alarm).not.toBeNull();

    await advanceBucketClock(key, 1_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stored()).toMatchObject({ tables: 1 }); // one token still missing: rescheduled
    expect((await stored()).alarm).not.toBeNull();

    await advanceBucketClock(key, 1_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stored()).toMatchObject({ tables: 1 }); // full, but used 2 s ago: a busy client keeps its row
    expect((await stored()).alarm).not.toBeNull();

    await advanceBucketClock(key, 58_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stored()).toEqual({ tables: 0, alarm: null });

    // A new request simply starts a full bucket again.
    expect(await stub.acquire({ capacity: 10, refillPerMinute: 60, want: 1, giveBack: 0 })).toMatchObject({ granted: 1, remaining: 9 });
  });
});

describe("one pending cleanup alarm per bucket", () => {
  it("a later request leaves the pending alarm where it is; the alarm then re-arms past the last use", async () => {
    const key = `unit:${crypto.randomUUID()}`;
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
    const alarm = () => runInDurableObject(stub as DurableObjectStub, (_, state) => state.storage.getAlarm());
    await stub.acquire({ capacity: 10, refillPerMinute: 60, want: 1, giveBack: 0 });
    const first = await alarm();
    expect(first).not.toBeNull();

    await advanceBucketClock(key, 30_000);
    await stub.acquire({ capacity: 10, refillPerMinute: 60, want: 1, giveBack: 0 });
    expect(await alarm()).toBe(first); // no storage write for the alarm on this request

    await advanceBucketClock(key, 31_000); // past the first alarm's time, 31 s after the last use
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rearmed = await alarm();
    expect(rearmed).not.toBeNull();
    expect(rearmed!).toBeGreaterThan(first!);
  });
});

/** A fresh key whose Durable Object's clock stands still (nothing refills while the test runs); real time again after. */
async function standingKey(): Promise<string> {
  const key = `unit:${crypto.randomUUID()}`;
  const at = Date.now();
  await useBucketClock(key, () => at);
  // A clock left behind real time would make the bucket's cleanup alarm re-arm into the past again and again.
  onTestFinished(() => useBucketClock(key, () => Date.now()));
  return key;
}

/** `n` requests of one isolate at the same time. */
const concurrently = (allowances: LocalAllowances, key: string, config: BucketConfig, n: number) =>
  Promise.all(Array.from({ length: n }, () => allowances.consume(env.RATE_LIMITER, key, config)));

const admitted = (decisions: (RateLimitDecision | null)[]) => decisions.filter((d) => d?.allowed).length;

describe("concurrent requests in one isolate", () => {
  // Burst 100 and 10 tokens a second, as the default policy: the first lease is 5 tokens.
  const config = { capacity: 100, refillPerMinute: 600 };

  it("a full bucket admits every one of up to its burst of concurrent requests, leasing no token beyond them", async () => {
    for (const n of [30, 50, 100]) {
      const key = await standingKey();
      const decisions = await concurrently(new LocalAllowances(Date.now, PATIENT_MS), key, config, n);
      expect(admitted(decisions), `${n} concurrent`).toBe(n);
      // Each told a different remaining count, as if they had come one after the other.
      expect(decisions.map((d) => d!.remaining).sort((a, b) => b - a)).toEqual(Array.from({ length: n }, (_, i) => 99 - i));
      // The first lease request brought 5; the one after it, sized by the requests still waiting, brought the rest.
      expect(await bucketTokens(key)).toBe(100 - n);
    }
  });

  it("N + k concurrent requests on a full bucket of burst N: exactly k refused, each with the bucket's Retry-After", async () => {
    for (const k of [1, 30]) {
      const key = await standingKey();
      const decisions = await concurrently(new LocalAllowances(Date.now, PATIENT_MS), key, config, 100 + k);
      expect(admitted(decisions), `100 + ${k} concurrent`).toBe(100);
      const refused = decisions.filter((d) => d && !d.allowed);
      expect(refused).toHaveLength(k);
      expect(refused.every((d) => d!.remaining === 0 && d!.retryAfterSeconds === 1)).toBe(true);
      expect(rateLimitHeaders(refused[0]!)["Retry-After"]).toBe("1");
      expect(await bucketTokens(key)).toBe(0);
    }
  });

  it("one lease request at a time: requests finding no token wait for the one in flight, the next is sized by them", async () => {
    const key = await standingKey();
    let calls = 0;
    const counted = namespaceAround(env.RATE_LIMITER, {
      acquire:
        (acquire) =>
        (...request: unknown[]) => {
          calls++;
          return acquire(...request);
        },
    });
    const allowances = new LocalAllowances(Date.now, PATIENT_MS);
    const decisions = await Promise.all(Array.from({ length: 30 }, () => allowances.consume(counted, key, config)));
    expect(admitted(decisions)).toBe(30);
    // The first request's lease of 5, then one of 25 for the requests still waiting (it was 30 leases of 5 each).
    expect(calls).toBe(2);
    expect(await bucketTokens(key)).toBe(70);
  });
});

describe("several isolates against one bucket (separate LocalAllowances, one Durable Object)", () => {
  it("concurrent bursts from three isolates admit exactly the burst together", async () => {
    const config = { capacity: 100, refillPerMinute: 600 };
    const key = await standingKey();
    const isolates = [
      new LocalAllowances(Date.now, PATIENT_MS),
      new LocalAllowances(Date.now, PATIENT_MS),
      new LocalAllowances(Date.now, PATIENT_MS),
    ];
    const decisions = (await Promise.all(isolates.map((isolate) => concurrently(isolate, key, config, 60)))).flat();
    expect(admitted(decisions)).toBe(100);
    expect(await bucketTokens(key)).toBe(0);
  });

  it("tokens one isolate holds are refused to another until its lease expires and it gives them back", async () => {
    const config = { capacity: 100, refillPerMinute: 0.000001 };
    const key = await standingKey();
    let now = Date.now();
    const a = new LocalAllowances(() => now, PATIENT_MS);
    const b = new LocalAllowances(() => now, PATIENT_MS);
    expect((await a.consume(env.RATE_LIMITER, key, config))?.allowed).toBe(true); // a lease of 5: a holds 4
    // b is refused while 4 tokens sit in a: under-admission, at most (isolates - 1) x (largest lease - 1) = 9 here.
    expect(admitted(await concurrently(b, key, config, 100))).toBe(95);
    now += 6_000; // a's lease expires; its next request gives the 4 back and takes one of them
    expect((await a.consume(env.RATE_LIMITER, key, config))?.allowed).toBe(true);
    expect(admitted(await concurrently(b, key, config, 10))).toBe(0); // a's new lease holds the other 3
    expect(admitted(await concurrently(a, key, config, 10))).toBe(3);
    expect(await bucketTokens(key)).toBe(0);
  });

  it("never admit more than the stated bound, in total and in any window, as time passes (property)", async () => {
    // Burst 100 and one token a second; leases of 5 growing to 10 (the largest lease, L).
    const config = { capacity: 100, refillPerMinute: 60 };
    const held = 3 * (maxLeaseSize(config) - 1); // I x (L - 1): what three isolates can hold unspent
    const perMs = config.refillPerMinute / 60_000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            advanceMs: fc.integer({ min: 0, max: 4_000 }),
            requests: fc.tuple(fc.nat({ max: 30 }), fc.nat({ max: 30 }), fc.nat({ max: 30 })),
          }),
          { minLength: 3, maxLength: 20 },
        ),
        async (rounds) => {
          const key = `unit:${crypto.randomUUID()}`;
          // One clock for the Durable Object and the three isolates, ahead of real time by what the rounds advanced.
          let offset = 0;
          const clock = () => Date.now() + offset;
          await useBucketClock(key, clock);
          const isolates = [
            new LocalAllowances(clock, PATIENT_MS),
            new LocalAllowances(clock, PATIENT_MS),
            new LocalAllowances(clock, PATIENT_MS),
          ];
          const start = clock();
          const seen: { from: number; to: number; admitted: number }[] = [];
          for (const round of rounds) {
            offset += round.advanceMs;
            const from = clock();
            const decisions = (
              await Promise.all(isolates.map((isolate, i) => concurrently(isolate, key, config, round.requests[i]!)))
            ).flat();
            seen.push({ from, to: clock(), admitted: admitted(decisions) });
          }
          let total = 0;
          for (const [i, round] of seen.entries()) {
            total += round.admitted;
            expect(total, "in total").toBeLessThanOrEqual(config.capacity + perMs * (round.to - start));
            let inWindow = 0;
            for (const later of seen.slice(i)) {
              inWindow += later.admitted;
              expect(inWindow, "in a window").toBeLessThanOrEqual(config.capacity + perMs * (later.to - round.from) + held);
            }
          }
        },
      ),
      { numRuns: runs({ quick: 5, deep: 30 }) },
    );
  });
});
