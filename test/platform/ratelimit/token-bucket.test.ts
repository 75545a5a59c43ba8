import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LocalAllowances, leaseBatchSize, maxLeaseSize } from "../../../src/platform/ratelimit/limiter";
import { apiClientPolicy, tokenEndpointPolicy } from "../../../src/platform/ratelimit/policy";
import { take } from "../../../src/platform/ratelimit/token-bucket";
import { advanceBucketClock } from "../../helpers/platform";

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
  const bucketTokens = (key: string) =>
    runInDurableObject(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)) as DurableObjectStub, (_, state) =>
      Math.round(state.storage.sql.exec<{ tokens: number }>("SELECT tokens FROM bucket").one().tokens),
    );

  it("leases a batch, spends it locally, and returns the unused rest when the lease expires", async () => {
    let now = 1_000_000;
    const allowances = new LocalAllowances(() => now);
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
    const allowances = new LocalAllowances(() => now);
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
    const a = new LocalAllowances();
    const b = new LocalAllowances();
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

describe("concurrent requests in one isolate", () => {
  it("keeps the tokens of leases fetched at the same time, so none are lost", async () => {
    const key = `unit:${crypto.randomUUID()}`;
    const config = { capacity: 100, refillPerMinute: 0.000001 };
    const allowances = new LocalAllowances();
    // Two concurrent first requests both lease 5; 8 tokens stay in this isolate and serve the next 8 locally.
    await Promise.all([allowances.consume(env.RATE_LIMITER, key, config), allowances.consume(env.RATE_LIMITER, key, config)]);
    for (let i = 0; i < 8; i++) await allowances.consume(env.RATE_LIMITER, key, config);
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)) as DurableObjectStub;
    const tokens = await runInDurableObject(stub, (_, state) =>
      Math.round(state.storage.sql.exec<{ tokens: number }>("SELECT tokens FROM bucket").one().tokens),
    );
    expect(tokens).toBe(90);
  });
});
