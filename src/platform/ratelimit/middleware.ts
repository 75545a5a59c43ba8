import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "../../env";
import { basicCredentials } from "../basic-credentials";
import { ProblemError } from "../errors";
import { setResponseHeaders } from "../responses";
import { localAllowances, type RateLimitDecision } from "./limiter";
import { apiClientPolicy, bucketKey, tokenEndpointPolicy } from "./policy";
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
  return localAllowances.consume(c.env.RATE_LIMITER, key, config);
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

const MAX_CLIENT_ID_LENGTH = 128;

/** client_id of a token request, from HTTP Basic or the form body; undefined if absent or unusable. */
async function tokenRequestClientId(c: Context<AppEnv>): Promise<string | undefined> {
  const basic = basicCredentials(c.req.header("Authorization"));
  let clientId = basic && basic !== "malformed" ? basic.id : undefined;
  if (!clientId && c.req.header("Content-Type")?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    // hono caches the body it read, so the route's form validator still sees it.
    clientId = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer())).get("client_id") ?? undefined;
  }
  return clientId && clientId.length <= MAX_CLIENT_ID_LENGTH ? clientId : undefined;
}

/**
 * POST /auth/oauth2/token, with the stricter token-endpoint policy on two buckets:
 * - per client_id, every request (guessing one client's secret from many places, or one client asking too often);
 * - per source IP, failed client authentications only (guessing credentials from one place): many tenants can sit
 *   behind one egress IP (a hospital network, an integration platform), and one tenant's busy but valid traffic
 *   must never lock the others out. The address is checked before anything else, so a flood of invented client
 *   ids from one place is stopped without creating a Durable Object per id.
 * The response carries the headers of the bucket with fewer tokens left.
 */
export const limitTokenRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  const config = tokenEndpointPolicy(c.env);
  // Set by Cloudflare's edge on every request (clients cannot forge it); absent only in local development.
  const ip = c.req.header("CF-Connecting-IP");
  const ipKey = ip ? bucketKey.tokenIp(ip) : undefined;
  let byIp = ipKey ? await localAllowances.peek(c.env.RATE_LIMITER, ipKey, config) : null;
  if (byIp && !byIp.allowed) throw tooManyRequests(byIp, "Too many failed token requests from this address.");
  const clientId = await tokenRequestClientId(c);
  const byClient = clientId ? await consume(c, bucketKey.tokenClient(clientId), config) : null;
  if (byClient && !byClient.allowed) throw tooManyRequests(byClient, "Too many token requests for this client.");
  await next();
  if (ipKey && c.res.status === 401) byIp = (await consume(c, ipKey, config)) ?? byIp;
  const tighter = byIp && byClient ? (byIp.remaining <= byClient.remaining ? byIp : byClient) : (byIp ?? byClient);
  if (tighter) setResponseHeaders(c, rateLimitHeaders(tighter));
};
