import { eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunk } from "../../db/bulk-insert";
import type { Database } from "../../db/client";
import {
  orderLineRevisions,
  orderLines,
  orders,
  outboxEvents,
  shippingDocumentLines,
  shippingDocuments,
  writePreconditions,
} from "../../db/schema";
import { ProblemError } from "../../platform/errors";
import type { EventType } from "../events/types";
import { NOTHING_LEFT_TO_SHIP, type OrderStatus, orderStatusOf } from "./lifecycle";
import type { LineFieldChange } from "./line-history";

/**
 * How every change to an existing order commits (buyer cancel, vendor acknowledge, backorder, ship, deliver,
 * reject): one D1 batch with the line updates, the order's derived status, `lastUpdated`, its version + 1 and one
 * outbox event numbered with that version. The batch first checks that the order is exactly as the change read it
 * (same version, same line statuses and shipped quantities); if anything changed meanwhile, the whole batch aborts
 * and the caller gets 409 order-changed: of two concurrent changes to one order, one wins and the other retries.
 */

export interface OrderLineState {
  id: number;
  status: string;
  shippedQuantity: number;
}

/** An order as a change read it: enough to derive its status after the change and to detect a concurrent change. */
export interface OrderSnapshot {
  id: number;
  tenantId: number;
  orderNumber: string;
  version: number;
  /** Every line of the order, by id. */
  lines: OrderLineState[];
}

export interface OrderChange {
  order: OrderSnapshot;
  /** The new status (and shipped quantity) of the lines that change; the others keep theirs. */
  lineChanges: ReadonlyMap<number, { status: string; shippedQuantity?: number }>;
  /** Writes of the change itself (lines, shipments), after the check and before the order update. */
  statements: readonly BatchItem<"sqlite">[];
  /** The payload without `orderNumber` and `status`, which the commit adds (src/api/events/schemas.ts, OrderChangePayload). */
  event: { type: EventType; payload: Record<string, unknown> };
  /** Events after the first, each numbered with the next version (an invoice received, then matched). */
  moreEvents?: readonly { type: EventType; payload: Record<string, unknown> }[];
  /** The revisions of the lines this change records (who changed what: src/api/orders/line-history.ts). */
  revisions?: readonly LineRevision[];
  at: Date;
  /** The event's id when the caller needs it before the commit (e.g. in the idempotent result); else a new UUID. */
  eventId?: string;
  /** The ids of every event (the first and `moreEvents`), when the caller draws them; else new UUIDs. */
  eventIds?: readonly string[];
  /** Committed in the same batch (e.g. the idempotent result of the request). */
  also?: readonly BatchItem<"sqlite">[];
}

/** One revision of a line: who changed which of its fields, from what to what. */
export interface LineRevision {
  lineId: number;
  actor: "vendor" | "buyer" | "system";
  actorId: number | null;
  /** The X12 855 code of a confirmation, or the move or decision that made the change (ship, cancel, accept-change...). */
  code: string;
  changes: LineFieldChange[];
  note?: string | null;
}

export interface ChangeOutcome {
  status: OrderStatus;
  eventId: string;
  /** Every event of the change, in order (the first is `eventId`). */
  eventIds: string[];
  /** What the statements of `also` answered, in order (e.g. the id of a row the change inserted). */
  alsoResults: unknown[];
  /** The order's version after the change, also the event's sequence number. */
  version: number;
}

/** The line columns a change's precondition compares, in the order the fingerprint lists them. */
const linesFingerprint = (lines: readonly OrderLineState[]) => lines.map((l) => `${l.id}:${l.status}:${l.shippedQuantity}`).join(",");

/** The order's status once `lineChanges` apply (a change that leaves the shipped quantity out keeps the line's). */
export const statusAfter = (order: OrderSnapshot, lineChanges: OrderChange["lineChanges"]): OrderStatus =>
  orderStatusOf(
    order.lines.map((l) => {
      const change = lineChanges.get(l.id);
      return { status: change?.status ?? l.status, shippedQuantity: change?.shippedQuantity ?? l.shippedQuantity };
    }),
  );

export const orderChanged = () =>
  new ProblemError(409, "order-changed", "Order changed", "The order changed while this request was applied; nothing was changed. Retry.");

export function orderChangeStatements(db: Database, change: OrderChange, eventIds: readonly string[]): BatchItem<"sqlite">[] {
  const { order, at } = change;
  const status = statusAfter(order, change.lineChanges);
  const events = [change.event, ...(change.moreEvents ?? [])];
  const version = order.version + events.length;
  const current = sql`(select group_concat(${orderLines.id} || ':' || ${orderLines.statusName} || ':' || ${orderLines.shippedQuantity}, ',' order by ${orderLines.id}) from ${orderLines} where ${orderLines.orderId} = ${order.id})`;
  return [
    // Aborts the batch (NOT NULL fails on the inserted NULL) unless the order is as it was read.
    db
      .insert(writePreconditions)
      .select(
        sql`select null where not exists (select 1 from ${orders} where ${orders.id} = ${order.id} and ${orders.version} = ${order.version}) or ${current} is not ${linesFingerprint(order.lines)}`,
      ),
    ...change.statements,
    ...(change.revisions ?? []).map((revision) => revisionStatement(db, order.id, revision, at)),
    ...toShipDocumentUpkeep(db, order.id),
    db.update(orders).set({ status, updatedAt: at.toISOString(), version }).where(eq(orders.id, order.id)),
    ...chunk(
      events.map((event, i) => ({
        id: eventIds[i]!,
        type: event.type,
        tenantId: order.tenantId,
        aggregateId: order.orderNumber,
        payload: { orderNumber: order.orderNumber, status, ...event.payload },
        createdAt: at.toISOString(),
        sequence: order.version + 1 + i,
      })),
      EVENTS_PER_INSERT,
    ).map((rows) => db.insert(outboxEvents).values(rows)),
    ...(change.also ?? []),
  ];
}

/** 7 bound values per event, and D1 allows 100 per statement (an invoice can change many earlier invoices' status). */
const EVENTS_PER_INSERT = 14;

/** A line's next revision (1, 2, ... per line). */
function revisionStatement(db: Database, orderId: number, revision: LineRevision, at: Date): BatchItem<"sqlite"> {
  return db.insert(orderLineRevisions).values({
    lineId: revision.lineId,
    revision: sql`(select coalesce(max(${orderLineRevisions.revision}), 0) + 1 from ${orderLineRevisions} where ${orderLineRevisions.lineId} = ${revision.lineId})`,
    orderId,
    actor: revision.actor,
    actorId: revision.actorId,
    code: revision.code,
    changes: revision.changes,
    note: revision.note ?? null,
    at: at.toISOString(),
  });
}

/**
 * The order's to-ship document (the one without a shipment) lists only what is still to ship, whatever closed a line
 * (shipped in full, cancelled, rejected); it goes once nothing is left on it.
 */
function toShipDocumentUpkeep(db: Database, orderId: number): BatchItem<"sqlite">[] {
  const toShip = sql`select ${shippingDocuments.id} from ${shippingDocuments} where ${shippingDocuments.orderId} = ${orderId} and ${shippingDocuments.shippedAt} is null`;
  return [
    db
      .delete(shippingDocumentLines)
      .where(
        sql`${shippingDocumentLines.shippingDocumentId} in (${toShip}) and ${shippingDocumentLines.lineId} in (select ${orderLines.id} from ${orderLines} where ${orderLines.orderId} = ${orderId} and ${inArray(orderLines.statusName, [...NOTHING_LEFT_TO_SHIP])})`,
      ),
    db
      .delete(shippingDocuments)
      .where(
        sql`${shippingDocuments.id} in (${toShip}) and not exists (select 1 from ${shippingDocumentLines} where ${shippingDocumentLines.shippingDocumentId} = ${shippingDocuments.id})`,
      ),
  ];
}

export async function commitOrderChange(db: Database, change: OrderChange): Promise<ChangeOutcome> {
  const eventIds = change.eventIds
    ? [...change.eventIds]
    : [change.eventId ?? crypto.randomUUID(), ...(change.moreEvents ?? []).map(() => crypto.randomUUID())];
  const statements = orderChangeStatements(db, change, eventIds);
  let results: unknown[];
  try {
    results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    if (String((err as Error)?.message ?? err).includes("write_preconditions")) throw orderChanged();
    throw err;
  }
  const alsoCount = change.also?.length ?? 0;
  return {
    status: statusAfter(change.order, change.lineChanges),
    eventId: eventIds[0]!,
    eventIds,
    version: change.order.version + eventIds.length,
    alsoResults: alsoCount === 0 ? [] : results.slice(-alsoCount),
  };
}

/** The order's total after its lines' prices or quantities changed: the sum of its lines, as when it was placed. */
export const orderTotalUpkeep = (db: Database, orderId: number) =>
  db
    .update(orders)
    .set({ totalCents: sql`(select sum(${orderLines.extendedPriceCents}) from ${orderLines} where ${orderLines.orderId} = ${orderId})` })
    .where(eq(orders.id, orderId));

/** Every line of the order whose id `orderId` selects, as a change needs them (one query, for the change's read batch). */
export function orderLineStates(db: Database, orderId: ReturnType<typeof sql<number>>) {
  return db
    .select({ id: orderLines.id, status: orderLines.statusName, shippedQuantity: orderLines.shippedQuantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(orderLines.id);
}
