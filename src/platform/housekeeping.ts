import { and, inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, database } from "../db/client";
import { logEvent } from "./logging";

/** Rows deleted per statement and statements per run and kind: one run stays short even with a large backlog. */
export const PURGE_BATCH_SIZE = 500;
export const PURGE_MAX_BATCHES = 20;

/** Deletes up to `limit` rows that are no longer needed at `now`; returns how many it deleted. */
export type Purge = (db: Database, now: Date, limit: number) => Promise<number>;

/**
 * The body of every purge: deletes up to `limit` rows of `table` that `stale` selects, those first by `oldestFirst`,
 * in one statement (`key` names the rows). Returns how many went.
 */
export async function deleteOldest(
  db: Database,
  table: SQLiteTable,
  key: SQLiteColumn,
  stale: SQL | undefined,
  oldestFirst: SQLiteColumn,
  limit: number,
): Promise<number> {
  const oldest = db.select({ key }).from(table).where(stale).orderBy(oldestFirst).limit(limit);
  const deleted = await db
    .delete(table)
    .where(and(stale, inArray(key, oldest)))
    .returning({ key });
  return deleted.length;
}

/**
 * The Cron Trigger's work (wrangler.toml [triggers]): each purge deletes expired rows in bounded batches, so a slow
 * delete never holds the database (D1 runs one query at a time). What one run leaves, the next one takes. The
 * features give their purges (src/api/index.ts); docs/architecture.md has the capacity math.
 */
export async function housekeeping<K extends string>(
  // Only the database: platform files that env.ts depends on must not depend on env.ts (no import cycle).
  env: { DB: D1Database },
  now: Date,
  purges: Record<K, Purge>,
): Promise<Record<K, number>> {
  const db = database(env.DB);
  const purged = {} as Record<K, number>;
  for (const [name, purge] of Object.entries(purges) as [K, Purge][]) {
    purged[name] = 0;
    for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
      const deleted = await purge(db, now, PURGE_BATCH_SIZE);
      purged[name] += deleted;
      if (deleted < PURGE_BATCH_SIZE) break;
    }
  }
  logEvent("info", { event: "housekeeping", purged });
  return purged;
}
