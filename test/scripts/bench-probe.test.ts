import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chainDepth, countSequential, parseRoundTrips, RoundTripProbe } from "../../scripts/bench/probe";
import type { Bindings } from "../../src/env";

/** The bench's round-trip probe (scripts/bench/probe.ts) around the real bindings: what it counts is what it reports. */
const summary = (probe: RoundTripProbe) => probe.summary();

describe("bench round-trip probe", () => {
  it("counts side-by-side D1 calls once and chained ones each, per service", async () => {
    const probe = new RoundTripProbe(0);
    const wrapped = probe.wrap(env as unknown as Bindings);
    await Promise.all([wrapped.DB.prepare("SELECT 1").first(), wrapped.DB.prepare("SELECT 2").first()]);
    await wrapped.DB.batch([wrapped.DB.prepare("SELECT 3"), wrapped.DB.prepare("SELECT 4")]);
    await wrapped.QUOTES.get("probe:nothing");
    const session = wrapped.DB.withSession("first-unconstrained");
    await session.prepare("SELECT 5").bind().all();
    expect(summary(probe)).toBe("d1=3;kv=1;do=0");
    expect(parseRoundTrips(summary(probe))).toEqual({ d1: 3, kv: 1, do: 0 });
  });

  it("counts Durable Object calls through stubs, not id or stub creation", async () => {
    const probe = new RoundTripProbe(0);
    const wrapped = probe.wrap(env as unknown as Bindings);
    const stub = wrapped.RATE_LIMITER.get(wrapped.RATE_LIMITER.idFromName("probe-test"));
    expect(summary(probe)).toBe("d1=0;kv=0;do=0");
    await stub.acquire({ capacity: 10, refillPerMinute: 60, want: 0, giveBack: 0 });
    expect(summary(probe)).toBe("d1=0;kv=0;do=1");
  });

  it("leaves out calls still running when the answer is ready (background work)", () => {
    expect(
      countSequential([
        { service: "d1", startedAt: 0, endedAt: 1 },
        { service: "d1", startedAt: 2, endedAt: 3 },
        { service: "d1", startedAt: 4 },
        { service: "do", startedAt: 5 },
      ]),
    ).toEqual({ d1: 2, kv: 0, do: 0 });
  });

  it("takes the longest chain: a call after a short one counts even while a long one still runs", () => {
    expect(
      countSequential([
        { service: "kv", startedAt: 0, endedAt: 9 },
        { service: "kv", startedAt: 1, endedAt: 2 },
        { service: "kv", startedAt: 3, endedAt: 4 },
      ]),
    ).toEqual({ d1: 0, kv: 2, do: 0 });
  });

  it("counts the request's depth across services: a call of one service beside another's is the same wait", () => {
    const calls = [
      { service: "d1", startedAt: 0, endedAt: 3 },
      { service: "do", startedAt: 1, endedAt: 2 },
      { service: "kv", startedAt: 4, endedAt: 5 },
    ] as const;
    expect(countSequential(calls)).toEqual({ d1: 1, kv: 1, do: 1 });
    expect(chainDepth(calls)).toBe(2);
  });
});
