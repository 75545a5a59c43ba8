import { env } from "cloudflare:test";
import { exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { call, issueToken, TENANT_A } from "../helpers/api";
import { b64url, expect401, forge, privateJwk } from "../helpers/tokens";

/**
 * Token attacks not already in test/auth/bearer.test.ts (alg none, HS256 with the public key, unknown kid,
 * expired, not yet valid, wrong issuer/audience, tampered, truncated, disabled client live there).
 */

const MAX_TOKEN_LENGTH = 4096; // src/shared/auth/bearer.ts

describe("token attacks", () => {
  let clientId: string;
  let valid: string;
  beforeAll(async () => {
    ({ clientId, token: valid } = await issueToken(TENANT_A, ["users:read"]));
  });
  const signed = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    forge({ sub: clientId, ...claims }, header);

  it("a correctly signed token whose header is padded beyond the length limit: 401 invalid_request, refused before any crypto", async () => {
    const padded = await signed({}, { pad: "x".repeat(MAX_TOKEN_LENGTH) });
    expect(padded.split(".")[0]!.length).toBeGreaterThan(MAX_TOKEN_LENGTH);
    const res = await expect401(padded);
    expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_request"');
    // The same padding within the limit verifies: the limit, not the extra header field, refused it.
    expect((await call(await signed({}, { pad: "x".repeat(1000) }), "/users/lookup?userId=1")).status).toBe(200);
  });

  it("an oversized payload, a megabyte-long header line and many segments: 401", async () => {
    await expect401(await signed({ pad: "y".repeat(MAX_TOKEN_LENGTH) }));
    await expect401(null, `Bearer ${valid}${".a".repeat(10_000)}`);
    await expect401(null, `Bearer ${valid}.${valid}`);
  });

  it("signed by another RSA key under our kid, or with that key embedded in the header (jwk, jku): 401", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const attackerJwk = await exportJWK(publicKey);
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      tid: TENANT_A,
      scope: "users:read",
      sub: clientId,
      jti: crypto.randomUUID(),
      iss: env.ISSUER,
      aud: env.AUDIENCE,
      iat: now,
      exp: now + 600,
    };
    for (const extra of [{}, { jwk: attackerJwk }, { jku: "https://evil.example/jwks.json" }, { x5u: "https://evil.example/cert.pem" }]) {
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "test-key-1", typ: "at+jwt", ...extra })
        .sign(privateKey);
      await expect401(token);
    }
  });

  it("our key but another algorithm (RS512, PS256), the wrong typ, or an unknown critical header: 401", async () => {
    const { alg: _alg, ...jwk } = privateJwk();
    const [, payload, signature] = (await signed()).split(".");
    for (const alg of ["RS512", "PS256"]) {
      const token = await new SignJWT(JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/"))))
        .setProtectedHeader({ alg, kid: "test-key-1", typ: "at+jwt" })
        .sign(await importJWK(jwk, alg));
      expect((await call(token, "/users/lookup?userId=1")).status, alg).toBe(401);
      await expect401(token);
    }
    await expect401(await signed({}, { typ: "JWT" }));
    await expect401(await signed({}, { typ: undefined }));
    await expect401(
      `${b64url({ alg: "RS256", kid: "test-key-1", typ: "at+jwt", crit: ["exp-extension"], "exp-extension": 1 })}.${payload}.${signature}`,
    );
  });

  it("claims of the wrong type (tid as text or fraction, no sub, no jti): 401", async () => {
    for (const claims of [{ tid: "1" }, { tid: 1.5 }, { tid: 2 ** 60 }, { sub: undefined }, { jti: undefined }, { exp: "9999999999" }]) {
      await expect401(await signed(claims));
    }
  });

  it("the token of a client that was deleted: 401", async () => {
    const { clientId: deleted, token } = await issueToken(TENANT_A, ["users:read"]);
    await env.DB.prepare("DELETE FROM api_clients WHERE client_id = ?").bind(deleted).run();
    await expect401(token);
  });

  it("the token anywhere but the Authorization header (query string, cookie), or in standard base64: 401", async () => {
    for (const [path, headers] of [
      [`/users/lookup?userId=1&access_token=${valid}`, {}],
      ["/users/lookup?userId=1", { Cookie: `access_token=${valid}` }],
    ] as const) {
      const res = await call(null, path, { headers });
      expect(res.status).toBe(401);
    }
    await expect401(null, `Bearer ${valid.slice(0, 20)}+/${valid.slice(22)}`); // standard base64, not base64url
  });
});
