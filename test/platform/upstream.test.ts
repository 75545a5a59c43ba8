import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { classifyUpstreamFailure, UpstreamError, withTimeout } from "../../src/platform/upstream";
import { loadLiveQuotes } from "../../src/shared/catalog/quotes";
import { BASE_URL, call, expectOAuthError, expectProblem, TENANT_A, tokenFor } from "../helpers/api";
import { FAULTS, type Fault, withFault } from "../helpers/faults";
import { testFault } from "../helpers/platform";

let token: string;
beforeAll(async () => {
  token = await tokenFor(TENANT_A, ["users:read"]);
});

/** No internal detail of the failure reaches the client. */
function expectNoLeak(problem: unknown) {
  expect(JSON.stringify(problem)).not.toMatch(/D1_ERROR|Network connection|overloaded|storage operation|stack/i);
}

describe("injected upstream failures over HTTP", () => {
  it.each<[Fault, number]>([
    ["d1-unavailable", 503],
    ["d1-overloaded", 503],
    ["d1-timeout", 504],
  ])("%s on an authenticated lookup -> %i problem details", async (fault, status) => {
    const res = await call(token, "/users/lookup?userId=1", { headers: testFault(fault) });
    const problem = await expectProblem(res, status);
    expectNoLeak(problem);
    if (status === 503) {
      expect(problem.type).toMatch(/\/service-unavailable$/);
      expect(res.headers.get("Retry-After")).toBe("5");
    } else {
      expect(problem.type).toMatch(/\/upstream-timeout$/);
    }
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Correlation-Id")).toBe(problem.correlationId);
  });

  it("D1 unavailable on the token endpoint -> 503 temporarily_unavailable (its OAuth error form), not 401 and not 500", async () => {
    const res = await SELF.fetch(`${BASE_URL}/auth/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...testFault("d1-unavailable") },
      body: "grant_type=client_credentials&client_id=some-client&client_secret=some-secret",
    });
    expectNoLeak(await expectOAuthError(res, 503, "temporarily_unavailable"));
    expect(res.headers.get("Retry-After")).toBe("5");
  });

  it("readiness reports D1 down with 503 and Retry-After", async () => {
    const res = await call(null, "/health/ready", { headers: testFault("d1-unavailable") });
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("5");
  });

  it("the service is fine again once the failure is gone", async () => {
    expect((await call(token, "/users/lookup?userId=1")).status).toBe(200);
  });
});

describe("recognizing upstream failures", () => {
  it("a KV failure while loading quotes is classified as KV unavailable (503)", async () => {
    const err = await loadLiveQuotes(withFault(env, "kv-unavailable"), TENANT_A, ["any-quote-id"], new Date(), { mode: "live" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifyUpstreamFailure(err)).toMatchObject({ service: "KV", kind: "unavailable" });
  });

  it("a D1 failure through drizzle is recognized in the cause chain", async () => {
    const err = await loadLiveQuotes(withFault(env, "d1-timeout"), TENANT_A, ["any-quote-id"], new Date(), { mode: "live" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifyUpstreamFailure(err)).toMatchObject({ service: "D1", kind: "timeout" });
  });

  it.each<[keyof typeof FAULTS, string]>([
    ["do-unavailable", "DO"],
    ["do-overloaded", "DO"],
    ["kv-unavailable", "KV"],
    ["d1-unavailable", "D1"],
  ])("%s is an upstream failure of %s", (fault, service) => {
    expect(classifyUpstreamFailure(FAULTS[fault]())).toMatchObject({ service, kind: "unavailable" });
  });

  it("bugs stay 500: programming errors from D1 and ordinary exceptions are not upstream failures", () => {
    expect(classifyUpstreamFailure(new Error("D1_ERROR: no such column: nope"))).toBeNull();
    expect(classifyUpstreamFailure(new Error("D1_TYPE_ERROR: Type 'object' not supported for value 'x'"))).toBeNull();
    expect(classifyUpstreamFailure(new Error("D1_ERROR: UNIQUE constraint failed: orders.id"))).toBeNull();
    // D1 refuses LIKE patterns over 50 bytes: permanent for that query, so never a 503 to retry.
    expect(classifyUpstreamFailure(new Error("D1_ERROR: LIKE or GLOB pattern too complex: SQLITE_ERROR"))).toBeNull();
    expect(classifyUpstreamFailure(new TypeError("Cannot read properties of undefined"))).toBeNull();
  });

  it("withTimeout turns a call that never settles into a DO timeout", async () => {
    const err = await withTimeout("DO", new Promise(() => {}), 5).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(classifyUpstreamFailure(err)).toMatchObject({ service: "DO", kind: "timeout" });
  });
});
