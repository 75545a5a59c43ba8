import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { invoiceLines, invoices, orders } from "../../db/schema";
import { notFound } from "../../platform/errors";
import { centsToText } from "../../platform/money";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { invoiceMatchStatus, type MatchStatus } from "./match";
import { invoiceSearch } from "./search-fields";

/** Invoices and credit memos as the buyer and their vendor read them (docs/api.md, "Invoices"). */

const creditedCents = sql<number>`(select coalesce(sum(c.total_cents), 0) from ${invoices} c where c.credited_invoice_id = ${invoices.id} and c.kind = 'credit_memo')`;
const creditedNumber = sql<string | null>`(select c.number from ${invoices} c where c.id = ${invoices.creditedInvoiceId})`;

const documentColumns = {
  id: invoices.id,
  kind: invoices.kind,
  number: invoices.number,
  orderNumber: orders.orderNumber,
  vendorId: invoices.vendorId,
  invoiceDate: invoices.invoiceDate,
  createdAt: invoices.createdAt,
  updatedAt: invoices.updatedAt,
  currency: invoices.currency,
  subtotalCents: invoices.subtotalCents,
  taxCents: invoices.taxCents,
  freightCents: invoices.freightCents,
  totalCents: invoices.totalCents,
  status: invoices.status,
  statusReason: invoices.statusReason,
  creditedInvoiceId: invoices.creditedInvoiceId,
  origin: invoices.origin,
  creditedInvoiceNumber: creditedNumber,
  creditedCents,
};

const lineColumns = {
  invoiceId: invoiceLines.invoiceId,
  lineNumber: invoiceLines.lineNumber,
  orderLineId: invoiceLines.orderLineId,
  creditedLineNumber: invoiceLines.creditedLineNumber,
  partNumber: invoiceLines.partNumber,
  description: invoiceLines.description,
  quantity: invoiceLines.quantity,
  unitPriceCents: invoiceLines.unitPriceCents,
  amountCents: invoiceLines.amountCents,
  taxCents: invoiceLines.taxCents,
  matchStatus: invoiceLines.matchStatus,
  matchExplanation: invoiceLines.matchExplanation,
};

const documentsQuery = (db: Database) => db.select(documentColumns).from(invoices).innerJoin(orders, eq(orders.id, invoices.orderId));
const linesQuery = (db: Database) => db.select(lineColumns).from(invoiceLines);
export type DocumentRow = Awaited<ReturnType<typeof documentsQuery>>[number];
export type LineRow = Awaited<ReturnType<typeof linesQuery>>[number];

function lineView(line: LineRow) {
  return {
    lineNumber: line.lineNumber,
    lineId: line.orderLineId,
    creditedLineNumber: line.creditedLineNumber,
    partNumber: line.partNumber,
    description: line.description,
    quantity: line.quantity,
    unitPrice: centsToText(line.unitPriceCents),
    amount: centsToText(line.amountCents),
    tax: centsToText(line.taxCents),
    matchStatus: line.matchStatus as MatchStatus | null,
    matchExplanation: line.matchExplanation,
  };
}

export function documentView(row: DocumentRow, lines: readonly LineRow[]) {
  const invoice = row.kind === "invoice";
  const own = lines.filter((line) => line.invoiceId === row.id);
  return {
    invoiceId: row.id,
    kind: row.kind as "invoice" | "credit_memo",
    invoiceNumber: row.number,
    orderNumber: row.orderNumber,
    vendorId: row.vendorId,
    invoiceDate: row.invoiceDate,
    receivedAt: row.createdAt,
    lastUpdated: row.updatedAt,
    currency: row.currency,
    subtotal: centsToText(row.subtotalCents),
    tax: centsToText(row.taxCents),
    freight: centsToText(row.freightCents),
    total: centsToText(row.totalCents),
    status: row.status,
    statusReason: row.statusReason,
    matchStatus: invoice ? invoiceMatchStatus(own.map((line) => ({ status: line.matchStatus as MatchStatus }))) : null,
    credited: invoice ? centsToText(row.creditedCents) : null,
    creditedInvoiceId: row.creditedInvoiceId,
    creditedInvoiceNumber: row.creditedInvoiceNumber,
    origin: row.origin as "core_charge" | "late_fee" | null,
    lines: own.map(lineView),
  };
}

export type InvoiceRecord = ReturnType<typeof documentView>;

/** A page of documents, each with its lines (its match is per line): one round trip. */
async function documents(db: Database, where: SQL, page: Page, orderBy: SQL[]) {
  const pageIds = db
    .select({ id: invoices.id })
    .from(invoices)
    .where(where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset);
  const pageLines = linesQuery(db)
    .where(sql`${invoiceLines.invoiceId} in ${pageIds}`)
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNumber));
  const { rows, total, related } = await pageWithTotal(
    db,
    documentsQuery(db)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    invoices,
    where,
    [pageLines],
  );
  return { records: rows.map((row) => documentView(row, related[0])), total };
}

/** The tenant's invoices and credit memos filtered by `q`. */
export async function searchInvoices(db: Database, tenantId: number, request: SearchRequest, page: Page) {
  const plan = planSearch(invoiceSearch, request);
  const where = and(eq(invoices.tenantId, tenantId), plan.filter)!;
  const { records, total } = await documents(db, where, page, plan.orderBy);
  return { invoices: records, pagination: paginationOf(page, total, records.length) };
}

export const invoiceNotFound = () => notFound("No invoice or credit memo with that id.");

/** One document with its lines: the tenant's (buyer) or the vendor's own; null when it is neither's. */
export async function findInvoice(db: Database, owner: { tenantId: number } | { vendorId: number; sandbox?: boolean }, id: number) {
  const scope =
    "tenantId" in owner
      ? eq(invoices.tenantId, owner.tenantId)
      : and(eq(invoices.vendorId, owner.vendorId), owner.sandbox ? sql`${invoices.tenantId} < 0` : sql`${invoices.tenantId} > 0`);
  const { records } = await documents(db, and(eq(invoices.id, id), scope)!, { limit: 1, offset: 0 }, [asc(invoices.id)]);
  return records[0] ?? null;
}
