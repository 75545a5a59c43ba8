import { type JWTPayload, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Bindings } from "../../env";
import type { OperatorPrincipal, Principal, VendorPrincipal } from "../../platform/principal";
import { Remembered } from "../../platform/remembered";
import { dataTenantOf, modeOfClient } from "../../platform/test-mode";
import type { AuthenticatedClient } from "./clients";
import { keyring, type VerifyingEnv, verificationKey } from "./keys";

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const TOKEN_TYPE = "at+jwt"; // RFC 9068 access token

type TokenEnv = Pick<
  Bindings,
  "ISSUER" | "AUDIENCE" | "VENDOR_AUDIENCE" | "OPERATOR_AUDIENCE" | "JWT_PRIVATE_KEY" | "JWT_PREVIOUS_PUBLIC_KEYS"
> &
  VerifyingEnv;

/**
 * A buyer tenant's token carries `tid` and the customer API audience; a vendor's carries `vid` and the vendor API
 * audience; the operator's carries `opr` (1) and the operator API audience. Each API verifies its own audience and
 * claim, so no token opens another API.
 */
interface AccessTokenClaims extends JWTPayload {
  tid?: number;
  vid?: number;
  opr?: number;
  scope: string;
  client_id: string;
}

export async function issueAccessToken(env: TokenEnv, client: AuthenticatedClient): Promise<string> {
  const keys = await keyring(env);
  const { owner, audience } = client.operator
    ? { owner: { opr: 1 }, audience: env.OPERATOR_AUDIENCE }
    : client.vendorId !== undefined
      ? { owner: { vid: client.vendorId }, audience: env.VENDOR_AUDIENCE }
      : { owner: { tid: client.tenantId }, audience: env.AUDIENCE };
  return new SignJWT({ ...owner, scope: client.scopes.join(" "), client_id: client.clientId })
    .setProtectedHeader({ alg: "RS256", kid: keys.kid, typ: TOKEN_TYPE })
    .setIssuer(env.ISSUER)
    .setAudience(audience)
    .setSubject(client.clientId)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .setJti(crypto.randomUUID())
    .sign(keys.signingKey);
}

export class InvalidTokenError extends Error {}

type VerifiedClaims = Awaited<ReturnType<typeof verifyClaims>>;

/**
 * Per-isolate memory of tokens already verified (src/platform/remembered.ts), so that a client's many requests with
 * one token pay for the RS256 check once a minute instead of every time. Keyed by the exact token with the issuer and
 * audience it was checked against; an entry is trusted for VERIFIED_TOKEN_TTL_SECONDS, and never past the token's own
 * expiry (with the same 30 s tolerance). Only successes are remembered. A signing key withdrawn from the keyring
 * stops opening the API within that minute.
 */
const VERIFIED_TOKEN_TTL_SECONDS = 60;
const verifiedTokens = new Remembered<VerifiedClaims>(Date.now, 10_000, (claims) => (claims.expiresAt + 30) * 1000);

/** Verifies signature (RS256 only, key chosen by `kid`), issuer, audience, type, lifetime and the owner claim. */
function verifiedClaims(env: TokenEnv, token: string, audience: string, ownerClaim: "tid" | "vid" | "opr"): Promise<VerifiedClaims> {
  const key = `${env.ISSUER}\n${audience}\n${ownerClaim}\n${token}`;
  return verifiedTokens.get(key, VERIFIED_TOKEN_TTL_SECONDS, () => verifyClaims(env, token, audience, ownerClaim));
}

async function verifyClaims(env: TokenEnv, token: string, audience: string, ownerClaim: "tid" | "vid" | "opr") {
  try {
    const { payload } = await jwtVerify<AccessTokenClaims>(
      token,
      async (header) => {
        const key = header.kid ? await verificationKey(env, header.kid) : undefined;
        if (!key) throw new InvalidTokenError("unknown signing key");
        return key;
      },
      {
        algorithms: ["RS256"],
        issuer: env.ISSUER,
        audience,
        typ: TOKEN_TYPE,
        requiredClaims: ["exp", "iat", "sub", "jti", ownerClaim],
        clockTolerance: 30,
      },
    );
    const owner = payload[ownerClaim];
    if (!Number.isSafeInteger(owner) || typeof payload.sub !== "string") throw new InvalidTokenError("bad claims");
    return {
      owner: owner as number,
      clientId: payload.sub,
      scopes: new Set(typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : []),
      tokenId: payload.jti!,
      /** The token's `exp` (seconds). */
      expiresAt: payload.exp!,
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

/** A customer API token (audience AUDIENCE, claim `tid`). */
export async function verifyAccessToken(env: TokenEnv, token: string): Promise<Principal> {
  const { owner, expiresAt: _expiresAt, ...rest } = await verifiedClaims(env, token, env.AUDIENCE, "tid");
  const mode = modeOfClient(rest.clientId);
  return { ...rest, tenantId: owner, mode, dataTenantId: dataTenantOf(owner, mode) };
}

/** A vendor API token (audience VENDOR_AUDIENCE, claim `vid`). */
export async function verifyVendorAccessToken(env: TokenEnv, token: string): Promise<VendorPrincipal> {
  const { owner, expiresAt: _expiresAt, ...rest } = await verifiedClaims(env, token, env.VENDOR_AUDIENCE, "vid");
  return { ...rest, vendorId: owner };
}

/** An operator API token (audience OPERATOR_AUDIENCE, claim `opr`). */
export async function verifyOperatorAccessToken(env: TokenEnv, token: string): Promise<OperatorPrincipal> {
  const { owner: _owner, expiresAt: _expiresAt, ...rest } = await verifiedClaims(env, token, env.OPERATOR_AUDIENCE, "opr");
  return rest;
}
