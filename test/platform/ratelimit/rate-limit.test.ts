import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fetchWithRetry } from "../../../src/client/retry";
import { bucketKey } from "../../../src/platform/ratelimit/policy";
import { API, BASE_URL, call, expectProblem, issueToken, newClient, TENANT_A, TENANT_B } from "../../helpers/api";
import { advanceBucketClock, rateLimitHeaders, testFault, testVars } from "../../helpers/platform";

/** A fresh client (own buckets) and its token; the token request is not limited (generous test defaults). */
const freshClient = () => issueToken(TENANT_A, ["users:read"]);

const LOOKUP = "/users/lookup?userId=1";

describe("per API client rate limit", () => {
  // Burst 3, one token per second.
  const tight = testVars({ RATE_LIMIT_BURST: 3, RATE_LIMIT_PER_MINUTE: 60 });

  it("counts down, answers 429 with Retry-After when empty, and recovers as the bucket refills", async () => {
    const { clientId, token } = await freshClient();
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(token, LOOKUP, { headers: tight });
      expect(res.status).toBe(200);
      seen.push(rateLimitHeaders(res));
    }
    expect(seen.map((h) => h.remaining)).toEqual([2, 1, 0]);
    expect(seen.every((h) => h.limit === 3 && h.retryAfter === null)).toBe(true);
    expect(seen.map((h) => h.reset)).toEqual([1, 2, 3]);

    const limited = await call(token, LOOKUP, { headers: tight });
    const problem = await expectProblem(limited, 429);
    expect(problem.type).toMatch(/\/rate-limited$/);
    expect(problem.detail).toMatch(/Retry after 1 seconds/);
    expect(rateLimitHeaders(limited)).toEqual({ limit: 3, remaining: 0, reset: 3, retryAfter: 1 });
    expect(limited.headers.get("Cache-Control")).toBe("no-store");
    expect(JSON.stringify(problem)).not.toContain("jsmith");

    // Still empty a moment later; one second later exactly one request passes.
    await advanceBucketClock(bucketKey.apiClient(clientId), 500);
    expect((await call(token, LOOKUP, { headers: tight })).status).toBe(429);
    await advanceBucketClock(bucketKey.apiClient(clientId), 500);
    const recovered = await call(token, LOOKUP, { headers: tight });
    expect(recovered.status).toBe(200);
    expect(rateLimitHeaders(recovered).remaining).toBe(0);
    expect((await call(token, LOOKUP, { headers: tight })).status).toBe(429);

    // After a full window the whole burst is back, never more.
    await advanceBucketClock(bucketKey.apiClient(clientId), 60_000);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(token, LOOKUP, { headers: tight })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("keeps clients apart: one client's empty bucket does not limit another of the same tenant", async () => {
    const first = await freshClient();
    const second = await freshClient();
    for (let i = 0; i < 3; i++) await call(first.token, LOOKUP, { headers: tight });
    expect((await call(first.token, LOOKUP, { headers: tight })).status).toBe(429);
    const other = await call(second.token, LOOKUP, { headers: tight });
    expect(other.status).toBe(200);
    expect(rateLimitHeaders(other).remaining).toBe(2);
  });

  it("counts error responses too and stamps the headers on them", async () => {
    const { token } = await freshClient();
    const res = await call(token, "/users/lookup?userId=999999", { headers: tight });
    await expectProblem(res, 404);
    expect(rateLimitHeaders(res)).toMatchObject({ limit: 3, remaining: 2 });
  });

  it("serves large buckets from a per-isolate allowance and still stops at the burst", async () => {
    // Burst 40 leases 2 tokens per Durable Object call; the total admitted stays exactly the burst.
    const { token } = await freshClient();
    const vars = testVars({ RATE_LIMIT_BURST: 40, RATE_LIMIT_PER_MINUTE: 1 });
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 41; i++) {
      const res = await call(token, LOOKUP, { headers: vars });
      statuses.push(res.status);
      remaining.push(rateLimitHeaders(res).remaining!);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses[40]).toBe(429);
    expect(remaining.slice(0, 40)).toEqual(Array.from({ length: 40 }, (_, i) => 39 - i));
  });

  it("fails open when the limiter's Durable Object is unavailable: the request is served, without RateLimit headers", async () => {
    const { token } = await freshClient();
    const res = await call(token, LOOKUP, { headers: { ...tight, ...testFault("do-unavailable") } });
    expect(res.status).toBe(200);
    expect(res.headers.has("RateLimit-Limit")).toBe(false);
  });
});

describe("token endpoint rate limit (per client_id and per source IP)", () => {
  const tight = testVars({ TOKEN_RATE_LIMIT_BURST: 2, TOKEN_RATE_LIMIT_PER_MINUTE: 6 });
  // Unique per call, so that no two tests share a bucket.
  const randomIp = () => `2001:db8::${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}`;
  const tokenRequest = (body: Record<string, string>, headers: Record<string, string>) =>
    SELF.fetch(`${BASE_URL}/auth/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...tight, ...headers },
      body: new URLSearchParams({ grant_type: "client_credentials", ...body }),
    });

  it("limits guessing one client's secret from many addresses", async () => {
    const { clientId } = await newClient(TENANT_A);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await tokenRequest({ client_id: clientId, client_secret: "guess" }, { "CF-Connecting-IP": randomIp() });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });

  it("limits guessing from one address across client ids, with headers and recovery", async () => {
    const ip = randomIp();
    const guess = (n: number) => ({ client_id: `guess-${ip}-${n}`, client_secret: "x" });
    const first = await tokenRequest(guess(1), { "CF-Connecting-IP": ip });
    expect(first.status).toBe(401);
    expect(rateLimitHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
    expect((await tokenRequest(guess(2), { "CF-Connecting-IP": ip })).status).toBe(401);
    const limited = await tokenRequest(guess(3), { "CF-Connecting-IP": ip });
    const problem = await expectProblem(limited, 429);
    expect(problem.detail).toMatch(/from this address/);
    expect(rateLimitHeaders(limited)).toEqual({ limit: 2, remaining: 0, reset: 20, retryAfter: 10 });

    await advanceBucketClock(bucketKey.tokenIp(ip), 10_000);
    expect((await tokenRequest(guess(4), { "CF-Connecting-IP": ip })).status).toBe(401);
  });

  it("counts only failed authentications per address: tenants behind one egress IP never lock each other out", async () => {
    const ip = randomIp();
    for (const tenantId of [TENANT_A, TENANT_A, TENANT_A]) {
      const creds = await newClient(tenantId);
      for (let i = 0; i < 2; i++) {
        const ok = await tokenRequest({ client_id: creds.clientId, client_secret: creds.clientSecret }, { "CF-Connecting-IP": ip });
        expect(ok.status).toBe(200);
      }
    }
    // Six successful requests from the address, three times the burst: tenant 2 behind the same IP still gets its token.
    const other = await newClient(TENANT_B);
    const res = await tokenRequest({ client_id: other.clientId, client_secret: other.clientSecret }, { "CF-Connecting-IP": ip });
    expect(res.status).toBe(200);
    // Failures from that address are still counted and stopped.
    for (const n of [1, 2]) {
      expect((await tokenRequest({ client_id: `guess-${ip}-${n}`, client_secret: "x" }, { "CF-Connecting-IP": ip })).status).toBe(401);
    }
    const stopped = await tokenRequest({ client_id: other.clientId, client_secret: other.clientSecret }, { "CF-Connecting-IP": ip });
    expect((await expectProblem(stopped, 429)).detail).toMatch(/failed token requests from this address/);
  });

  it("still issues tokens to a legitimate client from another address, and limits HTTP Basic the same way", async () => {
    const creds = await newClient(TENANT_A);
    const basic = { Authorization: `Basic ${btoa(`${creds.clientId}:${creds.clientSecret}`)}` };
    const ok = await tokenRequest({}, { ...basic, "CF-Connecting-IP": randomIp() });
    expect(ok.status).toBe(200);
    expect(rateLimitHeaders(ok).limit).toBe(2);
    expect((await tokenRequest({}, { ...basic, "CF-Connecting-IP": randomIp() })).status).toBe(200);
    expect((await tokenRequest({}, { ...basic, "CF-Connecting-IP": randomIp() })).status).toBe(429);
  });
});

describe("the retry helper against the real limiter", () => {
  it("waits out a 429 by its Retry-After and then succeeds", async () => {
    const { clientId, token } = await freshClient();
    const headers = { Authorization: `Bearer ${token}`, ...testVars({ RATE_LIMIT_BURST: 1, RATE_LIMIT_PER_MINUTE: 30 }) };
    expect((await call(token, LOOKUP, { headers })).status).toBe(200);

    const sleeps: number[] = [];
    const res = await fetchWithRetry(
      `${API}${LOOKUP}`,
      { headers },
      {
        fetch: (input, init) => SELF.fetch(input as string, init),
        random: () => 0,
        // The helper's wait moves the bucket's clock instead of the wall clock.
        sleep: async (ms) => {
          sleeps.push(ms);
          await advanceBucketClock(bucketKey.apiClient(clientId), ms);
        },
      },
    );
    expect(res.status).toBe(200);
    expect(sleeps).toEqual([2_000]);
  });
});

describe("order of checks", () => {
  it("a throttled client is refused before the database is asked (429 even while D1 is down)", async () => {
    const { token } = await freshClient();
    const tight = testVars({ RATE_LIMIT_BURST: 1, RATE_LIMIT_PER_MINUTE: 1 });
    expect((await call(token, LOOKUP, { headers: tight })).status).toBe(200);
    await expectProblem(await call(token, LOOKUP, { headers: { ...tight, ...testFault("d1-unavailable") } }), 429);
  });
});
