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

/**
 * The keys that verify access tokens: the signing keyring's where this Worker signs them (JWT_PRIVATE_KEY); elsewhere
 * (the operator plane's Worker, which holds no signing key) the keys the API publishes, read over its API binding
 * from {ISSUER}/.well-known/jwks.json, kept 5 minutes, and read again at most every 30 s when a token names a key
 * not among them (a rotation).
 */
export async function verificationKey(env: VerifyingEnv, kid: string): Promise<CryptoKey | undefined> {
  if (env.JWT_PRIVATE_KEY) return (await keyring(env)).verificationKeys.get(kid);
  if (!env.API) throw new Error("JWT_PRIVATE_KEY or an API binding is needed to verify tokens");
  const now = Date.now();
  if (
    !published ||
    now - published.at > PUBLISHED_KEYS_TTL_MS ||
    (!published.keys.has(kid) && now - published.at > PUBLISHED_KEYS_RETRY_MS)
  ) {
    published = { at: now, keys: await fetchPublishedKeys(env.API, env.ISSUER) };
  }
  return published.keys.get(kid);
}

export type VerifyingEnv = Pick<Bindings, "JWT_PRIVATE_KEY" | "JWT_PREVIOUS_PUBLIC_KEYS" | "ISSUER"> & { API?: Fetcher };

const PUBLISHED_KEYS_TTL_MS = 5 * 60_000;
const PUBLISHED_KEYS_RETRY_MS = 30_000;
let published: { at: number; keys: Map<string, CryptoKey> } | undefined;

async function fetchPublishedKeys(api: Fetcher, issuer: string): Promise<Map<string, CryptoKey>> {
  const response = await api.fetch(new Request(`${issuer}/.well-known/jwks.json`));
  if (!response.ok) throw new Error(`the published keys answered ${response.status}`);
  const { keys } = (await response.json()) as { keys: JWK[] };
  const imported = new Map<string, CryptoKey>();
  for (const jwk of keys) if (jwk.kid && jwk.alg === "RS256") imported.set(jwk.kid, (await importJWK(jwk, "RS256")) as CryptoKey);
  return imported;
}
