import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import { take, type BucketConfig, type BucketState } from "../ratelimit/token-bucket";

export interface AcquireRequest extends BucketConfig {
  /** Tokens wanted for a lease (the caller spends one now and keeps the rest locally). */
  want: number;
  /** Unused tokens of the caller's expired lease, returned to the bucket. */
  giveBack: number;
}

export interface AcquireResult {
  granted: number;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * The authoritative token bucket of one key (an API client, a token-endpoint client id or a source IP).
 * One instance per key (idFromName), so requests for a key are serialized here. The state is one SQLite
 * row: the tokens left and when they were counted.
 */
export class RateLimiter extends DurableObject<Bindings> {
  /** The bucket's clock (ms since the epoch). Tests replace it through runInDurableObject to let time pass without sleeping. */
  now: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS bucket (id INTEGER PRIMARY KEY CHECK (id = 1), tokens REAL NOT NULL, updated_at_ms INTEGER NOT NULL)",
    );
  }

  acquire(request: AcquireRequest): AcquireResult {
    const now = this.now();
    const [row] = this.ctx.storage.sql
      .exec<{ tokens: number; updated_at_ms: number }>("SELECT tokens, updated_at_ms FROM bucket WHERE id = 1")
      .toArray();
    const current: BucketState = row ? { tokens: row.tokens, updatedAtMs: row.updated_at_ms } : { tokens: request.capacity, updatedAtMs: now };
    const result = take(current, request, now, request.want, request.giveBack);
    this.ctx.storage.sql.exec(
      "INSERT INTO bucket (id, tokens, updated_at_ms) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET tokens = excluded.tokens, updated_at_ms = excluded.updated_at_ms",
      result.state.tokens,
      result.state.updatedAtMs,
    );
    return { granted: result.granted, remaining: result.remaining, retryAfterSeconds: result.retryAfterSeconds };
  }
}
