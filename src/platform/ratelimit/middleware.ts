import type { Context, Next } from "hono";
import { type AppEnv, appConfig } from "../../env";
import { ProblemError } from "../errors";
import { setResponseHeaders } from "../responses";
import { localAllowances, type RateLimitDecision } from "./limiter";
import { apiClientPolicy, bucketKey, failingClientMarker, scimTokenPolicy, tokenEndpointPolicy } from "./policy";
import type { BucketConfig } from "./token-bucket";

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), plus Retry-After when limited. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(d.limit),
    "RateLimit-Remaining": String(d.remaining),
    "RateLimit-Reset": String(d.resetSeconds),
  };
  if (!d.allowed) headers["Retry-After"] = String(Math.max(1, d.retryAfterSeconds));
  return headers;
}

function tooManyRequests(d: RateLimitDecision, detail: string): ProblemError {
  return new ProblemError(429, "rate-limited", "Too Many Requests", `${detail} Retry after ${Math.max(1, d.retryAfterSeconds)} seconds.`, {
    headers: rateLimitHeaders(d),
  });
}

async function consume(c: Context<AppEnv>, key: string, config: BucketConfig) {
  return localAllowances.consume(c.env.RATE_LIMITER, key, config, appConfig(c.env).RATE_LIMITER_TIMEOUT_MS);
}

/** Runs `next` and stamps the decision's headers on whatever response (success or error) comes back. */
async function withHeaders(c: Context<AppEnv>, d: RateLimitDecision | null, next: Next): Promise<void> {
  await next();
  if (d) setResponseHeaders(c, rateLimitHeaders(d));
}

/** Per-client bucket of the customer API; called by requireBearer once the client is known. */
export async function limitApiClient(c: Context<AppEnv>, clientId: string, next: Next): Promise<void> {
  const d = await consume(c, bucketKey.apiClient(clientId), apiClientPolicy(c.env));
  if (d && !d.allowed) throw tooManyRequests(d, "Rate limit exceeded for this API client.");
  await withHeaders(c, d, next);
}

/** Per-token bucket of /scim/v2; called by the SCIM authentication once the token is known. */
export async function limitScimToken(c: Context<AppEnv>, tokenId: number, next: Next): Promise<void> {
  const d = await consume(c, bucketKey.scimToken(tokenId), scimTokenPolicy(c.env));
  if (d && !d.allowed) throw tooManyRequests(d, "Rate limit exceeded for this SCIM token.");
  await withHeaders(c, d, next);
}

/** The limits of one token request: its own client's bucket and its address's bucket of failures. */
export interface TokenRequestLimits {
  /** Rejects with the address's 429, else the client's; once admitted, the tighter bucket's headers are on the answer. */
  admitted: Promise<void>;
  /** Counts a failed client authentication against the address: the first of its client_id there in a while only. */
  failed(): Promise<void>;
}

/**
 * POST /auth/oauth2/token (docs/architecture.md, "Token endpoint"), with the stricter token-endpoint policy:
 * - per client_id, every request (guessing one client's secret from anywhere, or one client asking too often);
 * - per source IP, checked on every request and spent by failed client authentications, one token per client_id
 *   failing from that address (`failingClientMarker`): guessing across client ids from one place is stopped, while a
 *   client failing again and again (a stale secret) spends only its own bucket. Many tenants sit behind one egress IP
 *   (a hospital network, an integration platform); one tenant's broken client must not lock the others out.
 * Both buckets are asked at once; the route reads the client alongside (one round trip for the three).
 */
export function limitTokenRequest(c: Context<AppEnv>, clientId: string): TokenRequestLimits {
  const config = tokenEndpointPolicy(c.env);
  // Set by Cloudflare's edge on every request (clients cannot forge it); absent only in local development.
  const ip = c.req.header("CF-Connecting-IP");
  let byIp: RateLimitDecision | null = null;
  let byClient: RateLimitDecision | null = null;
  const stampTighter = () => {
    const tighter = byIp && byClient ? (byIp.remaining <= byClient.remaining ? byIp : byClient) : (byIp ?? byClient);
    if (tighter) for (const [name, value] of Object.entries(rateLimitHeaders(tighter))) c.header(name, value);
  };
  const admitted = Promise.all([
    ip ? localAllowances.peek(c.env.RATE_LIMITER, bucketKey.tokenIp(ip), config, appConfig(c.env).RATE_LIMITER_TIMEOUT_MS) : null,
    consume(c, bucketKey.tokenClient(clientId), config),
  ]).then(([ipDecision, clientDecision]) => {
    byIp = ipDecision;
    byClient = clientDecision;
    if (byIp && !byIp.allowed) throw tooManyRequests(byIp, "Too many failed token requests from this address.");
    if (byClient && !byClient.allowed) throw tooManyRequests(byClient, "Too many token requests for this client.");
    stampTighter();
  });
  const failed = async () => {
    if (!ip) return;
    const firstFailure = await consume(c, bucketKey.tokenFailure(ip, clientId), failingClientMarker);
    if (firstFailure?.allowed) byIp = (await consume(c, bucketKey.tokenIp(ip), config)) ?? byIp;
    stampTighter();
  };
  return { admitted, failed };
}
