import { and, desc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { orderLineRevisions, orderLines, orders } from "../../db/schema";
import { notFound, ProblemError } from "../../platform/errors";
import { type InvoicingRows, invoicingOf, invoicingReads, rematchAfter } from "../invoices/invoicing";
import { commitOrderChange, orderLineStates, orderTotalUpkeep } from "../orders/changes";
import { canMove, type LineStatus, type OrderStatus, orderStatusOf } from "../orders/lifecycle";
import { changeOf, type LineFieldChange, proposalChange } from "../orders/line-history";
import { applyProposal } from "./confirm";

/**
 * The buyer's answer to a vendor's change of a line (docs/api.md, "Confirmations"): accepting applies the proposal (its
 * price, quantity, product, date) and the line is Acknowledged; declining cancels the line, since the vendor said it
 * cannot supply it as ordered. Each commits as an order change, with the line's revision and an event. Answering again
 * what was already answered changes nothing (a retry), like a vendor's repeated move.
 */

export type Decision = "accept" | "decline";

export interface DecisionOutcome {
  orderNumber: string;
  lineId: number;
  lineStatus: LineStatus;
  orderStatus: OrderStatus;
  eventId: string | null;
  /** Every event written: the answer's, then those of invoices an accepted price matched again. */
  eventIds: string[];
}

const CODES: Record<Decision, string> = { accept: "accept-change", decline: "decline-change" };

export const lineOfOrderNotFound = () => notFound("This tenant has no order with that number, or the order has no line with that id.");

export async function decideChange(
  db: Database,
  tenantId: number,
  orderNumber: string,
  lineId: number,
  decision: Decision,
  { reason, proposedAt }: { reason: string | null; proposedAt?: string | undefined },
  now = new Date(),
): Promise<DecisionOutcome> {
  const thisLine = and(eq(orderLines.id, lineId), eq(orders.orderNumber, orderNumber), eq(orders.tenantId, tenantId));
  const orderOfLine = sql<number>`(select ${orderLines.orderId} from ${orderLines} join ${orders} on ${orders.id} = ${orderLines.orderId} where ${thisLine})`;
  const vendorOfLine = sql<number>`(select ${orderLines.vendorId} from ${orderLines} where ${orderLines.id} = ${lineId})`;
  const [found, states, latest, ...invoicingRows] = await db.batch([
    db
      .select({
        id: orderLines.id,
        status: orderLines.statusName,
        quantity: orderLines.quantity,
        priceCents: orderLines.priceCents,
        partNumber: orderLines.partNumber,
        description: orderLines.description,
        promisedShipDate: orderLines.promisedShipDate,
        proposedChange: orderLines.proposedChange,
        orderId: orderLines.orderId,
        vendorId: orderLines.vendorId,
        version: orders.version,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(thisLine),
    orderLineStates(
      db,
      sql<number>`(select ${orderLines.orderId} from ${orderLines} join ${orders} on ${orders.id} = ${orderLines.orderId} where ${thisLine})`,
    ),
    db
      .select({ code: orderLineRevisions.code, actor: orderLineRevisions.actor })
      .from(orderLineRevisions)
      .where(
        eq(
          orderLineRevisions.lineId,
          sql`(select ${orderLines.id} from ${orderLines} join ${orders} on ${orders.id} = ${orderLines.orderId} where ${thisLine})`,
        ),
      )
      .orderBy(desc(orderLineRevisions.revision))
      .limit(1),
    // The vendor's invoices on the order: an accepted price matches them again.
    ...invoicingReads(db, vendorOfLine, orderOfLine),
  ]);
  const line = found[0];
  if (!line) throw lineOfOrderNotFound();
  const proposal = line.proposedChange;
  if (proposedAt !== undefined && proposal && Date.parse(proposal.proposedAt) !== Date.parse(proposedAt)) {
    throw new ProblemError(
      409,
      "change-superseded",
      "Change superseded",
      `The vendor replaced the change proposed at ${proposedAt} with the one proposed at ${proposal.proposedAt}: read the line's pendingChange and answer it.`,
    );
  }
  if (!proposal) {
    if (latest[0]?.actor === "buyer" && latest[0].code === CODES[decision]) {
      return {
        orderNumber,
        lineId,
        lineStatus: line.status as LineStatus,
        orderStatus: orderStatusOf(states),
        eventId: null,
        eventIds: [],
      };
    }
    throw new ProblemError(
      409,
      "no-change-pending",
      "No change to answer",
      `Line ${lineId} has no change of its vendor waiting for an answer.`,
    );
  }
  const at = now.toISOString();
  const changes: LineFieldChange[] = [proposalChange(proposal, null)];
  let status: LineStatus;
  let set: Partial<typeof orderLines.$inferInsert>;
  if (decision === "accept") {
    const applied = applyProposal(line, proposal);
    changes.push(...applied.changed);
    status = canMove(line.status, "Acknowledged") ? "Acknowledged" : (line.status as LineStatus);
    set = { ...applied.set, statusName: status, statusReason: null };
  } else {
    status = "Cancelled";
    set = { proposedChange: null, statusName: status, statusReason: reason ? `Change declined: ${reason}` : "Change declined" };
  }
  changes.push(...changeOf("status", line.status as LineStatus, status));
  const statements: BatchItem<"sqlite">[] = [db.update(orderLines).set(set).where(eq(orderLines.id, lineId))];
  if (set.extendedPriceCents !== undefined) statements.push(orderTotalUpkeep(db, line.orderId));
  const invoicing = invoicingOf(line.vendorId, invoicingRows as InvoicingRows);
  const rematch = rematchAfter(
    db,
    invoicing,
    set.priceCents === undefined ? new Map() : new Map([[lineId, { priceCents: set.priceCents }]]),
    at,
  );
  statements.push(...rematch.statements);
  const outcome = await commitOrderChange(db, {
    order: { id: line.orderId, tenantId, orderNumber, version: line.version, lines: states },
    lineChanges: new Map([[lineId, { status }]]),
    statements,
    revisions: [{ lineId, actor: "buyer", actorId: null, code: CODES[decision], changes, note: reason }],
    moreEvents: rematch.events,
    event: {
      type: decision === "accept" ? "order.change_accepted" : "order.change_declined",
      payload: { lineId, lineStatus: status, at, code: proposal.code, reason },
    },
    at: now,
  });
  return { orderNumber, lineId, lineStatus: status, orderStatus: outcome.status, eventId: outcome.eventId, eventIds: outcome.eventIds };
}
