import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { invoiceLines, invoices, outboxEvents } from "../../db/schema";
import { centsToText } from "../../platform/money";
import { CURRENCY } from "../invoices/invoicing";
import type { ReturnRead } from "./returns";

/**
 * A late or refused unit billed (docs/api.md, "Cores and loaners"): an invoice of the vendor to the buyer that
 * Medparts writes at the terms the buyer was quoted, one line linked to the order line. Its `origin` says what it bills;
 * it is not matched against the order's receipts (the three-way match is for goods), and is born matched: the charge is
 * exactly what the quote promised. The buyer accepts or disputes it like any invoice.
 */

export type ChargeOrigin = "core_charge" | "late_fee";

export interface Charge {
  origin: ChargeOrigin;
  quantity: number;
  unitPriceCents: number;
  description: string;
  explanation: string;
}

/**
 * The invoice's number: `MP:`, the return's RMA number and what it bills. No vendor's own number has a colon
 * (src/api/invoices/schemas.ts), so a vendor can never take it first.
 */
const chargeNumber = (read: ReturnRead, origin: ChargeOrigin) =>
  `MP:${read.row.rmaNumber ?? `R${read.row.id}`}:${origin === "core_charge" ? "CORE" : "LATE"}`;

/** The charge's invoice, its line, the return's link to it; and a patch of the charged event with the invoice id. */
export function chargeWrites(db: Database, read: ReturnRead, charge: Charge, at: string) {
  const number = chargeNumber(read, charge.origin);
  const amountCents = charge.quantity * charge.unitPriceCents;
  const key = and(
    eq(invoices.tenantId, read.row.tenantId),
    eq(invoices.vendorId, read.row.vendorId),
    eq(invoices.kind, "invoice"),
    eq(invoices.number, number),
  );
  const invoiceId = sql<number>`(select ${invoices.id} from ${invoices} where ${key})`;
  const statements: BatchItem<"sqlite">[] = [
    db.insert(invoices).values({
      tenantId: read.row.tenantId,
      vendorId: read.row.vendorId,
      orderId: read.row.orderId,
      kind: "invoice",
      number,
      origin: charge.origin,
      invoiceDate: at.slice(0, 10),
      currency: CURRENCY,
      subtotalCents: amountCents,
      taxCents: 0,
      freightCents: 0,
      totalCents: amountCents,
      status: "matched",
      bodyDigest: `${charge.origin}:${read.row.id}`,
      createdAt: at,
      updatedAt: at,
    }),
    db.insert(invoiceLines).values({
      invoiceId,
      lineNumber: 1,
      orderLineId: read.row.lineId,
      partNumber: read.partNumber,
      description: charge.description,
      quantity: charge.quantity,
      unitPriceCents: charge.unitPriceCents,
      amountCents,
      taxCents: 0,
      matchStatus: "matched",
      matchExplanation: charge.explanation,
    }),
  ];
  return {
    amountCents,
    set: { billedCents: amountCents, invoiceId },
    payload: { amount: centsToText(amountCents) },
    statements,
    /** The charged event (`eventId`) names its invoice, whose id the database gives. */
    patch: (eventId: string) =>
      db
        .update(outboxEvents)
        .set({ payload: sql`json_set(${outboxEvents.payload}, '$.invoiceId', ${invoiceId})` })
        .where(inArray(outboxEvents.id, [eventId])),
  };
}
