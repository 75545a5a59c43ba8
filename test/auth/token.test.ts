import { env } from "cloudflare:test";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { OPERATOR_SCOPES, SCOPES, VENDOR_SCOPES } from "../../src/platform/principal";
import { setClientEnabled } from "../../src/shared/auth/clients";
import {
  BASE_URL,
  type ClientCredentials,
  call,
  expectOAuthError,
  json,
  newClient,
  newOperatorClient,
  newVendorClient,
  requestToken,
  TENANT_A,
} from "../helpers/api";
import { expectMatchesContract, servedDocument } from "../helpers/contract";
import { namespaceAround, withMethods } from "../helpers/faults";
import { testFault, testVars } from "../helpers/platform";

const TOKEN = "/auth/oauth2/token";

const tokenRequest = (body: string, headers: Record<string, string> = {}) =>
  call(null, "/auth/oauth2/token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
  });

describe("POST /auth/oauth2/token (client credentials)", () => {
  let creds: ClientCredentials;
  beforeAll(async () => {
    creds = await newClient(TENANT_A, ["catalog:read", "orders:write", "users:read"]);
  });

  it("issues an RS256 JWT that verifies against the published JWKS", async () => {
    const res = await requestToken(creds);
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "POST", TOKEN);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = await json(res);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "catalog:read orders:write users:read" });

    const jwksRes = await call(null, "/auth/.well-known/jwks.json");
    await expectMatchesContract(jwksRes, "GET", "/auth/.well-known/jwks.json");
    const jwks = await json(jwksRes);
    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: "RS256", typ: "at+jwt", kid: "test-key-1" });
    expect(jwks.keys[0]).toMatchObject({ kid: "test-key-1", kty: "RSA", alg: "RS256", use: "sig" });
    expect(jwks.keys[0].d).toBeUndefined();

    const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), {
      issuer: env.ISSUER,
      audience: env.AUDIENCE,
    });
    expect(payload.sub).toBe(creds.clientId);
    expect(payload.tid).toBe(TENANT_A);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(typeof payload.jti).toBe("string");
  });

  it("accepts HTTP Basic client authentication (RFC 6749 2.3.1)", async () => {
    const basic = btoa(`${encodeURIComponent(creds.clientId)}:${encodeURIComponent(creds.clientSecret)}`);
    const res = await tokenRequest("grant_type=client_credentials", { Authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
  });

  it("narrows the token to requested scopes and rejects scopes not granted", async () => {
    const narrowed = await json(await requestToken(creds, { scope: "catalog:read" }));
    expect(narrowed.scope).toBe("catalog:read");
    const res = await requestToken(creds, { scope: "catalog:read orders:read" });
    expect(res.status).toBe(400);
    await expectMatchesContract(res, "POST", TOKEN);
    expect(await json(res)).toMatchObject({ error: "invalid_scope" });
  });

  it("wrong secret and unknown client are invalid_client 401", async () => {
    for (const attempt of [
      { ...creds, clientSecret: "wrong" },
      { clientId: "nobody", clientSecret: "x" },
    ]) {
      const res = await requestToken(attempt);
      expect(res.status).toBe(401);
      await expectMatchesContract(res, "POST", TOKEN);
      expect(await json(res)).toEqual({ error: "invalid_client", error_description: "Client authentication failed." });
      // RFC 6749 section 5.2: client_secret_post gets no challenge (a Bearer one would read as a token error).
      expect(res.headers.get("WWW-Authenticate")).toBeNull();
    }
  });

  it("a failed HTTP Basic client authentication is challenged with the Basic scheme", async () => {
    const res = await tokenRequest("grant_type=client_credentials", { Authorization: `Basic ${btoa(`${creds.clientId}:wrong`)}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe('Basic realm="medparts"');
  });

  it("unsupported grant type is 400 unsupported_grant_type", async () => {
    const res = await tokenRequest(`grant_type=password&client_id=${creds.clientId}&client_secret=${creds.clientSecret}`);
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe("unsupported_grant_type");
  });

  it("missing grant_type is 400 invalid_request", async () => {
    const res = await tokenRequest(`client_id=${creds.clientId}&client_secret=${creds.clientSecret}`);
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe("invalid_request");
  });

  it("missing client credentials is 401 invalid_client", async () => {
    const res = await tokenRequest("grant_type=client_credentials");
    expect(res.status).toBe(401);
    expect((await json(res)).error).toBe("invalid_client");
  });

  it("a disabled client gets no token", async () => {
    const disabled = await newClient(TENANT_A);
    await setClientEnabled(database(env.DB), disabled.clientId, false);
    const res = await requestToken(disabled);
    expect(res.status).toBe(401);
  });

  it("accepts the same parameters as a JSON body", async () => {
    const res = await call(null, TOKEN, {
      method: "POST",
      json: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret, scope: "users:read" },
    });
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "POST", TOKEN);
    expect(await json(res)).toMatchObject({ token_type: "Bearer", scope: "users:read" });

    const wrongGrant = await call(null, TOKEN, { method: "POST", json: { grant_type: "password" } });
    expect(await json(wrongGrant)).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("a JSON body that does not parse is a 400 invalid_request, as documented", async () => {
    const res = await call(null, TOKEN, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{grant_type" });
    await expectOAuthError(res, 400, "invalid_request");
    await expectMatchesContract(res, "POST", TOKEN);
  });

  it("any other Content-Type is 415 invalid_request, as documented", async () => {
    const res = await call(null, TOKEN, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "grant_type=client_credentials",
    });
    await expectOAuthError(res, 415, "invalid_request");
    await expectMatchesContract(res, "POST", TOKEN);
  });

  it("stores only a salted slow hash of the secret", async () => {
    const row = await env.DB.prepare("SELECT secret_hash FROM api_clients WHERE client_id = ?1")
      .bind(creds.clientId)
      .first<{ secret_hash: string }>();
    expect(row!.secret_hash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(row!.secret_hash).not.toContain(creds.clientSecret);
  });
});

describe("every error of the token endpoint is an RFC 6749 5.2 body (what OAuth clients such as openid-client read)", () => {
  const tokenBody = "grant_type=client_credentials&client_id=some-client&client_secret=some-secret";
  const form = { "Content-Type": "application/x-www-form-urlencoded" };

  it("413 from the body limit: invalid_request", async () => {
    const res = await call(null, TOKEN, { method: "POST", headers: { ...form, ...testVars({ MAX_BODY_BYTES: 10 }) }, body: tokenBody });
    await expectOAuthError(res, 413, "invalid_request");
    await expectMatchesContract(res, "POST", TOKEN);
  });

  it("429 from the rate limit: temporarily_unavailable, with Retry-After and RateLimit-*", async () => {
    const creds = await newClient(TENANT_A);
    const tight = testVars({ TOKEN_RATE_LIMIT_BURST: 1, TOKEN_RATE_LIMIT_PER_MINUTE: 1 });
    const body = new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret });
    expect((await call(null, TOKEN, { method: "POST", headers: { ...form, ...tight }, body })).status).toBe(200);
    const res = await call(null, TOKEN, { method: "POST", headers: { ...form, ...tight }, body });
    const error = await expectOAuthError(res, 429, "temporarily_unavailable");
    expect(error.error_description).toBe("Too many token requests for this client. Retry after 60 seconds.");
    expect(res.headers.get("Retry-After")).toBe("60");
    expect(res.headers.get("RateLimit-Remaining")).toBe("0");
    await expectMatchesContract(res, "POST", TOKEN);
  });

  it("503 and 504 from storage: temporarily_unavailable", async () => {
    const unavailable = await call(null, TOKEN, { method: "POST", headers: { ...form, ...testFault("d1-unavailable") }, body: tokenBody });
    await expectOAuthError(unavailable, 503, "temporarily_unavailable");
    expect(unavailable.headers.get("Retry-After")).toBe("5");
    await expectMatchesContract(unavailable, "POST", TOKEN);
    const timeout = await call(null, TOKEN, { method: "POST", headers: { ...form, ...testFault("d1-timeout") }, body: tokenBody });
    await expectOAuthError(timeout, 504, "temporarily_unavailable");
    await expectMatchesContract(timeout, "POST", TOKEN);
  });

  it("500 for an unexpected error: server_error, nothing internal", async () => {
    const { createApp } = await import("../../src/api/app");
    const broken = withMethods(env.DB, {
      prepare: () => () => {
        throw new TypeError("cannot read properties of undefined (reading 'secret_hash')");
      },
    });
    const res = await createApp().request(
      `${BASE_URL}${TOKEN}`,
      { method: "POST", headers: form, body: tokenBody },
      { ...env, DB: broken },
    );
    const error = await expectOAuthError(res, 500, "server_error");
    expect(error.error_description).not.toMatch(/secret_hash|TypeError/);
  });

  it("GET is still a 405 problem with Allow: it is not a token request", async () => {
    const res = await call(null, TOKEN);
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });

  it("the OpenAPI document says so: every error status of the operation is OAuthError as application/json", async () => {
    const operation = (await servedDocument()).paths![TOKEN]!.post!;
    const errors = Object.entries(operation.responses!).filter(([status]) => Number(status) >= 400);
    expect(errors.map(([status]) => status).sort()).toEqual(["400", "401", "413", "415", "429", "500", "503", "504"]);
    for (const [status, response] of errors) {
      expect(Object.keys((response as any).content), status).toEqual(["application/json"]);
      expect((response as any).content["application/json"].schema, status).toEqual({ $ref: "#/components/schemas/OAuthError" });
    }
    expect((operation.responses!["429"] as any).description).toMatch(/^temporarily_unavailable/);
    expect((operation.responses!["429"] as any).headers).toHaveProperty("Retry-After");
  });
});

describe("token issuance: one sequential round trip", () => {
  it("the client's row is read while the rate limits decide, not after", async () => {
    const creds = await newClient(TENANT_A);
    const events: string[] = [];
    const limiter = namespaceAround(env.RATE_LIMITER, {
      acquire:
        (acquire) =>
        async (...request: unknown[]) => {
          events.push("limiter asked");
          await new Promise((resolve) => setTimeout(resolve, 50));
          const result = await acquire(...request);
          events.push("limiter answered");
          return result;
        },
    });
    const db = withMethods(env.DB, {
      prepare:
        (prepare) =>
        (...args: unknown[]) => {
          events.push("D1 asked");
          return prepare(...args);
        },
    });
    const { createApp } = await import("../../src/api/app");
    const res = await createApp().request(
      `${BASE_URL}${TOKEN}`,
      {
        method: "POST",
        // Behind Cloudflare: the address's bucket is asked too.
        headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "2001:db8::7" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret }),
      },
      { ...env, RATE_LIMITER: limiter, DB: db },
    );
    expect(res.status).toBe(200);
    // The address's bucket and the client's, and the client's row, all before the first answer.
    expect(events.slice(0, 3).sort()).toEqual(["D1 asked", "limiter asked", "limiter asked"]);
    // Then, once the secret is verified, the secret's lastUsedAt (a fresh client's is empty), written after the answer.
    expect(events.slice(3)).toEqual(["limiter answered", "limiter answered", "D1 asked"]);
  });
});

describe("discovery", () => {
  it("openid-configuration lists exactly what the server does, and the tokens' audiences", async () => {
    const res = await call(null, "/auth/.well-known/openid-configuration");
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "GET", "/auth/.well-known/openid-configuration");
    expect(await json(res)).toEqual({
      issuer: env.ISSUER,
      token_endpoint: `${env.ISSUER}/oauth2/token`,
      jwks_uri: `${env.ISSUER}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      scopes_supported: [...SCOPES, ...VENDOR_SCOPES, ...OPERATOR_SCOPES],
      access_token_audiences: { customer_api: env.AUDIENCE, vendor_api: env.VENDOR_AUDIENCE, operator_api: env.OPERATOR_AUDIENCE },
    });
    expect(env.VENDOR_AUDIENCE).toBe("medparts-vendor-api");
    expect(env.OPERATOR_AUDIENCE).toBe("medparts-admin-api");
  });

  it("the audiences it lists are the ones the tokens carry", async () => {
    const { access_token_audiences: audiences } = await json(await call(null, "/auth/.well-known/openid-configuration"));
    const buyer = await json(await requestToken(await newClient(TENANT_A)));
    const vendor = await json(await requestToken(await newVendorClient(4)));
    expect(decodeJwt(buyer.access_token).aud).toBe(audiences.customer_api);
    expect(decodeJwt(vendor.access_token).aud).toBe(audiences.vendor_api);
    const operator = await json(await requestToken(await newOperatorClient()));
    expect(decodeJwt(operator.access_token).aud).toBe(audiences.operator_api);
  });

  it("the OpenAPI document names the audiences: the APIs' in their security schemes, all three in the metadata schema", async () => {
    const document = await servedDocument();
    const schemes = document.components!.securitySchemes as Record<string, { description: string }>;
    expect(schemes.oauth2!.description).toContain(`\`${env.AUDIENCE}\``);
    expect(schemes.vendorOAuth2!.description).toContain(`\`${env.VENDOR_AUDIENCE}\``);
    const metadata = document.components!.schemas!.AuthorizationServerMetadata as any;
    expect(Object.keys(metadata.properties.access_token_audiences.properties)).toEqual(["customer_api", "vendor_api", "operator_api"]);
    expect(metadata.properties).not.toHaveProperty("id_token_signing_alg_values_supported");
  });

  it("publishes RFC 8414 authorization server metadata beside the discovery and at the RFC 8414 location", async () => {
    const discovery = await json(await call(null, "/auth/.well-known/openid-configuration"));
    for (const path of ["/auth/.well-known/oauth-authorization-server", `${BASE_URL}/.well-known/oauth-authorization-server/auth`]) {
      const res = await call(null, path);
      expect(res.status).toBe(200);
      await expectMatchesContract(res, "GET", path);
      const metadata = await json(res);
      expect(metadata).toMatchObject({ issuer: env.ISSUER, token_endpoint: discovery.token_endpoint, jwks_uri: discovery.jwks_uri });
      for (const [field, value] of Object.entries(metadata)) expect(discovery[field], field).toEqual(value);
    }
  });

  it("JWKS also publishes previous keys during rotation", async () => {
    const { createApp } = await import("../../src/api/app");
    const previous = { ...JSON.parse(env.JWT_PRIVATE_KEY), kid: "old-key" };
    const res = await createApp().request(
      "/auth/.well-known/jwks.json",
      {},
      { ...env, JWT_PREVIOUS_PUBLIC_KEYS: JSON.stringify([previous]) },
    );
    const jwks = await json(res);
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(["test-key-1", "old-key"]);
    expect(jwks.keys.every((k: { d?: string }) => k.d === undefined)).toBe(true);
  });
});
