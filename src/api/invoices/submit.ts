import { and, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunk } from "../../db/bulk-insert";
import type { Database } from "../../db/client";
import { invoiceLines, invoices, orderLines, orders, outboxEvents } from "../../db/schema";
import { notFound, ProblemError, ValidationError } from "../../platform/errors";
import { canonicalJson } from "../../platform/idempotency/middleware";
import { centsToText } from "../../platform/money";
import { sha256Hex } from "../../platform/sha256";
import type { EventData } from "../events/schemas";
import { commitOrderChange } from "../orders/changes";
import { addUp, type DocumentLine, type DocumentLineInput, type DocumentTotals, type SummaryInput } from "./documents";
import {
  CURRENCY,
  type EventToWrite,
  type Invoicing,
  invoiceEvent,
  invoicingOf,
  invoicingReads,
  matchAll,
  rematchStatements,
} from "./invoicing";
import { invoiceMatchStatus, type MatchedInvoice } from "./match";
import { type DocumentRow, documentView, type InvoiceRecord } from "./views";

/** An invoice naming no line of the vendor on an order of its number (or a line no store holds). */
export const noLineOfOrder = () => notFound("The vendor has no line on an order of that number.");
/** A credit memo naming no invoice of the vendor. */
export const noInvoiceOfVendor = (byNumbers = false) =>
  notFound(byNumbers ? "The vendor has no invoice of that number on an order of that number." : "The vendor has no invoice with that id.");

/**
 * A vendor's invoices and credit memos (docs/api.md, "Invoices"). Each is a change of its order, committed as every
 * order change is (src/api/orders/changes.ts): one read of the order, its lines, the vendor's invoices and credits on
 * it and the tenant's settings, then one batch with the document, its lines, the three-way match of every invoice of
 * the vendor on the order (a new document can change an earlier one's match), and their events. Two round trips, so
 * an order that changes in between (a parcel shipped) makes the batch fail as 409 order-changed, and the retry matches
 * against what is there. A document's number is unique per vendor and buyer: sending the same document again answers
 * the first (nothing written), another document under a used number is a 409.
 */

export { CURRENCY };

export interface InvoiceLineInput extends DocumentLineInput {
  lineId?: number | undefined;
  partNumber?: string | undefined;
  description?: string | undefined;
}

export interface InvoiceInput {
  invoiceNumber: string;
  orderNumber: string;
  invoiceDate: string;
  currency: string;
  lines: InvoiceLineInput[];
  summary: SummaryInput;
}

/** A credit line names the invoice's line, or the order line the invoice bills on one line (lineId). */
export interface CreditLineInput extends DocumentLineInput {
  invoiceLineNumber?: number | undefined;
  lineId?: number | undefined;
}

/** The invoice credited: by its id, or by the vendor's numbers (the order's and the invoice's), exactly one form. */
export interface CreditMemoInput {
  creditMemoNumber: string;
  invoiceId?: number | undefined;
  orderNumber?: string | undefined;
  invoiceNumber?: string | undefined;
  creditDate: string;
  currency: string;
  reason?: string | null | undefined;
  /** Absent: the whole of what remains of the invoice is credited. */
  lines?: CreditLineInput[] | undefined;
  summary?: SummaryInput | undefined;
}

export interface SubmitOutcome {
  /** The document's id: new, or the first one's when the same document was sent again. */
  id: number;
  created: boolean;
  eventIds: string[];
  /** The new document as both sides read it (built from what was written: no read after the write); null for a repeat. */
  record: InvoiceRecord | null;
}

/** Vendors invoice live orders; the sandbox's simulated vendor, test-mode ones (a sandbox twin's, tenant id < 0). */
const kindOf = (sandbox: boolean) => (sandbox ? lt(orders.tenantId, 0) : gt(orders.tenantId, 0));

/** A document under a number already used: the same document again answers the first; another is a 409. */
function usedNumber(kind: string, number: string) {
  return new ProblemError(
    409,
    "document-number-used",
    "Number already used",
    `This vendor already sent this buyer a different ${kind === "invoice" ? "invoice" : "credit memo"} numbered ${number}; a number names one document.`,
  );
}

/** What names a document: its buyer, its vendor, its kind and its number (unique together). */
interface DocumentKey {
  tenantId: number;
  vendorId: number;
  kind: "invoice" | "credit_memo";
  number: string;
}

/** The tenant of the order `orderRef` selects, for a read made before the order is known. */
const tenantOf = (orderRef: SQL<number>) => sql<number>`(select ${orders.tenantId} from ${orders} where ${orders.id} = ${orderRef})`;

const keyCondition = (key: Omit<DocumentKey, "tenantId"> & { tenantId: number | SQL<number> }) =>
  and(
    eq(invoices.tenantId, key.tenantId),
    eq(invoices.vendorId, key.vendorId),
    eq(invoices.kind, key.kind),
    eq(invoices.number, key.number),
  );

/** The document's id as a subquery, for the statements that write it and its lines in one batch. */
const documentIdOf = (key: DocumentKey) => sql<number>`(select ${invoices.id} from ${invoices} where ${keyCondition(key)})`;

/** The id and digest of the document of that key, if there is one. */
const documentOf = (db: Database, key: Omit<DocumentKey, "tenantId"> & { tenantId: number | SQL<number> }) =>
  db.select({ id: invoices.id, bodyDigest: invoices.bodyDigest }).from(invoices).where(keyCondition(key));

/** 12 bound values per line (the invoice id is a subquery of 4), and D1 allows 100 per statement. */
const LINES_PER_INSERT = 6;

function insertDocument(
  db: Database,
  head: Omit<typeof invoices.$inferInsert, "id">,
  lines: Omit<typeof invoiceLines.$inferInsert, "invoiceId">[],
): BatchItem<"sqlite">[] {
  const invoiceId = documentIdOf(head as DocumentKey);
  return [
    db.insert(invoices).values(head),
    ...chunk(lines, LINES_PER_INSERT).map((rows) => db.insert(invoiceLines).values(rows.map((line) => ({ ...line, invoiceId })))),
  ];
}

/** Fills in the new document's id in its events' payloads (the id is the database's, known only once it is written). */
const patchEventIds = (db: Database, eventIds: readonly string[], field: string, idQuery: SQL) =>
  db
    .update(outboxEvents)
    .set({ payload: sql`json_set(${outboxEvents.payload}, ${`$.${field}`}, ${idQuery})` })
    .where(inArray(outboxEvents.id, [...eventIds]));

/** A document already there under its number: the same one again (the first answers), or another (a 409). */
function sameOrUsed(found: { id: number; bodyDigest: string } | undefined, key: DocumentKey, digest: string): SubmitOutcome | null {
  if (!found) return null;
  if (found.bodyDigest === digest) return { id: found.id, created: false, eventIds: [], record: null };
  throw usedNumber(key.kind, key.number);
}

/**
 * Writes a document with its lines, the matches it changes and its events, as one change of its order. Two documents
 * under one number sent at once both pass the read; the second's batch fails on the number's unique index, and it is
 * answered as if it had come second: the first again, or a 409.
 */
async function commitDocument(
  db: Database,
  invoicing: Invoicing,
  key: DocumentKey,
  digest: string,
  write: {
    head: Omit<typeof invoices.$inferInsert, "id">;
    lines: Omit<typeof invoiceLines.$inferInsert, "invoiceId">[];
    statements: BatchItem<"sqlite">[];
    events: EventToWrite[];
    idField: string;
    /** A credit memo's invoice number, for its record. */
    creditedInvoiceNumber?: string;
    at: Date;
  },
): Promise<SubmitOutcome> {
  const [first, ...more] = write.events;
  const eventIds = write.events.map(() => crypto.randomUUID());
  const newDocumentEvents = eventIds.filter((_, i) => write.events[i]!.payload[write.idField] === 0);
  const { order } = invoicing;
  let outcome: Awaited<ReturnType<typeof commitOrderChange>>;
  try {
    outcome = await commitOrderChange(db, {
      order: { id: order.id, tenantId: order.tenantId, orderNumber: order.orderNumber, version: order.version, lines: invoicing.states },
      lineChanges: new Map(),
      statements: [...insertDocument(db, write.head, write.lines), ...write.statements],
      event: first!,
      moreEvents: more,
      eventIds,
      also: [patchEventIds(db, newDocumentEvents, write.idField, documentIdOf(key)), documentOf(db, key)],
      at: write.at,
    });
  } catch (error) {
    // The same number written meanwhile: on another order (the unique index) or on this one (the order changed).
    const message = String((error as Error)?.message ?? error);
    const raced =
      message.includes("UNIQUE constraint failed: invoices") || (error instanceof ProblemError && error.slug === "order-changed");
    if (!raced) throw error;
    const again = sameOrUsed((await documentOf(db, key))[0], key, digest);
    if (again) return again;
    throw error;
  }
  const [written] = outcome.alsoResults[1] as { id: number }[];
  const id = written!.id;
  const row: DocumentRow = {
    ...write.head,
    id,
    orderNumber: order.orderNumber,
    creditedInvoiceId: write.head.creditedInvoiceId ?? null,
    creditedInvoiceNumber: write.creditedInvoiceNumber ?? null,
    origin: null,
    creditedCents: 0,
    statusReason: write.head.statusReason ?? null,
  };
  const lines = write.lines.map((line) => ({
    ...line,
    invoiceId: id,
    orderLineId: line.orderLineId ?? null,
    creditedLineNumber: line.creditedLineNumber ?? null,
    partNumber: line.partNumber ?? null,
    description: line.description ?? null,
    matchStatus: line.matchStatus ?? null,
    matchExplanation: line.matchExplanation ?? null,
  }));
  return { id, created: true, eventIds, record: documentView(row, lines) };
}

/** A vendor's invoice of its lines on one order. */
export async function submitInvoice(
  db: Database,
  vendorId: number,
  input: InvoiceInput,
  { sandbox = false, now = new Date() }: { sandbox?: boolean; now?: Date } = {},
): Promise<SubmitOutcome> {
  if (input.currency !== CURRENCY) throw new ValidationError({ currency: [`Must be ${CURRENCY}, the currency of the order.`] });
  const { lines, totals } = addUp(input.lines, input.summary);
  const orderRef = sql<number>`(select ${orders.id} from ${orders} where ${orders.orderNumber} = ${input.orderNumber} and ${kindOf(sandbox)} and exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id} and ${orderLines.vendorId} = ${vendorId}))`;
  const [order, states, vendorLines, documentRows, settings, sameNumber] = await db.batch([
    ...invoicingReads(db, vendorId, orderRef),
    documentOf(db, { tenantId: tenantOf(orderRef), vendorId, kind: "invoice", number: input.invoiceNumber }),
  ]);
  const invoicing = invoicingOf(vendorId, [order, states, vendorLines, documentRows, settings]);
  if (!invoicing) throw noLineOfOrder();
  const key: DocumentKey = { tenantId: invoicing.order.tenantId, vendorId, kind: "invoice", number: input.invoiceNumber };
  const digest = await sha256Hex(canonicalJson(input));
  const first = sameOrUsed(sameNumber[0], key, digest);
  if (first) return first;
  const added: MatchedInvoice = {
    id: 0,
    lines: input.lines.map((line, i) => ({
      lineNumber: i + 1,
      orderLineId: line.lineId ?? null,
      quantity: line.quantity,
      unitPriceCents: lines[i]!.unitPriceCents,
      amountCents: lines[i]!.amountCents,
    })),
  };
  const matches = matchAll(invoicing, { invoice: added });
  const ownMatches = matches.get(0)!;
  matches.delete(0);
  const rematch = rematchStatements(db, invoicing, matches, now.toISOString());
  const at = now.toISOString();
  const status = invoiceMatchStatus(ownMatches);
  const head = documentHead(invoicing, vendorId, "invoice", input.invoiceNumber, input.invoiceDate, totals, status, digest, at);
  const document = { id: 0, number: input.invoiceNumber, totalCents: totals.totalCents };
  const events = [
    invoiceEvent("invoice.received", invoicing, document, status, ownMatches),
    invoiceEvent(status === "matched" ? "invoice.matched" : "invoice.exception", invoicing, document, status, ownMatches),
    ...rematch.events,
  ];
  return commitDocument(db, invoicing, key, digest, {
    head,
    lines: input.lines.map((line, i) => ({
      lineNumber: i + 1,
      orderLineId: line.lineId ?? null,
      creditedLineNumber: null,
      partNumber: line.partNumber ?? null,
      description: line.description ?? null,
      ...lines[i]!,
      matchStatus: ownMatches[i]!.status,
      matchExplanation: ownMatches[i]!.explanation,
    })),
    statements: rematch.statements,
    events,
    idField: "invoiceId",
    at: now,
  });
}

function documentHead(
  invoicing: Invoicing,
  vendorId: number,
  kind: "invoice" | "credit_memo",
  number: string,
  date: string,
  totals: DocumentTotals,
  status: string,
  digest: string,
  at: string,
  creditedInvoiceId: number | null = null,
  statusReason: string | null = null,
): Omit<typeof invoices.$inferInsert, "id"> {
  return {
    tenantId: invoicing.order.tenantId,
    vendorId,
    orderId: invoicing.order.id,
    kind,
    number,
    creditedInvoiceId,
    invoiceDate: date,
    currency: CURRENCY,
    ...totals,
    status,
    statusReason,
    bodyDigest: digest,
    createdAt: at,
    updatedAt: at,
  };
}

/** A credit memo against one of the vendor's invoices: some of its lines, or all that remains of it. */
export async function submitCreditMemo(
  db: Database,
  vendorId: number,
  input: CreditMemoInput,
  { sandbox = false, now = new Date() }: { sandbox?: boolean; now?: Date } = {},
): Promise<SubmitOutcome> {
  if (input.currency !== CURRENCY) throw new ValidationError({ currency: [`Must be ${CURRENCY}, the currency of the invoice.`] });
  if ((input.lines === undefined) !== (input.summary === undefined)) {
    throw new ValidationError({
      summary: ["Send lines and summary together (a part of the invoice), or neither (all that remains of it)."],
    });
  }
  const byNumbers = input.invoiceId === undefined;
  const named = byNumbers
    ? sql`${invoices.number} = ${input.invoiceNumber ?? ""} and ${orders.orderNumber} = ${input.orderNumber ?? ""}`
    : sql`${invoices.id} = ${input.invoiceId}`;
  const orderRef = sql<number>`(select ${invoices.orderId} from ${invoices} join ${orders} on ${orders.id} = ${invoices.orderId} where ${named} and ${invoices.vendorId} = ${vendorId} and ${invoices.kind} = 'invoice' and ${kindOf(sandbox)})`;
  const [order, states, vendorLines, documentRows, settings, sameNumber] = await db.batch([
    ...invoicingReads(db, vendorId, orderRef),
    documentOf(db, { tenantId: tenantOf(orderRef), vendorId, kind: "credit_memo", number: input.creditMemoNumber }),
  ]);
  const invoicing = invoicingOf(vendorId, [order, states, vendorLines, documentRows, settings]);
  const invoice = invoicing?.documents.find((d) =>
    byNumbers ? d.kind === "invoice" && d.number === input.invoiceNumber : d.id === input.invoiceId,
  );
  if (!invoicing || !invoice) throw noInvoiceOfVendor(byNumbers);
  const key: DocumentKey = { tenantId: invoicing.order.tenantId, vendorId, kind: "credit_memo", number: input.creditMemoNumber };
  const digest = await sha256Hex(canonicalJson(byInvoiceId(input, invoice)));
  const first = sameOrUsed(sameNumber[0], key, digest);
  if (first) return first;
  const remaining = remainingOf(invoice, invoicing.documents);
  const credit = input.lines ? creditOfLines(input.lines, input.summary!, remaining) : wholeCredit(remaining);
  const at = now.toISOString();
  const matches = matchAll(invoicing, {
    credits: credit.lines.map((line) => ({
      invoiceId: invoice.id,
      creditedLineNumber: line.creditedLineNumber,
      quantity: line.quantity,
      amountCents: line.amountCents,
    })),
  });
  const rematch = rematchStatements(db, invoicing, matches, now.toISOString());
  const head = documentHead(
    invoicing,
    vendorId,
    "credit_memo",
    input.creditMemoNumber,
    input.creditDate,
    credit.totals,
    "received",
    digest,
    at,
    invoice.id,
    input.reason ?? null,
  );
  const received: EventToWrite = {
    type: "credit_memo.received",
    payload: {
      creditMemoId: 0,
      creditMemoNumber: input.creditMemoNumber,
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      vendorId,
      total: centsToText(credit.totals.totalCents),
      currency: CURRENCY,
    } satisfies Omit<EventData<"credit_memo.received">, "orderNumber" | "status">,
  };
  return commitDocument(db, invoicing, key, digest, {
    head,
    lines: credit.lines.map((line, i) => ({
      lineNumber: i + 1,
      orderLineId: line.orderLineId,
      creditedLineNumber: line.creditedLineNumber,
      partNumber: null,
      description: null,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      amountCents: line.amountCents,
      taxCents: line.taxCents,
      matchStatus: null,
      matchExplanation: null,
    })),
    statements: rematch.statements,
    events: [received, ...rematch.events],
    idField: "creditMemoId",
    creditedInvoiceNumber: invoice.number,
    at: now,
  });
}

/**
 * The credit memo as if it named its invoice by id and its lines by the invoice's line numbers, for its digest: the
 * same credit memo sent by the vendor's numbers (an 810 CR) and by ids is one document. A form by ids is itself, so
 * the digests of memos written before the numbers form are unchanged. A lineId the invoice does not bill on exactly one
 * line stays as sent (the credit is then refused).
 */
function byInvoiceId(input: CreditMemoInput, invoice: Invoicing["documents"][number]): CreditMemoInput {
  if (input.invoiceId !== undefined && !input.lines?.some((line) => line.lineId !== undefined)) return input;
  const { orderNumber: _, invoiceNumber: __, ...rest } = input;
  return {
    ...rest,
    invoiceId: invoice.id,
    lines: input.lines?.map(({ lineId, ...line }) => {
      const billing = invoice.lines.filter((billed) => lineId !== undefined && billed.orderLineId === lineId);
      return billing.length === 1 ? { ...line, invoiceLineNumber: billing[0]!.lineNumber! } : { ...line, lineId };
    }),
  };
}

interface RemainingLine {
  lineNumber: number;
  orderLineId: number | null;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  taxCents: number;
}

/** What of each line of the invoice (and of its freight) earlier credit memos have not credited. */
export function remainingOf(invoice: Invoicing["documents"][number], documents: Invoicing["documents"]) {
  const credits = documents.filter((d) => d.kind === "credit_memo" && d.creditedInvoiceId === invoice.id);
  const lines: RemainingLine[] = invoice.lines.map((line) => {
    const credited = credits.flatMap((c) => c.lines).filter((c) => c.creditedLineNumber === line.lineNumber);
    const sum = (field: "quantity" | "amountCents" | "taxCents") => credited.reduce((total, c) => total + (c[field] ?? 0), 0);
    return {
      lineNumber: line.lineNumber!,
      orderLineId: line.orderLineId,
      quantity: line.quantity! - sum("quantity"),
      unitPriceCents: line.unitPriceCents!,
      amountCents: line.amountCents! - sum("amountCents"),
      taxCents: line.taxCents! - sum("taxCents"),
    };
  });
  const freightCents = invoice.freightCents - credits.reduce((total, c) => total + c.freightCents, 0);
  return { lines, freightCents };
}

type Credit = { lines: (DocumentLine & { creditedLineNumber: number; orderLineId: number | null })[]; totals: DocumentTotals };

/**
 * All that remains of each invoice line: its units at the invoice's price, and what a price-only credit left of its
 * amount on a line of quantity 0 (so every line still adds up: amount = quantity × unitPrice).
 */
function wholeCredit(remaining: ReturnType<typeof remainingOf>): Credit {
  const lines = remaining.lines.flatMap((line) => {
    // Every unit left, at the price left of it (a price correction lowered it), and the cents that do not divide evenly.
    const unitCents = line.quantity > 0 ? Math.min(line.unitPriceCents, Math.floor(line.amountCents / line.quantity)) : 0;
    const rest = line.amountCents - unitCents * line.quantity;
    const base = { creditedLineNumber: line.lineNumber, orderLineId: line.orderLineId };
    return [
      ...(line.quantity > 0 || line.taxCents > 0
        ? [{ ...base, quantity: line.quantity, unitPriceCents: unitCents, amountCents: unitCents * line.quantity, taxCents: line.taxCents }]
        : []),
      ...(rest > 0 ? [{ ...base, quantity: 0, unitPriceCents: rest, amountCents: rest, taxCents: 0 }] : []),
    ];
  });
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  const taxCents = lines.reduce((sum, line) => sum + line.taxCents, 0);
  const totals = {
    subtotalCents,
    taxCents,
    freightCents: remaining.freightCents,
    totalCents: subtotalCents + taxCents + remaining.freightCents,
  };
  if (!(totals.totalCents > 0)) throw nothingToCredit();
  return { lines, totals };
}

const nothingToCredit = () =>
  new ProblemError(409, "nothing-to-credit", "Nothing left to credit", "Earlier credit memos already credit all of this invoice.");

/** Credit lines checked against what remains of each invoice line: a credit never exceeds what was invoiced. */
export function creditOfLines(
  inputs: readonly CreditLineInput[],
  summary: SummaryInput,
  remaining: ReturnType<typeof remainingOf>,
): Credit {
  const { lines, totals } = addUp(inputs, summary, { priceOnly: true });
  const errors: Record<string, string[]> = {};
  const taken = new Map<number, { quantity: number; amountCents: number; taxCents: number }>();
  const credited: (RemainingLine | undefined)[] = inputs.map((input, i) => {
    if (input.invoiceLineNumber !== undefined) {
      const left = remaining.lines.find((line) => line.lineNumber === input.invoiceLineNumber);
      if (!left) errors[`lines[${i}].invoiceLineNumber`] = [`The invoice has no line ${input.invoiceLineNumber}.`];
      return left;
    }
    // An order line: the invoice's one line that bills it (two lines of it are named by invoiceLineNumber instead).
    const billing = remaining.lines.filter((line) => line.orderLineId === input.lineId);
    if (billing.length !== 1) {
      errors[`lines[${i}].lineId`] = [
        billing.length === 0
          ? `The invoice bills no order line ${input.lineId}.`
          : `The invoice bills order line ${input.lineId} on lines ${billing.map((line) => line.lineNumber).join(", ")}: name one by invoiceLineNumber.`,
      ];
      return undefined;
    }
    return billing[0];
  });
  inputs.forEach((_, i) => {
    const left = credited[i];
    if (!left) return;
    const sum = taken.get(left.lineNumber) ?? { quantity: 0, amountCents: 0, taxCents: 0 };
    sum.quantity += lines[i]!.quantity;
    sum.amountCents += lines[i]!.amountCents;
    sum.taxCents += lines[i]!.taxCents;
    taken.set(left.lineNumber, sum);
    if (sum.quantity > left.quantity)
      errors[`lines[${i}].quantity`] = [`At most ${left.quantity} of invoice line ${left.lineNumber} remain to credit.`];
    // Units credit at the price they were invoiced at, or at what a price correction left of it (never less: a credit
    // of a few cents must not take units off the match); a price correction is a line of quantity 0.
    const lowest = left.quantity > 0 ? Math.min(left.unitPriceCents, Math.ceil(left.amountCents / left.quantity)) : left.unitPriceCents;
    if (lines[i]!.quantity > 0 && (lines[i]!.unitPriceCents > left.unitPriceCents || lines[i]!.unitPriceCents < lowest)) {
      errors[`lines[${i}].unitPrice`] = [
        `Units credit at invoice line ${left.lineNumber}'s unit price, ${centsToText(left.unitPriceCents)}${lowest < left.unitPriceCents ? `, or down to ${centsToText(lowest)} after its price corrections` : ""}; a price correction is a line of quantity 0.`,
      ];
    }
    if (sum.amountCents > left.amountCents) {
      errors[`lines[${i}].amount`] = [`At most ${centsToText(left.amountCents)} of invoice line ${left.lineNumber} remains to credit.`];
    }
    if (sum.taxCents > left.taxCents) errors[`lines[${i}].tax`] = [`At most ${centsToText(left.taxCents)} of its tax remains to credit.`];
  });
  if (totals.freightCents > remaining.freightCents) {
    errors["summary.freight"] = [`At most ${centsToText(remaining.freightCents)} of the invoice's freight remains to credit.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (totals.totalCents <= 0) throw new ValidationError({ "summary.total": ["A credit memo credits a positive amount."] });
  return {
    lines: lines.map((line, i) => ({ ...line, creditedLineNumber: credited[i]!.lineNumber, orderLineId: credited[i]!.orderLineId })),
    totals,
  };
}
