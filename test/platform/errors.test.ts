import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { BASE_URL, call, expectProblem, TENANT_A, tokenFor } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";

describe("error framework and correlation ids", () => {
  it("unknown route is a 404 problem naming the path", async () => {
    const res = await call(await tokenFor(TENANT_A), "/no/such/route");
    const body = await expectProblem(res, 404);
    // The error page of the deployment that answered (/docs/errors/<slug>), an absolute URI.
    expect(body.type).toBe(`${BASE_URL}/docs/errors/not-found`);
    expect(body.instance).toBe("/customer/api/no/such/route");
    expect(body.service).toBe("medparts-customer-api");
    expect(body.detail).toContain("/customer/api/no/such/route");
  });

  it("echoes a well-formed client correlation id in header and body", async () => {
    const res = await call(null, "/users/lookup?userId=1", { headers: { "X-Correlation-Id": "client-abc-12345" } });
    await expectMatchesContract(res, "GET", "/users/lookup");
    expect(res.headers.get("X-Correlation-Id")).toBe("client-abc-12345");
    expect((await expectProblem(res, 401)).correlationId).toBe("client-abc-12345");
  });

  it("mints a new correlation id when the client's is malformed", async () => {
    const res = await call(null, "/health/live", { headers: { "X-Correlation-Id": "bad id <script>" } });
    expect(res.headers.get("X-Correlation-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sets no-store and nosniff on API responses", async () => {
    const res = await call(null, "/health/live");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("an unexpected exception is a 500 problem that leaks no internals", async () => {
    const res = await createApp().request(
      "/auth/.well-known/jwks.json",
      {},
      { ...env, JWT_PRIVATE_KEY: "{not json", JWT_PREVIOUS_PUBLIC_KEYS: undefined },
    );
    const body = await expectProblem(res, 500);
    await expectMatchesContract(res, "GET", "/auth/.well-known/jwks.json");
    const text = JSON.stringify(body);
    expect(text).not.toContain("JSON");
    expect(text).not.toContain("at ");
    expect(body.detail).toContain("correlationId");
  });
});
