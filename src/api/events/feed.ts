import { and, asc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { outboxEvents } from "../../db/schema";
import { ValidationError } from "../../platform/errors";
import { deleteOldest } from "../../platform/housekeeping";
import { EVENT_RETENTION_DAYS, type EventType } from "./types";

/**
 * The tenant's event feed: the outbox, oldest first. Pages follow insertion order (rowid), so a cursor (the id of
 * the last event read) never skips an event written later with an earlier timestamp.
 */

export interface EventRecord {
  id: string;
  type: string;
  createdAt: string;
  orderNumber: string;
  sequence: number | null;
  data: unknown;
}

/** An event as the feed and webhook deliveries show it. */
export const eventColumns = {
  id: outboxEvents.id,
  type: outboxEvents.type,
  createdAt: outboxEvents.createdAt,
  orderNumber: outboxEvents.aggregateId,
  sequence: outboxEvents.sequence,
  data: outboxEvents.payload,
};

const rowid = sql<number>`${outboxEvents}.rowid`;

export interface FeedRequest {
  after?: string | undefined;
  types?: readonly EventType[] | undefined;
  limit: number;
}

export async function listEvents(db: Database, tenantId: number, request: FeedRequest) {
  const mine = eq(outboxEvents.tenantId, tenantId);
  const conditions: SQL[] = [mine];
  if (request.after !== undefined) {
    conditions.push(sql`${rowid} > (select e.rowid from ${outboxEvents} e where e.id = ${request.after} and e.tenant_id = ${tenantId})`);
  }
  if (request.types) conditions.push(inArray(outboxEvents.type, [...request.types]));
  const [cursor, rows] = await db.batch([
    db
      .select({ id: outboxEvents.id })
      .from(outboxEvents)
      .where(and(mine, eq(outboxEvents.id, request.after ?? ""))),
    db
      .select(eventColumns)
      .from(outboxEvents)
      .where(and(...conditions))
      .orderBy(asc(rowid))
      .limit(request.limit + 1),
  ]);
  // Another tenant's event id is as unknown as one that never existed.
  if (request.after !== undefined && cursor.length === 0) {
    throw new ValidationError({ after: ["Unknown event id: use the id of an event this feed returned."] });
  }
  const events = rows.slice(0, request.limit) as EventRecord[];
  return {
    events,
    hasMore: rows.length > request.limit,
    // Where to continue: the last event returned, else the cursor the caller gave (nothing new yet).
    nextCursor: events.at(-1)?.id ?? request.after ?? null,
  };
}

export async function findEvent(db: Database, tenantId: number, eventId: string): Promise<EventRecord | null> {
  const row = await db
    .select(eventColumns)
    .from(outboxEvents)
    .where(and(eq(outboxEvents.tenantId, tenantId), eq(outboxEvents.id, eventId)))
    .get();
  return (row as EventRecord | undefined) ?? null;
}

/** Rows of an event's time written before the retention period at `now`. */
export const beforeRetention = (createdAt: SQLiteColumn, now: Date) =>
  lt(createdAt, new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString());

/** Housekeeping: events older than the retention period go, oldest first, up to `limit` at a time. */
export const purgeOldEvents = (db: Database, now: Date, limit: number) =>
  deleteOldest(db, outboxEvents, outboxEvents.id, beforeRetention(outboxEvents.createdAt, now), outboxEvents.createdAt, limit);
