import { importJWK, type JWK } from "jose";
import type { Bindings } from "../../env";

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
 * (the operator plane's Worker, which holds no signing key) the keys the API publishes (publishedAuthority).
 */
export async function verificationKey(env: VerifyingEnv, kid: string): Promise<CryptoKey | undefined> {
  if (env.JWT_PRIVATE_KEY) return (await keyring(env)).verificationKeys.get(kid);
  if (!env.API) throw new Error("JWT_PRIVATE_KEY or an API binding is needed to verify tokens");
  return (await publishedAuthority(env.API, kid)).keys.get(kid);
}

export type VerifyingEnv = Pick<Bindings, "JWT_PRIVATE_KEY" | "JWT_PREVIOUS_PUBLIC_KEYS"> & { API?: Fetcher };

const AUTHORITY_TTL_MS = 5 * 60_000;
const AUTHORITY_RETRY_MS = 30_000;
let authority: { at: number; pending: Promise<{ issuer: string; keys: Map<string, CryptoKey> }> } | undefined;

/**
 * The authorization server as a resource server learns it (RFC 8414): its issuer and published keys, read over the
 * API binding from /.well-known/oauth-authorization-server/auth and its jwks_uri. Kept 5 minutes per isolate, and
 * read again at most every 30 s when a token names a key not among them (a rotation). The issuer comes from there
 * too, so the operator plane needs no copy of the API's ISSUER.
 */
export async function publishedAuthority(api: Fetcher, wantedKid?: string): Promise<{ issuer: string; keys: Map<string, CryptoKey> }> {
  const now = Date.now();
  const stale = !authority || now - authority.at > AUTHORITY_TTL_MS;
  if (!stale && wantedKid && now - authority!.at > AUTHORITY_RETRY_MS && !(await authority!.pending).keys.has(wantedKid))
    authority = undefined;
  if (stale || !authority) {
    const pending = readAuthority(api);
    authority = { at: now, pending };
    pending.catch(() => {
      if (authority?.pending === pending) authority = undefined;
    });
  }
  return authority.pending;
}

async function readAuthority(api: Fetcher): Promise<{ issuer: string; keys: Map<string, CryptoKey> }> {
  const read = async <T>(url: string): Promise<T> => {
    const response = await api.fetch(new Request(url));
    if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
    return (await response.json()) as T;
  };
  const metadata = await read<{ issuer: string; jwks_uri: string }>("https://api.internal/.well-known/oauth-authorization-server/auth");
  const { keys } = await read<{ keys: JWK[] }>(metadata.jwks_uri);
  const imported = new Map<string, CryptoKey>();
  for (const jwk of keys) if (jwk.kid && jwk.alg === "RS256") imported.set(jwk.kid, (await importJWK(jwk, "RS256")) as CryptoKey);
  return { issuer: metadata.issuer, keys: imported };
}
