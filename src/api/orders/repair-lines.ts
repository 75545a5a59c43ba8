import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, orders, unitReturns } from "../../db/schema";

/** The status of a repair's unit until the buyer sends it in (src/api/returns/steps.ts goes on from there). */
export const REPAIR_OPENED_STATUS = "awaiting_unit";

/**
 * An order's repair lines each open their unit's return when the order is written, in its batch
 * (docs/api.md, "Repairs"): one unit, its serial and reason, the flat rate, where it goes in.
 */
export function openRepairReturns(db: Database, orderId: SQL, at: string) {
  return db.insert(unitReturns).select(
    db
      .select({
        id: sql`null`.as("id"),
        tenantId: orders.tenantId,
        orderId: orderLines.orderId,
        lineId: sql`${orderLines.id}`.as("line_id"),
        vendorId: orderLines.vendorId,
        facilityId: orders.facilityId,
        kind: sql`'repair'`.as("kind"),
        status: sql`${REPAIR_OPENED_STATUS}`.as("status"),
        quantity: sql`1`.as("quantity"),
        rmaNumber: sql`null`.as("rma_number"),
        reason: sql`${orderLines.repair} ->> 'reason'`.as("reason"),
        note: sql`${orderLines.repair} ->> 'description'`.as("note"),
        serial: sql`${orderLines.repair} ->> 'serialNumber'`.as("serial"),
        dueAt: sql`null`.as("due_at"),
        returnTo: sql`${orderLines.purchaseTerms} ->> 'returnTo'`.as("return_to"),
        chargeCents: orderLines.priceCents,
        proposedPriceCents: sql`null`.as("proposed_price_cents"),
        billedCents: sql`null`.as("billed_cents"),
        invoiceId: sql`null`.as("invoice_id"),
        inbound: sql`null`.as("inbound"),
        outbound: sql`null`.as("outbound"),
        receivedAt: sql`null`.as("received_at"),
        outcome: sql`null`.as("outcome"),
        outcomeReason: sql`null`.as("outcome_reason"),
        dueSoonAt: sql`null`.as("due_soon_at"),
        requestKey: sql`null`.as("request_key"),
        createdAt: sql`${at}`.as("created_at"),
        updatedAt: sql`${at}`.as("updated_at"),
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(sql`${orderLines.orderId} = ${orderId} and ${orderLines.purchaseType} = 'repair'`),
  );
}
