import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { orderLines, orders } from "../../db/schema";
import { ProblemError, ValidationError } from "../../platform/errors";
import type { OrderChangePayload } from "../events/schemas";
import type { EventType } from "../events/types";
import { commitOrderChange, type OrderLineState, orderLineStates, statusAfter } from "./changes";
import { canMove, isWithdrawn, type LineStatus, type OrderStatus, TRANSITIONS } from "./lifecycle";
import { changeOf } from "./line-history";
import { orderNotFound } from "./search";

export const ORDER_CANCELLED_EVENT = "order.cancelled" satisfies EventType;
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
 * 409 naming them unless `partial`; cancelled or rejected lines are left as they are. The change commits as every
 * order change does (src/api/orders/changes.ts), with the idempotent result in the same batch: if the order changed
 * since it was read (a vendor shipped a line meanwhile), 409 and a retry reads afresh.
 */
export async function cancelOrder(
  db: Database,
  tenantId: number,
  orderNumber: string,
  request: CancelRequest,
  { commitWith, now: stampedAt }: CancelOptions = {},
): Promise<CancelOutcome> {
  // The order and its lines in one round trip (the lines found through the same tenant-scoped order number).
  const thisOrder = and(eq(orders.tenantId, tenantId), eq(orders.orderNumber, orderNumber));
  const [found, lines] = await db.batch([
    db.select({ id: orders.id, version: orders.version }).from(orders).where(thisOrder),
    orderLineStates(db, sql<number>`(select ${orders.id} from ${orders} where ${thisOrder})`),
  ]);
  const order = found[0];
  if (!order) throw orderNotFound();
  // Stamped after the read: a change that commits after another is never stamped before it.
  const now = stampedAt ?? new Date();

  const known = new Set(lines.map((l) => l.id));
  const unknown = (request.lineIds ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0) throw new ValidationError({ lineIds: [`Not lines of order ${orderNumber}: ${unknown.join(", ")}.`] });
  const wanted = request.lineIds ? new Set(request.lineIds) : known;
  const targets = lines.filter((l) => wanted.has(l.id));
  // A line of which some has shipped cannot be cancelled: what shipped is on its way.
  const toCancel = targets.filter((l) => canMove(l.status, CANCELLED) && l.shippedQuantity === 0);
  const blocked = targets.filter((l) => !toCancel.includes(l) && !isWithdrawn(l.status));
  if (blocked.length > 0 && !request.partial) {
    throw new ProblemError(
      409,
      "lines-not-cancellable",
      "Lines cannot be cancelled",
      `Only lines in status ${CANCELLABLE.join(", ")} of which nothing has shipped can be cancelled; nothing was cancelled. Send "partial": true to cancel the others.`,
      { errors: blocked.map(notCancellableReason) },
    );
  }

  const cancelIds = toCancel.map((l) => l.id);
  const snapshot = { id: order.id, tenantId, orderNumber, version: order.version, lines };
  const lineChanges = new Map(cancelIds.map((id) => [id, { status: CANCELLED }]));
  const outcome: CancelOutcome = {
    orderNumber,
    status: statusAfter(snapshot, lineChanges),
    cancelledLineIds: cancelIds,
    notCancelled: blocked.map((l) => ({ lineId: l.id, statusName: l.status as LineStatus })),
    eventId: null,
  };
  if (cancelIds.length === 0) {
    // Nothing to change: only the idempotent result, if any, is recorded.
    const also = commitWith ? commitWith(outcome) : [];
    if (also.length > 0) await db.batch(also as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return outcome;
  }
  const eventId = crypto.randomUUID();
  const committed = { ...outcome, eventId };
  await commitOrderChange(db, {
    order: snapshot,
    lineChanges,
    statements: [
      db
        .update(orderLines)
        .set({ statusName: CANCELLED, statusReason: request.reason ?? null, proposedChange: null })
        .where(inArray(orderLines.id, cancelIds)),
    ],
    revisions: toCancel.map((line) => ({
      lineId: line.id,
      actor: "buyer" as const,
      actorId: null,
      code: "cancel",
      changes: changeOf("status", line.status as LineStatus, CANCELLED),
      note: request.reason ?? null,
    })),
    event: {
      type: ORDER_CANCELLED_EVENT,
      payload: {
        cancelledLineIds: cancelIds,
        reason: request.reason ?? null,
        cancelledAt: now.toISOString(),
      } satisfies OrderChangePayload<typeof ORDER_CANCELLED_EVENT>,
    },
    at: now,
    eventId,
    also: commitWith ? commitWith(committed) : [],
  });
  return committed;
}

function notCancellableReason(line: OrderLineState): string {
  if (line.shippedQuantity > 0 && canMove(line.status, CANCELLED))
    return `line ${line.id} is ${line.status} and ${line.shippedQuantity} of it has shipped.`;
  const allowed = TRANSITIONS[line.status as LineStatus] ?? [];
  return `line ${line.id} is ${line.status}; allowed from ${line.status}: ${allowed.join(", ") || "none"}.`;
}
