import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../../env";
import { type BucketConfig, type BucketState, msToRefill, take } from "./token-bucket";

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
 * A bucket is deleted once it is full again and has not been used for a minute: a client that keeps calling keeps
 * its one row, instead of paying a deleted database and a new table for every lease.
 */
const KEEP_UNUSED_BUCKET_MS = 60_000;

/** When the state of a bucket last counted at `state.updatedAtMs` may go: full again, and unused long enough. */
function deletableAt(state: BucketState, config: BucketConfig): number {
  return state.updatedAtMs + Math.max(msToRefill(config.capacity - state.tokens, config), KEEP_UNUSED_BUCKET_MS);
}

type BucketRow = {
  tokens: number;
  updated_at_ms: number;
  capacity: number;
  refill_per_minute: number;
};

/**
 * The authoritative token bucket of one key (an API client, a token-endpoint client id or a source IP).
 * One instance per key (idFromName), so requests for a key are serialized here. The state is one SQLite
 * row: the tokens left, when they were counted, and the bucket's configuration. A full bucket is the
 * same as no bucket, so an alarm deletes the state once the bucket has refilled and gone unused for a minute: keys
 * that stop calling (source IPs, invented client ids) leave nothing behind.
 */
export class RateLimiter extends DurableObject<Bindings> {
  /** The bucket's clock (ms since the epoch). Tests replace it through runInDurableObject to let time pass without sleeping. */
  now: () => number = () => Date.now();
  private tableReady = false;

  async acquire(request: AcquireRequest): Promise<AcquireResult> {
    const now = this.now();
    const row = this.readRow();
    const current: BucketState = row
      ? { tokens: row.tokens, updatedAtMs: row.updated_at_ms }
      : { tokens: request.capacity, updatedAtMs: now };
    const config = { capacity: request.capacity, refillPerMinute: request.refillPerMinute };
    const result = take(current, config, now, request.want, request.giveBack);
    this.ctx.storage.sql.exec(
      `INSERT INTO bucket (id, tokens, updated_at_ms, capacity, refill_per_minute) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET tokens = excluded.tokens, updated_at_ms = excluded.updated_at_ms,
         capacity = excluded.capacity, refill_per_minute = excluded.refill_per_minute`,
      result.state.tokens,
      result.state.updatedAtMs,
      config.capacity,
      config.refillPerMinute,
    );
    // One pending alarm is enough: when it fires early (the bucket was used since), it re-arms for the new time.
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(deletableAt(result.state, config));
    return { granted: result.granted, remaining: result.remaining, retryAfterSeconds: result.retryAfterSeconds };
  }

  /** Deletes the state of a bucket that has refilled and gone unused (and is therefore indistinguishable from a new one). */
  override async alarm(): Promise<void> {
    const row = this.readRow();
    if (!row) return;
    const due = deletableAt(
      { tokens: row.tokens, updatedAtMs: row.updated_at_ms },
      { capacity: row.capacity, refillPerMinute: row.refill_per_minute },
    );
    if (due > this.now()) {
      await this.ctx.storage.setAlarm(due);
      return;
    }
    await this.ctx.storage.deleteAll();
    this.tableReady = false;
  }

  private readRow(): BucketRow | undefined {
    if (!this.tableReady) {
      this.ctx.storage.sql.exec(
        `CREATE TABLE IF NOT EXISTS bucket (id INTEGER PRIMARY KEY CHECK (id = 1), tokens REAL NOT NULL, updated_at_ms INTEGER NOT NULL,
           capacity REAL NOT NULL, refill_per_minute REAL NOT NULL)`,
      );
      this.tableReady = true;
    }
    return this.ctx.storage.sql
      .exec<BucketRow>("SELECT tokens, updated_at_ms, capacity, refill_per_minute FROM bucket WHERE id = 1")
      .toArray()[0];
  }
}
