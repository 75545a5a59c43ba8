import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BASE_URL,
  call,
  expectOAuthError,
  expectProblem,
  issueToken,
  newClient,
  requestToken,
  TENANT_A,
  testModeTokenFor,
  tokenFor,
} from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";
import { testFault, testVars } from "../helpers/platform";

/**
 * The platform's responses (rate limiting, body limit, media type, upstream failures) as the OpenAPI
 * document describes them: real responses, checked against the served document, and the headers the
 * document promises asserted where the server always sends them.
 */

const LOOKUP = "/users/lookup?userId=1";
const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const CATALOG_SEARCH_BODY = { requesterId: 50001, facilityId: 1001 };

let token: string;
beforeAll(async () => {
  token = await tokenFor(TENANT_A);
});

function expectRateLimitHeaders(res: Response) {
  const values = RATE_LIMIT_HEADERS.map((name) => res.headers.get(name));
  expect(
    values.every((v) => v !== null && /^\d+$/.test(v)),
    `RateLimit-* on ${res.status}: ${values.join(", ")}`,
  ).toBe(true);
  expect(Number(res.headers.get("RateLimit-Remaining"))).toBeLessThanOrEqual(Number(res.headers.get("RateLimit-Limit")));
}

const expectNoRateLimitHeaders = (res: Response) => expect(RATE_LIMIT_HEADERS.filter((h) => res.headers.has(h))).toEqual([]);

const tokenRequest = (body: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`${BASE_URL}/auth/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
  });

describe("platform responses match the OpenAPI document", () => {
  it("2xx and 4xx of an authenticated operation carry RateLimit-*", async () => {
    const ok = await call(token, LOOKUP);
    expect(ok.status).toBe(200);
    expectRateLimitHeaders(ok);
    await expectMatchesContract(ok, "GET", LOOKUP);

    const notFound = await call(token, "/users/lookup?userId=999999");
    expect(notFound.status).toBe(404);
    expectRateLimitHeaders(notFound);
    await expectMatchesContract(notFound, "GET", "/users/lookup");
  });

  it("429 with Retry-After and RateLimit-*", async () => {
    const { token: own } = await issueToken(TENANT_A, ["users:read"]);
    const tight = testVars({ RATE_LIMIT_BURST: 1, RATE_LIMIT_PER_MINUTE: 1 });
    expect((await call(own, LOOKUP, { headers: tight })).status).toBe(200);
    const limited = await call(own, LOOKUP, { headers: tight });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expectRateLimitHeaders(limited);
    await expectMatchesContract(limited, "GET", LOOKUP);
  });

  it("503 with Retry-After and 504 when a storage service fails", async () => {
    // The lookup reads the tenant's store (docs/tenant-stores.md): its storage service is the store.
    const unavailable = await call(token, LOOKUP, { headers: testFault("tenant-store-unavailable") });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("Retry-After")).toMatch(/^\d+$/);
    await expectMatchesContract(unavailable, "GET", LOOKUP);

    const timeout = await call(token, LOOKUP, { headers: testFault("tenant-store-timeout") });
    expect(timeout.status).toBe(504);
    await expectMatchesContract(timeout, "GET", LOOKUP);
  });

  it("413 and 415 come before the limiter: documented without RateLimit-*", async () => {
    const tooLarge = await call(token, "/catalog/search", {
      method: "POST",
      json: CATALOG_SEARCH_BODY,
      headers: testVars({ MAX_BODY_BYTES: 10 }),
    });
    expect(tooLarge.status).toBe(413);
    expectNoRateLimitHeaders(tooLarge);
    await expectMatchesContract(tooLarge, "POST", "/catalog/search");

    const notJson = await call(token, "/catalog/search", {
      method: "POST",
      body: JSON.stringify(CATALOG_SEARCH_BODY),
      headers: { "Content-Type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
    expectNoRateLimitHeaders(notJson);
    await expectMatchesContract(notJson, "POST", "/catalog/search");

    const document = await (await call(null, "/openapi.json")).json<any>();
    const searchResponses = document.paths["/customer/api/catalog/search"].post.responses;
    // Refused before the token is read: neither the limiter's headers nor the mode, as documented.
    for (const res of [tooLarge, notJson]) expect(res.headers.get("Medparts-Mode")).toBeNull();
    for (const status of ["413", "415"])
      expect(Object.keys(searchResponses[status].headers)).toEqual(["X-Correlation-Id", "Medparts-Version"]);
  });

  it("the token endpoint: RateLimit-* on a keyed request, 413, and 415 for a body that is neither a form nor JSON (OAuth errors)", async () => {
    const creds = await newClient(TENANT_A, ["users:read"]);
    const issued = await requestToken(creds);
    expect(issued.status).toBe(200);
    expectRateLimitHeaders(issued);
    await expectMatchesContract(issued, "POST", "/auth/oauth2/token");

    const tooLarge = await tokenRequest(
      `grant_type=client_credentials&client_id=x&client_secret=${"y".repeat(200)}`,
      testVars({ MAX_BODY_BYTES: 100 }),
    );
    await expectOAuthError(tooLarge, 413, "invalid_request");
    await expectMatchesContract(tooLarge, "POST", "/auth/oauth2/token");

    const plainText = await tokenRequest("grant_type=client_credentials", { "Content-Type": "text/plain" });
    await expectOAuthError(plainText, 415, "invalid_request");
    expectNoRateLimitHeaders(plainText);
    await expectMatchesContract(plainText, "POST", "/auth/oauth2/token");
  });

  it("Medparts-Mode on every customer API answer: unknown path, 405, 401 and 429 too, as the token says (live without one)", async () => {
    const test = await testModeTokenFor(TENANT_A);
    const [head, payload] = test.split(".");
    const forged = `${head}.${payload}.${"A".repeat(43)}`;
    const { token: own } = await issueToken(TENANT_A, ["users:read"]);
    const tight = testVars({ RATE_LIMIT_BURST: 1, RATE_LIMIT_PER_MINUTE: 1 });
    await call(own, LOOKUP, { headers: tight });
    const answers: [Response, number, string][] = [
      [await call(test, "/no/such/thing"), 404, "test"],
      [await call(token, "/no/such/thing"), 404, "live"],
      [await call(null, "/no/such/thing"), 404, "live"],
      [await call(test, LOOKUP, { method: "DELETE" }), 405, "test"],
      [await call(forged, LOOKUP), 401, "test"],
      [await call(forged, "/no/such/thing"), 401, "test"],
      [await call(null, LOOKUP), 401, "live"],
      [await call(own, LOOKUP, { headers: tight }), 429, "live"],
      [await call(own, "/no/such/thing", { headers: tight }), 429, "live"],
    ];
    for (const [res, status, mode] of answers) {
      await expectProblem(res, status);
      expect(res.headers.get("Medparts-Mode"), `${status} ${mode}`).toBe(mode);
    }
    // A token's unknown path is authenticated and counted like any route of the API: RateLimit-* on its 404.
    expectRateLimitHeaders(answers[0]![0]);
  });

  it("the header check can fail: a documented header with a value outside its schema is rejected", async () => {
    const ok = await call(token, LOOKUP);
    const headers = new Headers(ok.headers);
    headers.set("RateLimit-Remaining", "plenty");
    const forged = new Response(await ok.text(), { status: 200, headers });
    await expect(expectMatchesContract(forged, "GET", LOOKUP)).rejects.toThrow(/RateLimit-Remaining: plenty does not match/);
  });
});
