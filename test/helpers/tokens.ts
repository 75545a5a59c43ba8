import { env } from "cloudflare:test";
import { importJWK, type JWK, SignJWT } from "jose";
import { expect } from "vitest";
import { call, expectProblem, TENANT_A } from "./api";
import { expectMatchesContract } from "./contract";

/** Forging access tokens for attack tests: the test suite's real signing key, any header and claims. */

export const privateJwk = () => JSON.parse(env.JWT_PRIVATE_KEY) as JWK;

export const b64url = (value: object | string) =>
  btoa(typeof value === "string" ? value : JSON.stringify(value))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A token signed with the real key and whatever claims/header the test wants. */
export async function forge(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  const key = await importJWK(privateJwk(), "RS256");
  return new SignJWT({
    tid: TENANT_A,
    scope: "users:read",
    sub: "forged",
    jti: crypto.randomUUID(),
    iss: env.ISSUER,
    aud: env.AUDIENCE,
    iat: now,
    exp: now + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: "test-key-1", typ: "at+jwt", ...header })
    .sign(key);
}

/** GET /users/lookup with the token (or a raw Authorization header) must be a documented 401 that shows nothing of the user. */
export async function expect401(token: string | null, authorization?: string) {
  const headers = authorization ? { Authorization: authorization } : undefined;
  const res = await call(token, "/users/lookup?userId=1", { headers });
  const body = await expectProblem(res, 401);
  await expectMatchesContract(res, "GET", "/users/lookup");
  expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer realm="medparts"/);
  expect(JSON.stringify(body)).not.toContain("John");
  return res;
}
