import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { orderLines, orders, outboxEvents, writePreconditions } from "../db/schema";
import { ProblemError, ValidationError } from "../platform/errors";
import { canMove, isWithdrawn, type LineStatus, type OrderStatus, orderStatusOf, TRANSITIONS } from "./lifecycle";
import { orderNotFound } from "./search";

export const ORDER_CANCELLED_EVENT = "order.cancelled";
const CANCELLED: LineStatus = "Cancelled";
/** Line statuses from which a buyer may cancel: those whose transitions include Cancelled. */
export const CANCELLABLE = (Object.keys(TRANSITIONS) as LineStatus[]).filter((s) => TRANSITIONS[s].includes(CANCELLED));

export interface CancelRequest {
  /** Lines to cancel; all lines of the order when absent. */
  lineIds?: number[] | undefined;
  reason?: string | null | undefined;
  /** Cancel what can be cancelled and report the rest, instead of refusing the whole request. */
  partial?: boolean | undefined;
}

export interface CancelOutcome {
  orderNumber: string;
  status: OrderStatus;
  cancelledLineIds: number[];
  notCancelled: { lineId: number; statusName: LineStatus }[];
  eventId: string | null;
}

export interface CancelOptions {
  commitWith?: (outcome: CancelOutcome) => readonly BatchItem<"sqlite">[];
  now?: Date;
}

/**
 * Cancels lines of one of the tenant's orders (docs/api.md, "Cancel"): lines already shipped or delivered make it a
 * 409 naming them unless `partial`; cancelled or rejected lines are left as they are. The line updates, the order's
 * derived status, the `order.cancelled` event and the idempotent result commit in one D1 batch, which aborts itself
 * if any line changed since it was read (a vendor shipped it meanwhile): then 409, and a retry reads afresh.
 */
export async function cancelOrder(
  db: Database,
  tenantId: number,
  orderNumber: string,
  request: CancelRequest,
  { commitWith, now = new Date() }: CancelOptions = {},
): Promise<CancelOutcome> {
  // The order and its lines in one round trip (the lines found through the same tenant-scoped order number).
  const thisOrder = and(eq(orders.tenantId, tenantId), eq(orders.orderNumber, orderNumber));
  const [found, lines] = await db.batch([
    db.select({ id: orders.id }).from(orders).where(thisOrder),
    db
      .select({ id: orderLines.id, status: orderLines.statusName })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(thisOrder)
      .orderBy(orderLines.lineNumber),
  ]);
  const order = found[0];
  if (!order) throw orderNotFound();

  const known = new Set(lines.map((l) => l.id));
  const unknown = (request.lineIds ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0) throw new ValidationError({ lineIds: [`Not lines of order ${orderNumber}: ${unknown.join(", ")}.`] });
  const wanted = request.lineIds ? new Set(request.lineIds) : known;
  const targets = lines.filter((l) => wanted.has(l.id));
  const toCancel = targets.filter((l) => canMove(l.status, CANCELLED));
  const blocked = targets.filter((l) => !toCancel.includes(l) && !isWithdrawn(l.status));
  if (blocked.length > 0 && !request.partial) {
    throw new ProblemError(
      409,
      "lines-not-cancellable",
      "Lines cannot be cancelled",
      `Only lines in status ${CANCELLABLE.join(", ")} can be cancelled; nothing was cancelled. Send "partial": true to cancel the others.`,
      {
        errors: blocked.map(
          (l) =>
            `line ${l.id} is ${l.status}; allowed from ${l.status}: ${(TRANSITIONS[l.status as LineStatus] ?? []).join(", ") || "none"}.`,
        ),
      },
    );
  }

  const cancelIds = toCancel.map((l) => l.id);
  const after = lines.map((l) => (cancelIds.includes(l.id) ? CANCELLED : l.status));
  const status = orderStatusOf(after);
  const eventId = cancelIds.length > 0 ? crypto.randomUUID() : null;
  const outcome: CancelOutcome = {
    orderNumber,
    status,
    cancelledLineIds: cancelIds,
    notCancelled: blocked.map((l) => ({ lineId: l.id, statusName: l.status as LineStatus })),
    eventId,
  };
  const also = commitWith ? commitWith(outcome) : [];
  const at = now.toISOString();
  const statements: BatchItem<"sqlite">[] = cancelIds.length
    ? [
        // Aborts the batch unless every line to cancel is still cancellable (NOT NULL fails on the inserted NULL).
        db
          .insert(writePreconditions)
          .select(
            sql`select null where (select count(*) from ${orderLines} where ${inArray(orderLines.id, cancelIds)} and ${inArray(orderLines.statusName, CANCELLABLE)}) <> ${cancelIds.length}`,
          ),
        db.update(orderLines).set({ statusName: CANCELLED }).where(inArray(orderLines.id, cancelIds)),
        db.update(orders).set({ status, updatedAt: at }).where(eq(orders.id, order.id)),
        db.insert(outboxEvents).values({
          id: eventId!,
          type: ORDER_CANCELLED_EVENT,
          tenantId,
          aggregateId: orderNumber,
          payload: { orderNumber, status, cancelledLineIds: cancelIds, reason: request.reason ?? null, cancelledAt: at },
          createdAt: at,
        }),
        ...also,
      ]
    : [...also];
  if (statements.length > 0) {
    try {
      await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } catch (err) {
      if (String((err as Error)?.message ?? err).includes("write_preconditions")) {
        throw new ProblemError(
          409,
          "order-changed",
          "Order changed",
          "The order changed while it was being cancelled; nothing was cancelled. Retry.",
        );
      }
      throw err;
    }
  }
  return outcome;
}
