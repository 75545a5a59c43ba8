import { appConfig, type ConfigVars } from "../../env";
import type { BucketConfig } from "./token-bucket";

/** Bucket per API client on /customer/api (wrangler.toml [vars]). */
export function apiClientPolicy(env: ConfigVars): BucketConfig {
  const config = appConfig(env);
  return { capacity: config.RATE_LIMIT_BURST, refillPerMinute: config.RATE_LIMIT_PER_MINUTE };
}

/** The bucket of one SCIM token (/scim/v2): roomier, as an identity provider's sync sends one request per user. */
export function scimTokenPolicy(env: ConfigVars): BucketConfig {
  const config = appConfig(env);
  return { capacity: config.SCIM_RATE_LIMIT_BURST, refillPerMinute: config.SCIM_RATE_LIMIT_PER_MINUTE };
}

/** Stricter bucket for POST /auth/oauth2/token, applied per client_id and per source IP. */
export function tokenEndpointPolicy(env: ConfigVars): BucketConfig {
  const config = appConfig(env);
  return { capacity: config.TOKEN_RATE_LIMIT_BURST, refillPerMinute: config.TOKEN_RATE_LIMIT_PER_MINUTE };
}

/**
 * One token per (source IP, client_id), back after 10 minutes: a failed authentication spends the address's bucket
 * only when it takes this one, so the address pays once per client id failing from it, not once per failure.
 */
export const failingClientMarker: BucketConfig = { capacity: 1, refillPerMinute: 1 / 10 };

/** Names of the RateLimiter Durable Objects, one bucket each. */
export const bucketKey = {
  apiClient: (clientId: string) => `api:${clientId}`,
  scimToken: (tokenId: number) => `scim:${tokenId}`,
  tokenClient: (clientId: string) => `token-client:${clientId}`,
  tokenIp: (ip: string) => `token-ip:${ip}`,
  // An address has no "|", so the pair's name is unambiguous whatever the client_id holds.
  tokenFailure: (ip: string, clientId: string) => `token-failure:${ip}|${clientId}`,
};
