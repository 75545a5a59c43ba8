import { importJWK, type JWK } from "jose";
import type { Bindings } from "../env";

export interface Keyring {
  kid: string;
  signingKey: CryptoKey;
  jwks: { keys: JWK[] };
  verificationKeys: Map<string, CryptoKey>;
}

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

export function publicJwk(jwk: JWK): JWK {
  const copy: JWK = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return { ...copy, alg: "RS256", use: "sig" };
}

let cache: { source: string; keyring: Promise<Keyring> } | undefined;

/** The signing key and the published keys, imported once per isolate and reused. */
export function keyring(env: Pick<Bindings, "JWT_PRIVATE_KEY" | "JWT_PREVIOUS_PUBLIC_KEYS">): Promise<Keyring> {
  const source = `${env.JWT_PRIVATE_KEY}\n${env.JWT_PREVIOUS_PUBLIC_KEYS ?? ""}`;
  if (cache?.source !== source) cache = { source, keyring: loadKeyring(env) };
  const pending = cache.keyring;
  pending.catch(() => {
    if (cache?.keyring === pending) cache = undefined;
  });
  return pending;
}

async function loadKeyring(env: Pick<Bindings, "JWT_PRIVATE_KEY" | "JWT_PREVIOUS_PUBLIC_KEYS">): Promise<Keyring> {
  if (!env.JWT_PRIVATE_KEY) throw new Error("JWT_PRIVATE_KEY is not configured");
  const privateJwk = JSON.parse(env.JWT_PRIVATE_KEY) as JWK;
  if (privateJwk.kty !== "RSA" || !privateJwk.kid || !privateJwk.d)
    throw new Error("JWT_PRIVATE_KEY must be an RSA private JWK with a kid");
  const previous = env.JWT_PREVIOUS_PUBLIC_KEYS ? (JSON.parse(env.JWT_PREVIOUS_PUBLIC_KEYS) as JWK[]) : [];
  const published = [publicJwk(privateJwk), ...previous.map(publicJwk)];
  const verificationKeys = new Map<string, CryptoKey>();
  for (const jwk of published) {
    verificationKeys.set(jwk.kid!, (await importJWK(jwk, "RS256")) as CryptoKey);
  }
  return {
    kid: privateJwk.kid,
    signingKey: (await importJWK(privateJwk, "RS256")) as CryptoKey,
    jwks: { keys: published },
    verificationKeys,
  };
}
