import { env } from "cloudflare:test";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { setClientEnabled } from "../../src/auth/clients";
import { database } from "../../src/db/client";
import { BASE_URL, type ClientCredentials, call, json, newClient, requestToken, TENANT_A } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";

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

  it("a JSON body that does not parse is a 400 validation problem, as documented", async () => {
    const res = await call(null, TOKEN, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{grant_type" });
    expect(res.status).toBe(400);
    await expectMatchesContract(res, "POST", TOKEN);
  });

  it("any other Content-Type is 415, as documented", async () => {
    const res = await call(null, TOKEN, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "grant_type=client_credentials",
    });
    expect(res.status).toBe(415);
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

describe("discovery", () => {
  it("openid-configuration names the issuer, token endpoint, JWKS and supported methods", async () => {
    const res = await call(null, "/auth/.well-known/openid-configuration");
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "GET", "/auth/.well-known/openid-configuration");
    const doc = await json(res);
    expect(doc).toMatchObject({
      issuer: env.ISSUER,
      token_endpoint: `${env.ISSUER}/oauth2/token`,
      jwks_uri: `${env.ISSUER}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      id_token_signing_alg_values_supported: ["RS256"],
    });
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
    const { createApp } = await import("../../src/app");
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
