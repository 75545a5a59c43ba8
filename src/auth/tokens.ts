import { type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Bindings } from "../env";
import type { Principal } from "../platform/principal";
import { keyring } from "./keys";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const TOKEN_TYPE = "at+jwt"; // RFC 9068 access token

type TokenEnv = Pick<Bindings, "ISSUER" | "AUDIENCE" | "JWT_PRIVATE_KEY" | "JWT_PREVIOUS_PUBLIC_KEYS">;

interface AccessTokenClaims extends JWTPayload {
  tid: number;
  scope: string;
  client_id: string;
}

export async function issueAccessToken(env: TokenEnv, client: { clientId: string; tenantId: number; scopes: string[] }): Promise<string> {
  const keys = await keyring(env);
  return new SignJWT({ tid: client.tenantId, scope: client.scopes.join(" "), client_id: client.clientId })
    .setProtectedHeader({ alg: "RS256", kid: keys.kid, typ: TOKEN_TYPE })
    .setIssuer(env.ISSUER)
    .setAudience(env.AUDIENCE)
    .setSubject(client.clientId)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .setJti(crypto.randomUUID())
    .sign(keys.signingKey);
}

export class InvalidTokenError extends Error {}

/** Verifies signature (RS256 only, key chosen by `kid`), issuer, audience, type and lifetime. */
export async function verifyAccessToken(env: TokenEnv, token: string): Promise<Principal> {
  const keys = await keyring(env);
  try {
    const { payload } = await jwtVerify<AccessTokenClaims>(
      token,
      (header) => {
        const key = header.kid ? keys.verificationKeys.get(header.kid) : undefined;
        if (!key) throw new InvalidTokenError("unknown signing key");
        return key;
      },
      {
        algorithms: ["RS256"],
        issuer: env.ISSUER,
        audience: env.AUDIENCE,
        typ: TOKEN_TYPE,
        requiredClaims: ["exp", "iat", "sub", "jti", "tid"],
        clockTolerance: 30,
      },
    );
    if (!Number.isSafeInteger(payload.tid) || typeof payload.sub !== "string") throw new InvalidTokenError("bad claims");
    return {
      clientId: payload.sub,
      tenantId: payload.tid,
      scopes: new Set(typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : []),
      tokenId: payload.jti!,
    };
  } catch (err) {
    if (err instanceof InvalidTokenError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError("the access token expired");
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError || err instanceof SyntaxError) {
      throw new InvalidTokenError("the access token is invalid");
    }
    throw err;
  }
}
