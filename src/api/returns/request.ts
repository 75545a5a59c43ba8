import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, orders, unitReturns } from "../../db/schema";
import { notFound, ProblemError, ValidationError } from "../../platform/errors";
import { commitOrderChange, orderLineStates } from "../orders/changes";
import { patchNewReturnId, returnPayload } from "./returns";
import { STEPS } from "./steps";

/**
 * The buyer's request to return delivered units of a line bought outright (docs/api.md, "Returns"). Never more than was
 * delivered, across every request of the line that the vendor has not declined: the request commits as a change of the
 * order, so of two at once one wins and the other retries against the first (409 order-changed). The Idempotency-Key
 * is kept with the return: a retry with it answers the same return, even when both were sent at once.
 */

export const RETURN_REASONS = ["wrong_part", "dead_on_arrival", "damaged", "not_needed", "recall"] as const;

export interface ReturnRequest {
  quantity: number;
  reason: (typeof RETURN_REASONS)[number];
  note?: string | undefined;
}

export interface RequestOutcome {
  returnId: number;
  created: boolean;
  eventIds: string[];
}

const lineNotFound = () => notFound("This tenant has no order with that number, or the order has no line with that id.");

/** The return this key already made, if any: the same request again (answered) or another one (409). */
async function byKey(db: Database, tenantId: number, key: string, lineId: number, request: ReturnRequest) {
  const [found] = await db
    .select({ id: unitReturns.id, lineId: unitReturns.lineId, quantity: unitReturns.quantity, reason: unitReturns.reason })
    .from(unitReturns)
    .where(and(eq(unitReturns.tenantId, tenantId), eq(unitReturns.requestKey, key)));
  if (!found) return null;
  if (found.lineId !== lineId || found.quantity !== request.quantity || found.reason !== request.reason) {
    throw new ProblemError(
      409,
      "idempotency-key-reused",
      "Idempotency-Key reused",
      "This Idempotency-Key already requested another return.",
    );
  }
  return { returnId: found.id, created: false, eventIds: [] } satisfies RequestOutcome;
}

export async function requestReturn(
  db: Database,
  tenantId: number,
  orderNumber: string,
  lineId: number,
  request: ReturnRequest,
  key: string,
  now = new Date(),
): Promise<RequestOutcome> {
  const again = await byKey(db, tenantId, key, lineId, request);
  if (again) return again;
  const thisLine = and(eq(orderLines.id, lineId), eq(orders.orderNumber, orderNumber), eq(orders.tenantId, tenantId));
  const [found, states] = await db.batch([
    db
      .select({
        id: orderLines.id,
        status: orderLines.statusName,
        shippedQuantity: orderLines.shippedQuantity,
        purchaseType: orderLines.purchaseType,
        vendorId: orderLines.vendorId,
        orderId: orderLines.orderId,
        facilityId: orders.facilityId,
        version: orders.version,
        requested: sql<number>`(select coalesce(sum(${unitReturns.quantity}), 0) from ${unitReturns} where ${unitReturns.lineId} = ${orderLines.id} and ${unitReturns.kind} = 'rma' and ${unitReturns.status} != 'declined')`,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(thisLine),
    orderLineStates(
      db,
      sql<number>`(select ${orderLines.orderId} from ${orderLines} join ${orders} on ${orders.id} = ${orderLines.orderId} where ${thisLine})`,
    ),
  ]);
  const line = found[0];
  if (!line) throw lineNotFound();
  if (line.status !== "Delivered") {
    throw new ProblemError(409, "not-delivered", "Not delivered", `Line ${lineId} is ${line.status}: only delivered units are returned.`);
  }
  if (line.purchaseType !== "buy") {
    throw new ProblemError(
      422,
      "not-bought-outright",
      "Not bought outright",
      `Line ${lineId} was bought on ${line.purchaseType}: its unit goes back as its ${line.purchaseType === "repair" ? "repair" : "core or loaner"} says, not as a return.`,
    );
  }
  const left = line.shippedQuantity - line.requested;
  if (request.quantity > left) {
    throw new ValidationError({
      quantity: [
        `At most ${left} of line ${lineId} can be returned: ${line.shippedQuantity} delivered, ${line.requested} already in returns.`,
      ],
    });
  }
  const at = now.toISOString();
  const row = {
    tenantId,
    orderId: line.orderId,
    lineId,
    vendorId: line.vendorId,
    facilityId: line.facilityId,
    kind: "rma" as const,
    status: STEPS.rma.request!.to,
    quantity: request.quantity,
    reason: request.reason,
    note: request.note ?? null,
    requestKey: key,
    createdAt: at,
    updatedAt: at,
  };
  const eventId = crypto.randomUUID();
  try {
    const outcome = await commitOrderChange(db, {
      order: { id: line.orderId, tenantId, orderNumber, version: line.version, lines: states },
      lineChanges: new Map(),
      statements: [db.insert(unitReturns).values(row)],
      event: {
        type: STEPS.rma.request!.event,
        payload: { ...returnPayload({ ...row, id: 0 } as typeof unitReturns.$inferSelect, row.status, at), reason: request.reason },
      },
      eventIds: [eventId],
      also: [
        patchNewReturnId(db, [eventId], lineId),
        db
          .select({ id: unitReturns.id })
          .from(unitReturns)
          .where(and(eq(unitReturns.tenantId, tenantId), eq(unitReturns.requestKey, key))),
      ],
      at: now,
    });
    const [written] = outcome.alsoResults[1] as { id: number }[];
    return { returnId: written!.id, created: true, eventIds: outcome.eventIds };
  } catch (error) {
    // The same key sent twice at once: the second's batch fails on the key's unique index (or the order's version).
    const answered = await byKey(db, tenantId, key, lineId, request);
    if (answered) return answered;
    throw error;
  }
}
