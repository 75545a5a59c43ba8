import type { Principal } from "./auth/principal";
import type { IdempotencyStore } from "./durable/idempotency-store";
import type { RateLimiter } from "./durable/rate-limiter";

/** Worker bindings, as declared in wrangler.toml (vars, D1, KV, Durable Objects) plus secrets. */
export interface Bindings {
  DB: D1Database;
  QUOTES: KVNamespace;
  IDEMPOTENCY: DurableObjectNamespace<IdempotencyStore>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  ISSUER: string;
  AUDIENCE: string;
  SERVICE_NAME: string;
  /** Current RS256 signing key as a private JWK (JSON), with `kid`. A Worker secret. */
  JWT_PRIVATE_KEY: string;
  /** Optional JSON array of public JWKs still published during key rotation. */
  JWT_PREVIOUS_PUBLIC_KEYS?: string;
  /** Platform protections, numbers as strings; unset means the defaults of src/ratelimit/policy.ts and src/http/body-limit.ts. */
  RATE_LIMIT_PER_MINUTE?: string;
  RATE_LIMIT_BURST?: string;
  TOKEN_RATE_LIMIT_PER_MINUTE?: string;
  TOKEN_RATE_LIMIT_BURST?: string;
  MAX_BODY_BYTES?: string;
}

export interface Variables {
  correlationId: string;
  principal: Principal;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
