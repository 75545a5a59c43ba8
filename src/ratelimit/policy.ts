import { positiveNumberVar } from "../config";
import type { Bindings } from "../env";
import type { BucketConfig } from "./token-bucket";

type RateLimitVars = Pick<Bindings, "RATE_LIMIT_PER_MINUTE" | "RATE_LIMIT_BURST" | "TOKEN_RATE_LIMIT_PER_MINUTE" | "TOKEN_RATE_LIMIT_BURST">;

/** Bucket per API client on /customer/api (wrangler.toml [vars]). */
export function apiClientPolicy(env: RateLimitVars): BucketConfig {
  return { capacity: positiveNumberVar(env.RATE_LIMIT_BURST, 100), refillPerMinute: positiveNumberVar(env.RATE_LIMIT_PER_MINUTE, 600) };
}

/** Stricter bucket for POST /auth/oauth2/token, applied per client_id and per source IP. */
export function tokenEndpointPolicy(env: RateLimitVars): BucketConfig {
  return { capacity: positiveNumberVar(env.TOKEN_RATE_LIMIT_BURST, 10), refillPerMinute: positiveNumberVar(env.TOKEN_RATE_LIMIT_PER_MINUTE, 30) };
}

/** Names of the RateLimiter Durable Objects, one bucket each. */
export const bucketKey = {
  apiClient: (clientId: string) => `api:${clientId}`,
  tokenClient: (clientId: string) => `token-client:${clientId}`,
  tokenIp: (ip: string) => `token-ip:${ip}`,
};
