import { describe, expect, it } from "vitest";
import { fetchWithRetry, type RetryOptions, retryAfterMs, retryDelayMs } from "../../src/dev/client/retry";

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | "network-error";

/** A scripted server and a recorded clock: no real waiting. */
function scripted(replies: Reply[], options: RetryOptions = {}) {
  const sleeps: number[] = [];
  let calls = 0;
  const run = (init: RequestInit = {}) =>
    fetchWithRetry("https://api.test/customer/api/orders", init, {
      random: () => 0.5,
      sleep: async (ms) => void sleeps.push(ms),
      fetch: async () => {
        const reply = replies[Math.min(calls++, replies.length - 1)]!;
        if (reply === "network-error") throw new TypeError("Network connection lost.");
        return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status, headers: reply.headers });
      },
      ...options,
    });
  return { run, sleeps, calls: () => calls };
}

describe("retry schedule", () => {
  it("grows exponentially with full jitter and is capped", () => {
    const top = { random: () => 0.999999, baseDelayMs: 500, maxDelayMs: 5_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, null, top))).toEqual([499, 999, 1999, 3999, 4999, 4999]);
    const bottom = { random: () => 0, baseDelayMs: 500, maxDelayMs: 5_000 };
    expect([1, 2, 3].map((n) => retryDelayMs(n, null, bottom))).toEqual([0, 0, 0]);
    expect(retryDelayMs(3, null, { random: () => 0.25 })).toBe(500);
  });

  it("never waits less than Retry-After, and gives up rather than wait longer than the cap", () => {
    expect(retryDelayMs(1, 3_000, { random: () => 0.5 })).toBe(3_000);
    expect(retryDelayMs(7, 1_000, { random: () => 0.5, maxDelayMs: 30_000 })).toBe(15_000);
    expect(retryDelayMs(1, 60_000, { maxDelayMs: 30_000 })).toBeNull();
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = () => Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5_000);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs("soon")).toBeNull();
  });
});

describe("fetchWithRetry", () => {
  it("retries 5xx with growing waits until success", async () => {
    const server = scripted([{ status: 503 }, { status: 500 }, { status: 502 }, { status: 201, body: { success: true } }]);
    const res = await server.run();
    expect(res.status).toBe(201);
    expect(server.calls()).toBe(4);
    expect(server.sleeps).toEqual([250, 500, 1000]);
  });

  it("honours Retry-After on 429 and 503", async () => {
    const server = scripted([
      { status: 429, headers: { "Retry-After": "2" } },
      { status: 503, headers: { "Retry-After": "4" } },
      { status: 200 },
    ]);
    expect((await server.run()).status).toBe(200);
    expect(server.sleeps).toEqual([2_000, 4_000]);
  });

  it.each([400, 401, 403, 404, 413, 415, 422])("does not retry %i", async (status) => {
    const server = scripted([{ status, body: { title: "nope" } }, { status: 200 }]);
    expect((await server.run()).status).toBe(status);
    expect(server.calls()).toBe(1);
    expect(server.sleeps).toEqual([]);
  });

  it("retries 409 'currently being processed' but not a 409 for a different body", async () => {
    const processing = scripted([{ status: 409, body: { error: "the request is currently being processed" } }, { status: 201 }]);
    expect((await processing.run()).status).toBe(201);
    expect(processing.calls()).toBe(2);

    const mismatch = scripted([
      { status: 409, body: { error: "Idempotency-Key was used with a different request body" } },
      { status: 201 },
    ]);
    const res = await mismatch.run();
    expect(res.status).toBe(409);
    expect((await res.json<{ error: string }>()).error).toMatch(/different request body/);
    expect(mismatch.calls()).toBe(1);
  });

  it("stops after maxAttempts and returns the last response", async () => {
    const server = scripted([{ status: 503 }], { maxAttempts: 3 });
    expect((await server.run()).status).toBe(503);
    expect(server.calls()).toBe(3);
    expect(server.sleeps).toHaveLength(2);
  });

  it("returns a 429 at once when Retry-After is longer than maxDelayMs", async () => {
    const server = scripted([{ status: 429, headers: { "Retry-After": "120" } }, { status: 200 }], { maxDelayMs: 30_000 });
    expect((await server.run()).status).toBe(429);
    expect(server.calls()).toBe(1);
  });

  it("retries network errors and rethrows the last one", async () => {
    const recovering = scripted(["network-error", { status: 200 }]);
    expect((await recovering.run()).status).toBe(200);

    const down = scripted(["network-error"], { maxAttempts: 2 });
    await expect(down.run()).rejects.toThrow("Network connection lost.");
    expect(down.calls()).toBe(2);
  });

  it("sends the same request on every attempt and reports each retry", async () => {
    const seen: string[] = [];
    const events: unknown[] = [];
    const res = await fetchWithRetry(
      new Request("https://api.test/x", { method: "POST", body: '{"a":1}', headers: { "Idempotency-Key": "k" } }),
      {},
      {
        random: () => 0,
        sleep: async () => {},
        onRetry: (e) => events.push(e),
        fetch: async (input) => {
          const request = input as Request;
          seen.push(`${request.headers.get("Idempotency-Key")} ${await request.text()}`);
          return new Response(null, { status: seen.length < 3 ? 500 : 201 });
        },
      },
    );
    expect(res.status).toBe(201);
    expect(seen).toEqual(['k {"a":1}', 'k {"a":1}', 'k {"a":1}']);
    expect(events).toEqual([
      { attempt: 1, delayMs: 0, status: 500, error: undefined },
      { attempt: 2, delayMs: 0, status: 500, error: undefined },
    ]);
  });
});
