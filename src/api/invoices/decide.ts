import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { invoiceLines, invoices, orders } from "../../db/schema";
import { ProblemError } from "../../platform/errors";
import { centsToText } from "../../platform/money";
import type { EventData } from "../events/schemas";
import { commitOrderChange, orderLineStates } from "../orders/changes";
import { invoiceNotFound } from "./views";

/**
 * The buyer's answer to an invoice (docs/api.md, "Invoices"): accept it for payment (whatever its match: the buyer may
 * accept an exception they agree with, with a note), or dispute it with a reason (again with a new reason). A disputed
 * invoice may later be accepted (the dispute settled); an accepted one is final. Each commits as an order change, with its event; answering again what
 * was already answered changes nothing (a retry).
 */

export type InvoiceDecision = "accept" | "dispute";

const TARGET = { accept: "accepted", dispute: "disputed" } as const;
const ALLOWED_FROM: Record<InvoiceDecision, readonly string[]> = {
  accept: ["matched", "exception", "disputed"],
  dispute: ["matched", "exception", "disputed"],
};

export async function decideInvoice(
  db: Database,
  tenantId: number,
  invoiceId: number,
  decision: InvoiceDecision,
  reason: string | null,
  now = new Date(),
): Promise<{ status: string; eventId: string | null }> {
  const thisInvoice = and(eq(invoices.id, invoiceId), eq(invoices.tenantId, tenantId));
  const [found, states, exceptions] = await db.batch([
    db
      .select({
        kind: invoices.kind,
        number: invoices.number,
        status: invoices.status,
        statusReason: invoices.statusReason,
        vendorId: invoices.vendorId,
        totalCents: invoices.totalCents,
        currency: invoices.currency,
        orderId: orders.id,
        orderNumber: orders.orderNumber,
        version: orders.version,
      })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(thisInvoice),
    orderLineStates(db, sql<number>`(select ${invoices.orderId} from ${invoices} where ${thisInvoice})`),
    db
      .select({ lineNumber: invoiceLines.lineNumber, matchStatus: invoiceLines.matchStatus, explanation: invoiceLines.matchExplanation })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.invoiceId, invoiceId), sql`${invoiceLines.matchStatus} <> 'matched'`))
      .orderBy(invoiceLines.lineNumber),
  ]);
  const invoice = found[0];
  if (!invoice) throw invoiceNotFound();
  if (invoice.kind !== "invoice") {
    throw new ProblemError(
      422,
      "not-an-invoice",
      "Not an invoice",
      `Document ${invoiceId} is a credit memo: only invoices are accepted or disputed.`,
    );
  }
  const target = TARGET[decision];
  // A repeat: accepting what is accepted, or disputing again for the same reason (a new reason is a new dispute).
  if (invoice.status === target && (decision === "accept" || invoice.statusReason === reason)) return { status: target, eventId: null };
  if (!ALLOWED_FROM[decision].includes(invoice.status)) {
    throw new ProblemError(
      409,
      "invalid-transition",
      "Invalid transition",
      `Invoice ${invoice.number} is ${invoice.status}: it cannot be ${target}. Allowed from ${invoice.status}: ${
        Object.entries(ALLOWED_FROM)
          .filter(([, from]) => from.includes(invoice.status))
          .map(([d]) => TARGET[d as InvoiceDecision])
          .join(", ") || "none (final)"
      }.`,
    );
  }
  const at = now.toISOString();
  const payload: Omit<EventData<"invoice.accepted">, "orderNumber" | "status"> = {
    invoiceId,
    invoiceNumber: invoice.number,
    vendorId: invoice.vendorId,
    invoiceStatus: target,
    total: centsToText(invoice.totalCents),
    currency: invoice.currency,
    exceptions: exceptions.map((line) => ({
      lineNumber: line.lineNumber,
      matchStatus: line.matchStatus ?? "",
      explanation: line.explanation ?? "",
    })),
    reason,
  };
  const outcome = await commitOrderChange(db, {
    order: { id: invoice.orderId, tenantId, orderNumber: invoice.orderNumber, version: invoice.version, lines: states },
    lineChanges: new Map(),
    statements: [db.update(invoices).set({ status: target, statusReason: reason, updatedAt: at }).where(eq(invoices.id, invoiceId))],
    event: { type: decision === "accept" ? "invoice.accepted" : "invoice.disputed", payload },
    at: now,
  });
  return { status: target, eventId: outcome.eventId };
}
