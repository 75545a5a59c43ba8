import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { invoiceLines, invoices, orderLines, orders, purchasingSettings } from "../../db/schema";
import { centsToText, MARKET_CURRENCY } from "../../platform/money";
import type { EventData } from "../events/schemas";
import type { EventType } from "../events/types";
import { orderLineStates } from "../orders/changes";
import { settingsOf } from "../purchasing/settings";
import {
  invoiceMatchStatus,
  type LineMatch,
  type MatchedCreditLine,
  type MatchedInvoice,
  type MatchedOrderLine,
  matchInvoices,
} from "./match";

/**
 * What the three-way match of an order's invoices reads, and what it writes when the order or its documents change
 * (docs/api.md, "Invoices"): a new invoice or credit memo (src/api/invoices/submit.ts), a parcel shipped
 * (src/api/vendors/fulfilment.ts), a price or quantity change accepted (src/api/confirmations). Every such change reads
 * the vendor's documents on the order in its one read batch and writes their new matches, and the events of the
 * invoices whose status changes, in its one commit: so the match never depends on the order in which things arrived.
 */

/** The currency of every order, and of the documents that bill one: the market's. */
export const CURRENCY = MARKET_CURRENCY;

/** What a document of the vendor on the order `orderRef` selects is matched with: one batch. */
export function invoicingReads(db: Database, vendorId: number | SQL<number>, orderRef: SQL<number>) {
  return [
    db
      .select({ id: orders.id, tenantId: orders.tenantId, orderNumber: orders.orderNumber, version: orders.version })
      .from(orders)
      .where(eq(orders.id, orderRef)),
    orderLineStates(db, orderRef),
    db
      .select({
        id: orderLines.id,
        priceCents: orderLines.priceCents,
        contractPriceCents: orderLines.contractPriceCents,
        shippedQuantity: orderLines.shippedQuantity,
      })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, orderRef), eq(orderLines.vendorId, vendorId))),
    db
      .select({
        id: invoices.id,
        kind: invoices.kind,
        number: invoices.number,
        status: invoices.status,
        creditedInvoiceId: invoices.creditedInvoiceId,
        origin: invoices.origin,
        totalCents: invoices.totalCents,
        freightCents: invoices.freightCents,
        lineNumber: invoiceLines.lineNumber,
        orderLineId: invoiceLines.orderLineId,
        creditedLineNumber: invoiceLines.creditedLineNumber,
        quantity: invoiceLines.quantity,
        unitPriceCents: invoiceLines.unitPriceCents,
        amountCents: invoiceLines.amountCents,
        taxCents: invoiceLines.taxCents,
        matchStatus: invoiceLines.matchStatus,
        matchExplanation: invoiceLines.matchExplanation,
      })
      .from(invoices)
      .leftJoin(invoiceLines, eq(invoiceLines.invoiceId, invoices.id))
      .where(and(eq(invoices.orderId, orderRef), eq(invoices.vendorId, vendorId)))
      .orderBy(invoices.id, invoiceLines.lineNumber),
    db
      .select()
      .from(purchasingSettings)
      .where(eq(purchasingSettings.tenantId, sql`(select ${orders.tenantId} from ${orders} where ${orders.id} = ${orderRef})`)),
  ] as const;
}

type Reads = ReturnType<typeof invoicingReads>;
/** What the reads of `invoicingReads` answer, in order. */
export type InvoicingRows = [Rows<0>, Rows<1>, Rows<2>, Rows<3>, Awaited<Reads[4]>];
type Rows<I extends number> = Awaited<Reads[I]>;

export interface Invoicing {
  vendorId: number;
  order: Rows<0>[number];
  states: Rows<1>;
  vendorLines: Rows<2>;
  documents: {
    id: number;
    kind: string;
    number: string;
    status: string;
    creditedInvoiceId: number | null;
    totalCents: number;
    freightCents: number;
    lines: Rows<3>;
  }[];
  settings: ReturnType<typeof settingsOf>;
}

export function invoicingOf(vendorId: number, [order, states, vendorLines, documentRows, settings]: InvoicingRows): Invoicing | null {
  if (!order[0]) return null;
  const documents = new Map<number, Invoicing["documents"][number]>();
  for (const row of documentRows) {
    // A charge Medparts wrote for a unit's return (src/api/returns/charges.ts) bills no goods: it takes no part in the match.
    if (row.origin !== null) continue;
    let document = documents.get(row.id);
    if (!document) {
      document = { ...row, lines: [] };
      documents.set(row.id, document);
    }
    if (row.lineNumber !== null) document.lines.push(row);
  }
  return { vendorId, order: order[0], states, vendorLines, documents: [...documents.values()], settings: settingsOf(settings[0]) };
}

/**
 * The match of every invoice of the vendor on the order, with a document about to be added (id 0) among them, and the
 * order's lines as the change being committed leaves them (`lines`: a parcel shipped, a price accepted).
 */
export function matchAll(
  invoicing: Invoicing,
  added: { invoice?: MatchedInvoice; credits?: MatchedCreditLine[] },
  lines: ReadonlyMap<number, Partial<MatchedOrderLine>> = new Map(),
) {
  const existing = invoicing.documents.filter((d) => d.kind === "invoice");
  const matched: MatchedInvoice[] = existing.map((d) => ({
    id: d.id,
    lines: d.lines.map((l) => ({
      lineNumber: l.lineNumber!,
      orderLineId: l.orderLineId,
      quantity: l.quantity!,
      unitPriceCents: l.unitPriceCents!,
      amountCents: l.amountCents!,
    })),
  }));
  if (added.invoice) matched.push(added.invoice);
  const credits: MatchedCreditLine[] = invoicing.documents
    .filter((d) => d.kind === "credit_memo")
    .flatMap((d) =>
      d.lines.map((l) => ({
        invoiceId: d.creditedInvoiceId!,
        creditedLineNumber: l.creditedLineNumber!,
        quantity: l.quantity!,
        amountCents: l.amountCents!,
      })),
    );
  credits.push(...(added.credits ?? []));
  const orderLines = invoicing.vendorLines.map((line) => ({ ...line, ...lines.get(line.id) }));
  return matchInvoices(invoicing.order.orderNumber, orderLines, matched, credits, invoicing.settings);
}

/** An invoice whose buyer has decided keeps the decision; the others take their match's status. */
const statusAfterMatch = (current: string, matches: readonly LineMatch[]) =>
  current === "accepted" || current === "disputed" ? current : invoiceMatchStatus(matches);

export interface EventToWrite {
  type: EventType;
  payload: Record<string, unknown>;
}

/**
 * The earlier invoices whose lines' matches change with the new document: an update of their lines (one statement) and
 * statuses, and an invoice.matched or invoice.exception event for each whose status changes.
 */
export function rematchStatements(db: Database, invoicing: Invoicing, matches: Map<number, LineMatch[]>, at: string) {
  const statements: BatchItem<"sqlite">[] = [];
  const events: EventToWrite[] = [];
  const changedLines: ChangedLineMatch[] = [];
  for (const document of invoicing.documents) {
    const lines = matches.get(document.id);
    if (document.kind !== "invoice" || !lines) continue;
    for (const match of lines) {
      const row = document.lines.find((l) => l.lineNumber === match.lineNumber);
      if (row?.matchStatus !== match.status || row.matchExplanation !== match.explanation)
        changedLines.push({ i: document.id, n: match.lineNumber, s: match.status, e: match.explanation });
    }
    const status = statusAfterMatch(document.status, lines);
    if (status !== document.status) {
      statements.push(db.update(invoices).set({ status, updatedAt: at }).where(eq(invoices.id, document.id)));
      events.push(invoiceEvent(status === "matched" ? "invoice.matched" : "invoice.exception", invoicing, document, status, lines));
    }
  }
  if (changedLines.length > 0) statements.push(lineMatchesUpdate(db, changedLines));
  return { statements, events };
}

/** An invoice line's new match: invoice id, line number, status, explanation (short keys: one JSON parameter holds them all). */
export interface ChangedLineMatch {
  i: number;
  n: number;
  s: string;
  e: string;
}

/**
 * Writes the changed lines' matches in one statement driven by the list: each line found by its primary key. A statement
 * that tested every row of invoice_lines against the list cost rows x changes, which grew with every invoice anyone sent.
 */
export function lineMatchesUpdate(db: Database, changed: readonly ChangedLineMatch[]) {
  const rows = sql`(select value ->> 'i' as i, value ->> 'n' as n, value ->> 's' as s, value ->> 'e' as e from json_each(${JSON.stringify(changed)})) as changed`;
  return db
    .update(invoiceLines)
    .set({ matchStatus: sql`changed.s`, matchExplanation: sql`changed.e` })
    .from(rows)
    .where(and(eq(invoiceLines.invoiceId, sql`changed.i`), eq(invoiceLines.lineNumber, sql`changed.n`)));
}

export function invoiceEvent(
  type: EventType,
  invoicing: Invoicing,
  document: { id: number; number: string; totalCents: number },
  status: string,
  lines: readonly LineMatch[],
  reason: string | null = null,
): EventToWrite {
  const payload: Omit<EventData<"invoice.matched">, "orderNumber" | "status"> = {
    invoiceId: document.id,
    invoiceNumber: document.number,
    vendorId: invoicing.vendorId,
    invoiceStatus: status,
    total: centsToText(document.totalCents),
    currency: CURRENCY,
    exceptions: lines
      .filter((l) => l.status !== "matched")
      .map((l) => ({ lineNumber: l.lineNumber, matchStatus: l.status, explanation: l.explanation })),
    reason,
  };
  return { type, payload };
}

/**
 * The statements and events of the vendor's invoices on the order once a change leaves its lines as `lines` says (a
 * parcel shipped: the receipt grows; a price accepted: the PO changes). Nothing when the order has no invoice.
 */
export function rematchAfter(db: Database, invoicing: Invoicing | null, lines: ReadonlyMap<number, Partial<MatchedOrderLine>>, at: string) {
  if (!invoicing?.documents.some((document) => document.kind === "invoice")) return { statements: [], events: [] };
  return rematchStatements(db, invoicing, matchAll(invoicing, {}, lines), at);
}
