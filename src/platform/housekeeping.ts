import { database } from "../db/client";
import type { Bindings } from "../env";
import { purgeExpiredResults } from "./idempotency/results";
import { logEvent } from "./logging";

/** Rows deleted per statement and statements per run: one run stays short even with a large backlog. */
export const PURGE_BATCH_SIZE = 500;
export const PURGE_MAX_BATCHES = 20;

/**
 * The Cron Trigger's work (wrangler.toml [triggers]): deletes expired rows in bounded batches, so a slow delete never
 * holds the database (D1 runs one query at a time). What one run leaves, the next one takes.
 */
export async function housekeeping(env: Pick<Bindings, "DB">, now: Date): Promise<{ idempotencyResults: number }> {
  const db = database(env.DB);
  let idempotencyResults = 0;
  for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
    const deleted = await purgeExpiredResults(db, now, PURGE_BATCH_SIZE);
    idempotencyResults += deleted;
    if (deleted < PURGE_BATCH_SIZE) break;
  }
  logEvent("info", { event: "housekeeping", purged: { idempotencyResults } });
  return { idempotencyResults };
}
