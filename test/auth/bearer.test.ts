import { env } from "cloudflare:test";
import { importJWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { setClientEnabled } from "../../src/shared/auth/clients";
import { call, expectProblem, issueToken, TENANT_A, tokenFor } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";
import { testVars } from "../helpers/platform";
import { b64url, expect401, forge, privateJwk } from "../helpers/tokens";

describe("bearer token verification", () => {
  let valid: string;
  let clientId: string;
  beforeAll(async () => {
    ({ clientId, token: valid } = await issueToken(TENANT_A, ["users:read"]));
  });
  const validFor = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    forge({ sub: clientId, ...claims }, header);

  it("accepts a valid token", async () => {
    expect((await call(valid, "/users/lookup?userId=1")).status).toBe(200);
    expect((await call(await validFor(), "/users/lookup?userId=1")).status).toBe(200);
  });

  it("missing Authorization header: 401 without error code", async () => {
    const res = await expect401(null);
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="medparts"');
  });

  it("malformed header: 401 invalid_request", async () => {
    for (const header of ["Bearer", "Basic abc", `Token ${valid}`, "Bearer not-a-jwt", `Bearer ${"a".repeat(5000)}.b.c`]) {
      const res = await expect401(null, header);
      expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_request"');
    }
  });

  it("expired token: 401 invalid_token", async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const res = await expect401(await validFor({ iat: past, exp: past + 3600 }));
    expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });

  it("token not yet valid: 401", async () => {
    await expect401(await validFor({ nbf: Math.floor(Date.now() / 1000) + 3600 }));
  });

  it("wrong issuer or audience: 401", async () => {
    await expect401(await validFor({ iss: "https://evil.example/auth" }));
    await expect401(await validFor({ aud: "another-api" }));
  });

  it("a token verified once is remembered only for the issuer and audience it was verified against", async () => {
    expect((await call(valid, "/users/lookup?userId=1")).status).toBe(200);
    // The same token, right after, where another issuer or audience is configured: checked again, and refused.
    for (const vars of [{ ISSUER: "https://elsewhere.example/auth" }, { AUDIENCE: "another-api" }] as Record<string, string>[]) {
      const res = await call(valid, "/users/lookup?userId=1", { headers: testVars(vars) });
      expect(res.status, JSON.stringify(vars)).toBe(401);
    }
    expect((await call(valid, "/users/lookup?userId=1")).status).toBe(200);
  });

  it("alg none: 401", async () => {
    const payload = {
      sub: clientId,
      tid: TENANT_A,
      scope: "users:read",
      iss: env.ISSUER,
      aud: env.AUDIENCE,
      iat: 1,
      exp: 9999999999,
      jti: "x",
    };
    await expect401(`${b64url({ alg: "none", typ: "at+jwt", kid: "test-key-1" })}.${b64url(payload)}.`);
  });

  it("HS256 signed with the public key as secret: 401", async () => {
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk();
    const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
    const token = await new SignJWT({ tid: TENANT_A, scope: "users:read", jti: "x" })
      .setProtectedHeader({ alg: "HS256", kid: "test-key-1", typ: "at+jwt" })
      .setSubject(clientId)
      .setIssuer(env.ISSUER)
      .setAudience(env.AUDIENCE)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(secret);
    await expect401(token);
  });

  it("tampered payload (signature no longer matches): 401", async () => {
    const [h, , s] = valid.split(".");
    const payload = { sub: clientId, tid: 2, scope: "users:read", iss: env.ISSUER, aud: env.AUDIENCE, iat: 1, exp: 9999999999, jti: "x" };
    await expect401(`${h}.${b64url(payload)}.${s}`);
  });

  it("unknown kid: 401", async () => {
    await expect401(await validFor({}, { kid: "someone-elses-key" }));
  });

  it("truncated token: 401", async () => {
    await expect401(valid.slice(0, valid.length - 10));
  });

  it("missing tenant claim: 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ scope: "users:read", jti: "x" })
      .setProtectedHeader({ alg: "RS256", kid: "test-key-1", typ: "at+jwt" })
      .setSubject(clientId)
      .setIssuer(env.ISSUER)
      .setAudience(env.AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(await importJWK(privateJwk(), "RS256"));
    await expect401(token);
  });

  it("token of a client disabled before its first use here: 401", async () => {
    const { clientId: disabled, token } = await issueToken(TENANT_A, ["users:read"]);
    await setClientEnabled(database(env.DB), disabled, false);
    await expect401(token);
  });

  it("a client disabled after use keeps working only until the isolate's memory of it expires (CLIENT_STATUS_CACHE_SECONDS)", async () => {
    const { clientId: disabled, token } = await issueToken(TENANT_A, ["users:read"]);
    expect((await call(token, "/users/lookup?userId=1")).status).toBe(200);
    await setClientEnabled(database(env.DB), disabled, false);
    // Within the documented delay the isolate still trusts its memory: no D1 read for it.
    expect((await call(token, "/users/lookup?userId=1")).status).toBe(200);
    // Once the memory is older than the setting (0 s here), D1 is asked again and the token is refused.
    const res = await call(token, "/users/lookup?userId=1", { headers: testVars({ CLIENT_STATUS_CACHE_SECONDS: 0 }) });
    await expectProblem(res, 401);
    // ... and the refusal is not remembered as "enabled": the default setting refuses too.
    await expect401(token);
  });

  it("token without the needed scope: 403 insufficient_scope", async () => {
    const token = await tokenFor(TENANT_A, ["catalog:read"]);
    const res = await call(token, "/users/lookup?userId=1");
    await expectMatchesContract(res, "GET", "/users/lookup");
    const body = await expectProblem(res, 403);
    expect(body.detail).toContain("users:read");
    expect(res.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
  });

  it("health endpoints need no token", async () => {
    expect((await call(null, "/health/live")).status).toBe(200);
  });
});
