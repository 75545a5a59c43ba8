import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fetchWithRetry } from "../../../src/dev/client/retry";
import { bucketKey } from "../../../src/platform/ratelimit/policy";
import {
  API,
  BASE_URL,
  type ClientCredentials,
  call,
  expectOAuthError,
  expectProblem,
  issueToken,
  newClient,
  TENANT_A,
  TENANT_B,
} from "../../helpers/api";
import { advanceBucketClock, bucketTokens, rateLimitHeaders, stopBucketClock, testFault, testVars } from "../../helpers/platform";

/** A fresh client (own buckets) and its token; the token request is not limited (generous test defaults). */
const freshClient = () => issueToken(TENANT_A, ["users:read"]);

const LOOKUP = "/users/lookup?userId=1";

describe("per API client rate limit", () => {
  // Burst 3, one token per second.
  const tight = testVars({ RATE_LIMIT_BURST: 3, RATE_LIMIT_PER_MINUTE: 60 });

  it("counts down, answers 429 with Retry-After when empty, and recovers as the bucket refills", async () => {
    const { clientId, token } = await freshClient();
    await stopBucketClock(bucketKey.apiClient(clientId));
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
    await stopBucketClock(bucketKey.apiClient(first.clientId));
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

  it("a full bucket admits its whole burst to concurrent requests, and exactly k of burst + k are refused", async () => {
    // Burst 100 (leases of 5). The bucket's clock stands still, so what passes is exactly what the bucket held, and the
    // limiter is given a minute to answer: on a loaded machine a wait of more than the usual 1 s would fail open (the
    // request served unlimited, issue 65), which is not what this test is about.
    const burst = testVars({ RATE_LIMIT_BURST: 100, RATE_LIMIT_PER_MINUTE: 1, RATE_LIMITER_TIMEOUT_MS: 60_000 });
    const burstOf = async (requests: number) => {
      const { clientId, token } = await freshClient();
      await stopBucketClock(bucketKey.apiClient(clientId));
      return Promise.all(Array.from({ length: requests }, () => call(token, LOOKUP, { headers: burst })));
    };
    const full = await burstOf(100);
    expect(full.filter((res) => res.status === 200)).toHaveLength(100);

    const over = await burstOf(110);
    expect(over.filter((res) => res.status === 200)).toHaveLength(100);
    // Every answer is the limiter's: none was served unlimited.
    expect([...full, ...over].filter((res) => !res.headers.has("RateLimit-Limit"))).toEqual([]);
    const refused = over.filter((res) => res.status !== 200);
    expect(refused).toHaveLength(10);
    for (const res of refused) {
      await expectProblem(res, 429);
      expect(rateLimitHeaders(res)).toMatchObject({ limit: 100, remaining: 0, retryAfter: 60 });
    }
  });

  it("fails open when the limiter's Durable Object is unavailable: the request is served, without RateLimit headers", async () => {
    const { token } = await freshClient();
    const res = await call(token, LOOKUP, { headers: { ...tight, ...testFault("do-unavailable") } });
    expect(res.status).toBe(200);
    expect(res.headers.has("RateLimit-Limit")).toBe(false);
  });
});

describe("token endpoint rate limit (per client_id, and per source IP for failing client ids)", () => {
  const tight = testVars({ TOKEN_RATE_LIMIT_BURST: 2, TOKEN_RATE_LIMIT_PER_MINUTE: 6 });
  // Unique per call, so that no two tests share a bucket.
  const randomIp = () => `2001:db8::${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}`;
  const tokenRequest = (body: Record<string, string>, headers: Record<string, string>) =>
    SELF.fetch(`${BASE_URL}/auth/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...tight, ...headers },
      body: new URLSearchParams({ grant_type: "client_credentials", ...body }),
    });
  const valid = (creds: ClientCredentials) => ({ client_id: creds.clientId, client_secret: creds.clientSecret });
  // A refill of one token a minute: nothing comes back while a test runs, however slowly (secrets are hashed slowly).
  const steady = (burst: number) => testVars({ TOKEN_RATE_LIMIT_BURST: burst, TOKEN_RATE_LIMIT_PER_MINUTE: 1 });

  it("limits guessing one client's secret from many addresses", async () => {
    const { clientId } = await newClient(TENANT_A);
    await stopBucketClock(bucketKey.tokenClient(clientId));
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await tokenRequest({ client_id: clientId, client_secret: "guess" }, { "CF-Connecting-IP": randomIp() });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });

  it("limits one address guessing across client ids, with headers, an OAuth error body and recovery", async () => {
    const ip = randomIp();
    await stopBucketClock(bucketKey.tokenIp(ip));
    const guess = (n: number) => ({ client_id: `guess-${ip}-${n}`, client_secret: "x" });
    const first = await tokenRequest(guess(1), { "CF-Connecting-IP": ip });
    expect(first.status).toBe(401);
    expect(rateLimitHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
    expect((await tokenRequest(guess(2), { "CF-Connecting-IP": ip })).status).toBe(401);
    const limited = await tokenRequest(guess(3), { "CF-Connecting-IP": ip });
    const error = await expectOAuthError(limited, 429, "temporarily_unavailable");
    expect(error.error_description).toMatch(/from this address. Retry after 10 seconds/);
    expect(rateLimitHeaders(limited)).toEqual({ limit: 2, remaining: 0, reset: 20, retryAfter: 10 });

    await advanceBucketClock(bucketKey.tokenIp(ip), 10_000);
    expect((await tokenRequest(guess(4), { "CF-Connecting-IP": ip })).status).toBe(401);
  });

  it("a client failing again and again from an address does not lock out another tenant's client there", async () => {
    // The outside testers' case: a client with a stale secret retries while another tenant behind the same IP asks.
    const ip = randomIp();
    const broken = await newClient(TENANT_A);
    const other = await newClient(TENANT_B);
    const from = (body: Record<string, string>) => tokenRequest(body, { "CF-Connecting-IP": ip, ...steady(3) });
    const brokenStatuses = [];
    for (let i = 0; i < 10; i++) {
      brokenStatuses.push((await from({ client_id: broken.clientId, client_secret: "stale" })).status);
      if (i % 4 === 0) expect((await from(valid(other))).status, `other tenant, attempt ${i}`).toBe(200);
    }
    // The broken client is stopped by its own bucket, "for this client"; the address was charged once.
    expect(brokenStatuses).toEqual([401, 401, 401, ...Array(7).fill(429)]);
    const own = await from({ client_id: broken.clientId, client_secret: "stale" });
    expect((await expectOAuthError(own, 429, "temporarily_unavailable")).error_description).toMatch(/for this client/);

    // Guessing across client ids from that address is still stopped: the address's bucket holds 3, one of them spent
    // by the broken client; two more failing ids empty it, and then every client id is refused there.
    for (const n of [1, 2]) expect((await from({ client_id: `guess-${ip}-${n}`, client_secret: "x" })).status).toBe(401);
    const guessing = await from({ client_id: `guess-${ip}-3`, client_secret: "x" });
    expect((await expectOAuthError(guessing, 429, "temporarily_unavailable")).error_description).toMatch(/from this address/);
    const third = await from(valid(await newClient(TENANT_B)));
    expect((await expectOAuthError(third, 429, "temporarily_unavailable")).error_description).toMatch(/from this address/);
  });

  it("charges the address once per failing client id, again only after 10 minutes", async () => {
    const ip = randomIp();
    const broken = await newClient(TENANT_A);
    const from = (body: Record<string, string>) => tokenRequest(body, { "CF-Connecting-IP": ip, ...steady(2) });
    const fail = () => from({ client_id: broken.clientId, client_secret: "stale" });
    expect((await fail()).status).toBe(401);
    expect(await bucketTokens(bucketKey.tokenIp(ip))).toBe(1);
    await advanceBucketClock(bucketKey.tokenClient(broken.clientId), 60_000); // its own bucket full again
    expect((await fail()).status).toBe(401);
    expect(await bucketTokens(bucketKey.tokenIp(ip))).toBe(1); // the same client id again: the address is not charged
    expect((await from(valid(await newClient(TENANT_B)))).status).toBe(200);

    await advanceBucketClock(bucketKey.tokenClient(broken.clientId), 60_000);
    await advanceBucketClock(bucketKey.tokenFailure(ip, broken.clientId), 10 * 60_000);
    expect((await fail()).status).toBe(401); // 10 minutes later it counts again, and empties the address
    expect(await bucketTokens(bucketKey.tokenIp(ip))).toBe(0);
    expect((await from(valid(await newClient(TENANT_B)))).status).toBe(429);
  });

  it("counts only failed authentications per address: tenants behind one egress IP never lock each other out", async () => {
    const ip = randomIp();
    await stopBucketClock(bucketKey.tokenIp(ip));
    for (const tenantId of [TENANT_A, TENANT_A, TENANT_A]) {
      const creds = await newClient(tenantId);
      for (let i = 0; i < 2; i++) {
        const ok = await tokenRequest(valid(creds), { "CF-Connecting-IP": ip });
        expect(ok.status).toBe(200);
      }
    }
    // Six successful requests from the address, three times the burst: tenant 2 behind the same IP still gets its token.
    const other = await newClient(TENANT_B);
    const res = await tokenRequest(valid(other), { "CF-Connecting-IP": ip });
    expect(res.status).toBe(200);
    // Failures from that address are still counted and stopped.
    for (const n of [1, 2]) {
      expect((await tokenRequest({ client_id: `guess-${ip}-${n}`, client_secret: "x" }, { "CF-Connecting-IP": ip })).status).toBe(401);
    }
    const stopped = await tokenRequest(valid(other), { "CF-Connecting-IP": ip });
    expect((await expectOAuthError(stopped, 429, "temporarily_unavailable")).error_description).toMatch(
      /failed token requests from this address/,
    );
  });

  it("still issues tokens to a legitimate client from another address, and limits HTTP Basic the same way", async () => {
    const creds = await newClient(TENANT_A);
    const basic = { Authorization: `Basic ${btoa(`${creds.clientId}:${creds.clientSecret}`)}` };
    await stopBucketClock(bucketKey.tokenClient(creds.clientId));
    const ok = await tokenRequest({}, { ...basic, "CF-Connecting-IP": randomIp() });
    expect(ok.status).toBe(200);
    expect(rateLimitHeaders(ok).limit).toBe(2);
    expect((await tokenRequest({}, { ...basic, "CF-Connecting-IP": randomIp() })).status).toBe(200);
    expect((await tokenRequest({}, { ...basic, "CF-Connecting-IP": randomIp() })).status).toBe(429);
  });

  it("precedence: the address's 429, then the client's 429, then a storage failure, then the secret", async () => {
    const ip = randomIp();
    const creds = await newClient(TENANT_A);
    const d1Down = testFault("d1-unavailable");
    const from = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      tokenRequest(body, { "CF-Connecting-IP": ip, ...steady(2), ...headers });
    // Not throttled, D1 down: 503, as an OAuth error.
    const unavailable = await from(valid(creds), d1Down);
    await expectOAuthError(unavailable, 503, "temporarily_unavailable");
    expect(unavailable.headers.get("Retry-After")).toBe("5");
    // One more request empties the client's bucket (2): then 429 whatever D1 or the secret would say.
    expect((await from(valid(creds))).status).toBe(200);
    for (const body of [valid(creds), { client_id: creds.clientId, client_secret: "wrong" }]) {
      for (const headers of [{}, d1Down]) {
        const res = await from(body, headers);
        expect((await expectOAuthError(res, 429, "temporarily_unavailable")).error_description).toMatch(/for this client/);
      }
    }
    // The address's bucket emptied by two failing ids: its 429 comes first, for a throttled client too.
    for (const n of [1, 2]) expect((await from({ client_id: `guess-${ip}-${n}`, client_secret: "x" })).status).toBe(401);
    const both = await from(valid(creds), d1Down);
    expect((await expectOAuthError(both, 429, "temporarily_unavailable")).error_description).toMatch(/from this address/);
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
