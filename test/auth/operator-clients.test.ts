import { env } from "cloudflare:test";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { createApiClient, setClientEnabled } from "../../src/shared/auth/clients";
import { InvalidTokenError, verifyOperatorAccessToken } from "../../src/shared/auth/tokens";
import {
  call,
  expectProblem,
  json,
  newOperatorClient,
  operatorTokenFor,
  requestToken,
  TENANT_A,
  tokenFor,
  vendorTokenFor,
} from "../helpers/api";

describe("operator clients: the marketplace's own, a third kind beside buyers and vendors", () => {
  it("get a token for the operator audience with the operator's scopes, and no tenant or vendor claim", async () => {
    const res = await requestToken(await newOperatorClient());
    expect(res.status).toBe(200);
    const body = await res.json<{ access_token: string; scope: string }>();
    expect(body.scope).toBe("catalog:import tiers:write clients:manage recalls:import");
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({ aud: "medparts-admin-api", opr: 1, scope: "catalog:import tiers:write clients:manage recalls:import" });
    expect(claims.tid).toBeUndefined();
    expect(claims.vid).toBeUndefined();
    // A buyer client cannot ask for an operator scope.
    const buyer = await requestToken(await createApiClient(database(env.DB), { tenantId: TENANT_A, name: "buyer asking too much" }), {
      scope: "catalog:import",
    });
    expect(buyer.status).toBe(400);
  });

  it("an operator token opens neither the customer nor the vendor API (401), and no other token passes as an operator's", async () => {
    const operator = await operatorTokenFor();
    await expectProblem(await call(operator, "/users/lookup?userId=1"), 401);
    await expectProblem(await call(operator, "/vendor/api/order-lines"), 401);
    // The operator plane's bearer check (requireOperatorBearer) verifies with this: only an operator token passes.
    expect((await verifyOperatorAccessToken(env, operator)).scopes).toEqual(
      new Set(["catalog:import", "tiers:write", "clients:manage", "recalls:import"]),
    );
    for (const other of [await tokenFor(TENANT_A), await vendorTokenFor(4)]) {
      await expect(verifyOperatorAccessToken(env, other)).rejects.toBeInstanceOf(InvalidTokenError);
    }
  });

  it("a disabled operator client gets no token; discovery names the operator audience and scopes", async () => {
    const client = await newOperatorClient();
    await setClientEnabled(database(env.DB), client.clientId, false);
    expect((await requestToken(client)).status).toBe(401);
    const discovery = await json(await call(null, "/auth/.well-known/openid-configuration"));
    expect(discovery.access_token_audiences.operator_api).toBe("medparts-admin-api");
    expect(discovery.scopes_supported).toContain("catalog:import");
    // The database refuses a client with two owners (or none).
    await expect(
      env.DB.prepare(
        "INSERT INTO api_clients (client_id, secret_hash, tenant_id, operator, name, scopes, created_at) VALUES ('x', 'h', 1, 1, 'n', '', '2026-01-01')",
      ).run(),
    ).rejects.toThrow(/CHECK/);
  });
});

describe("the operator plane's Worker verifies with the keys the API publishes (it holds no signing key)", () => {
  it("learns the issuer and keys from the API's authorization server metadata, and refuses a token of another audience", async () => {
    const { SELF } = await import("cloudflare:test");
    const { publishedAuthority } = await import("../../src/shared/auth/keys");
    const api = { fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init) } as unknown as Fetcher;
    const authority = await publishedAuthority(api);
    expect(authority.issuer).toBe(env.ISSUER);
    const withoutKey = { ...env, JWT_PRIVATE_KEY: "", API: api };
    // A token never verified before (verified tokens are remembered), so the published keys are what checks it.
    const fresh = (await (await requestToken(await newOperatorClient())).json<{ access_token: string }>()).access_token;
    const principal = await verifyOperatorAccessToken(withoutKey, fresh);
    expect(principal.scopes.has("catalog:import")).toBe(true);
    await expect(verifyOperatorAccessToken(withoutKey, await tokenFor(TENANT_A))).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
