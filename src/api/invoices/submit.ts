import { and, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { invoiceLines, invoices, orderLines, orders, outboxEvents, purchasingSettings } from "../../db/schema";
import { notFound, ProblemError, ValidationError } from "../../platform/errors";
import { centsToText } from "../../platform/money";
import { sha256Hex } from "../../platform/sha256";
import type { EventData } from "../events/schemas";
import type { EventType } from "../events/types";
import { commitOrderChange, orderLineStates } from "../orders/changes";
import { settingsOf } from "../purchasing/settings";
import { addUp, type DocumentLine, type DocumentLineInput, type DocumentTotals, type SummaryInput } from "./documents";
import { invoiceMatchStatus, type LineMatch, type MatchedCreditLine, type MatchedInvoice, matchInvoices } from "./match";

/**
 * A vendor's invoices and credit memos (docs/api.md, "Invoices"). Each is a change of its order, committed as every
 * order change is (src/api/orders/changes.ts): one read of the order, its lines, the vendor's invoices and credits on
 * it and the tenant's settings, then one batch with the document, its lines, the three-way match of every invoice of
 * the vendor on the order (a new document can change an earlier one's match), and their events. Two round trips, so
 * an order that changes in between (a parcel shipped) makes the batch fail as 409 order-changed, and the retry matches
 * against what is there. A document's number is unique per vendor and buyer: sending the same document again answers
 * the first (nothing written), another document under a used number is a 409.
 */

export const CURRENCY = "USD";

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

export interface CreditLineInput extends DocumentLineInput {
  invoiceLineNumber: number;
}

export interface CreditMemoInput {
  creditMemoNumber: string;
  invoiceId: number;
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
}

/** Vendors invoice live orders; the sandbox's simulated vendor, test-mode ones (a sandbox twin's, tenant id < 0). */
const kindOf = (sandbox: boolean) => (sandbox ? lt(orders.tenantId, 0) : gt(orders.tenantId, 0));

/** What a document of the vendor on the order `orderRef` selects is matched with: one batch. */
function invoicingReads(db: Database, vendorId: number, orderRef: SQL<number>) {
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
type Rows<I extends number> = Awaited<Reads[I]>;

interface Invoicing {
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

function invoicingOf(
  vendorId: number,
  [order, states, vendorLines, documentRows, settings]: [Rows<0>, Rows<1>, Rows<2>, Rows<3>, Awaited<Reads[4]>],
): Invoicing | null {
  if (!order[0]) return null;
  const documents = new Map<number, Invoicing["documents"][number]>();
  for (const row of documentRows) {
    let document = documents.get(row.id);
    if (!document) {
      document = { ...row, lines: [] };
      documents.set(row.id, document);
    }
    if (row.lineNumber !== null) document.lines.push(row);
  }
  return { vendorId, order: order[0], states, vendorLines, documents: [...documents.values()], settings: settingsOf(settings[0]) };
}

/** The match of every invoice of the vendor on the order, with a document about to be added (id 0) among them. */
function matchAll(invoicing: Invoicing, added: { invoice?: MatchedInvoice; credits?: MatchedCreditLine[] }) {
  const existing = invoicing.documents.filter((d) => d.kind === "invoice");
  const matched: MatchedInvoice[] = existing.map((d) => ({
    id: d.id,
    lines: d.lines.map((l) => ({
      lineNumber: l.lineNumber!,
      orderLineId: l.orderLineId,
      quantity: l.quantity!,
      unitPriceCents: l.unitPriceCents!,
    })),
  }));
  if (added.invoice) matched.push(added.invoice);
  const credits: MatchedCreditLine[] = invoicing.documents
    .filter((d) => d.kind === "credit_memo")
    .flatMap((d) =>
      d.lines.map((l) => ({ invoiceId: d.creditedInvoiceId!, creditedLineNumber: l.creditedLineNumber!, quantity: l.quantity! })),
    );
  credits.push(...(added.credits ?? []));
  return matchInvoices(invoicing.order.orderNumber, invoicing.vendorLines, matched, credits, invoicing.settings);
}

/** An invoice whose buyer has decided keeps the decision; the others take their match's status. */
const statusAfterMatch = (current: string, matches: readonly LineMatch[]) =>
  current === "accepted" || current === "disputed" ? current : invoiceMatchStatus(matches);

interface EventToWrite {
  type: EventType;
  payload: Record<string, unknown>;
}

/**
 * The earlier invoices whose lines' matches change with the new document: an update of their lines (one statement) and
 * statuses, and an invoice.matched or invoice.exception event for each whose status changes.
 */
function rematchStatements(db: Database, invoicing: Invoicing, matches: Map<number, LineMatch[]>) {
  const statements: BatchItem<"sqlite">[] = [];
  const events: EventToWrite[] = [];
  const changedLines: { i: number; n: number; s: string; e: string }[] = [];
  for (const document of invoicing.documents) {
    const lines = matches.get(document.id);
    if (document.kind !== "invoice" || !lines) continue;
    for (const match of lines) {
      const row = document.lines.find((l) => l.lineNumber === match.lineNumber);
      if (row?.matchStatus !== match.status)
        changedLines.push({ i: document.id, n: match.lineNumber, s: match.status, e: match.explanation });
    }
    const status = statusAfterMatch(document.status, lines);
    if (status !== document.status) {
      statements.push(db.update(invoices).set({ status }).where(eq(invoices.id, document.id)));
      events.push(invoiceEvent(status === "matched" ? "invoice.matched" : "invoice.exception", invoicing, document, status, lines));
    }
  }
  if (changedLines.length > 0) {
    const changed = JSON.stringify(changedLines);
    const of = (field: "s" | "e") =>
      sql`(select c.value ->> ${field} from json_each(${changed}) c where c.value ->> 'i' = ${invoiceLines.invoiceId} and c.value ->> 'n' = ${invoiceLines.lineNumber})`;
    statements.push(
      db
        .update(invoiceLines)
        .set({ matchStatus: of("s"), matchExplanation: of("e") })
        .where(
          sql`exists (select 1 from json_each(${changed}) c where c.value ->> 'i' = ${invoiceLines.invoiceId} and c.value ->> 'n' = ${invoiceLines.lineNumber})`,
        ),
    );
  }
  return { statements, events };
}

function invoiceEvent(
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

/** A document under a number already used: the same document again answers the first; another is a 409. */
function usedNumber(kind: string, number: string) {
  return new ProblemError(
    409,
    "document-number-used",
    "Number already used",
    `This vendor already sent this buyer a different ${kind === "invoice" ? "invoice" : "credit memo"} numbered ${number}; a number names one document.`,
  );
}

const canonical = (value: unknown) =>
  JSON.stringify(value, (_, v) => (v && typeof v === "object" && !Array.isArray(v) ? sortedObject(v) : v));
const sortedObject = (value: object) => Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The id of a document just written, by its unique number (read in the batch that writes it). */
const documentIdQuery = (db: Database, tenantId: number, vendorId: number, kind: string, number: string) =>
  db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.tenantId, tenantId), eq(invoices.vendorId, vendorId), eq(invoices.kind, kind), eq(invoices.number, number)));

/** 12 bound values per line (the invoice id is a subquery of 4), and D1 allows 100 per statement. */
const LINES_PER_INSERT = 6;

function insertDocument(
  db: Database,
  head: Omit<typeof invoices.$inferInsert, "id">,
  lines: Omit<typeof invoiceLines.$inferInsert, "invoiceId">[],
): BatchItem<"sqlite">[] {
  const invoiceId = sql<number>`(select ${invoices.id} from ${invoices} where ${invoices.tenantId} = ${head.tenantId} and ${invoices.vendorId} = ${head.vendorId} and ${invoices.kind} = ${head.kind} and ${invoices.number} = ${head.number})`;
  const statements: BatchItem<"sqlite">[] = [db.insert(invoices).values(head)];
  for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
    statements.push(db.insert(invoiceLines).values(lines.slice(i, i + LINES_PER_INSERT).map((line) => ({ ...line, invoiceId }))));
  }
  return statements;
}

/** Fills in the new document's id in its events' payloads (the id is the database's, known only once it is written). */
const patchEventIds = (db: Database, eventIds: readonly string[], field: string, idQuery: SQL) =>
  db
    .update(outboxEvents)
    .set({ payload: sql`json_set(${outboxEvents.payload}, ${`$.${field}`}, ${idQuery})` })
    .where(inArray(outboxEvents.id, [...eventIds]));

async function commitDocument(
  db: Database,
  invoicing: Invoicing,
  write: {
    statements: BatchItem<"sqlite">[];
    events: EventToWrite[];
    idField: string;
    idQuery: SQL;
    idRead: BatchItem<"sqlite">;
    at: Date;
  },
): Promise<{ id: number; eventIds: string[] }> {
  const [first, ...more] = write.events;
  const eventIds = write.events.map(() => crypto.randomUUID());
  const newDocumentEvents = eventIds.filter((_, i) => write.events[i]!.payload[write.idField] === 0);
  const { order } = invoicing;
  const outcome = await commitOrderChange(db, {
    order: { id: order.id, tenantId: order.tenantId, orderNumber: order.orderNumber, version: order.version, lines: invoicing.states },
    lineChanges: new Map(),
    statements: write.statements,
    event: first!,
    moreEvents: more,
    eventId: eventIds[0]!,
    eventIds,
    also: [patchEventIds(db, newDocumentEvents, write.idField, write.idQuery), write.idRead],
    at: write.at,
  });
  const [written] = outcome.alsoResults[1] as { id: number }[];
  return { id: written!.id, eventIds };
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
  const reads = invoicingReads(db, vendorId, orderRef);
  const [order, states, vendorLines, documentRows, settings, sameNumber] = await db.batch([
    ...reads,
    db
      .select({ id: invoices.id, bodyDigest: invoices.bodyDigest })
      .from(invoices)
      .where(
        and(
          eq(invoices.tenantId, sql`(select ${orders.tenantId} from ${orders} where ${orders.id} = ${orderRef})`),
          eq(invoices.vendorId, vendorId),
          eq(invoices.kind, "invoice"),
          eq(invoices.number, input.invoiceNumber),
        ),
      ),
  ]);
  const invoicing = invoicingOf(vendorId, [order, states, vendorLines, documentRows, settings]);
  if (!invoicing) throw notFound("The vendor has no line on an order of that number.");
  const digest = await sha256Hex(canonical(input));
  if (sameNumber[0]) {
    if (sameNumber[0].bodyDigest === digest) return { id: sameNumber[0].id, created: false, eventIds: [] };
    throw usedNumber("invoice", input.invoiceNumber);
  }
  const added: MatchedInvoice = {
    id: 0,
    lines: input.lines.map((line, i) => ({
      lineNumber: i + 1,
      orderLineId: line.lineId ?? null,
      quantity: line.quantity,
      unitPriceCents: lines[i]!.unitPriceCents,
    })),
  };
  const matches = matchAll(invoicing, { invoice: added });
  const ownMatches = matches.get(0)!;
  matches.delete(0);
  const rematch = rematchStatements(db, invoicing, matches);
  const at = now.toISOString();
  const status = invoiceMatchStatus(ownMatches);
  const head = documentHead(invoicing, vendorId, "invoice", input.invoiceNumber, input.invoiceDate, totals, status, digest, at);
  const document = { id: 0, number: input.invoiceNumber, totalCents: totals.totalCents };
  const events = [
    invoiceEvent("invoice.received", invoicing, document, status, ownMatches),
    invoiceEvent(status === "matched" ? "invoice.matched" : "invoice.exception", invoicing, document, status, ownMatches),
    ...rematch.events,
  ];
  const idQuery = sql`(select ${invoices.id} from ${invoices} where ${invoices.tenantId} = ${invoicing.order.tenantId} and ${invoices.vendorId} = ${vendorId} and ${invoices.kind} = 'invoice' and ${invoices.number} = ${input.invoiceNumber})`;
  const { id, eventIds } = await commitDocument(db, invoicing, {
    statements: [
      ...insertDocument(
        db,
        head,
        input.lines.map((line, i) => ({
          lineNumber: i + 1,
          orderLineId: line.lineId ?? null,
          creditedLineNumber: null,
          partNumber: line.partNumber ?? null,
          description: line.description ?? null,
          ...lines[i]!,
          matchStatus: ownMatches[i]!.status,
          matchExplanation: ownMatches[i]!.explanation,
        })),
      ),
      ...rematch.statements,
    ],
    events,
    idField: "invoiceId",
    idQuery,
    idRead: documentIdQuery(db, invoicing.order.tenantId, vendorId, "invoice", input.invoiceNumber),
    at: now,
  });
  return { id, created: true, eventIds };
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
  const orderRef = sql<number>`(select ${invoices.orderId} from ${invoices} join ${orders} on ${orders.id} = ${invoices.orderId} where ${invoices.id} = ${input.invoiceId} and ${invoices.vendorId} = ${vendorId} and ${invoices.kind} = 'invoice' and ${kindOf(sandbox)})`;
  const [order, states, vendorLines, documentRows, settings, sameNumber] = await db.batch([
    ...invoicingReads(db, vendorId, orderRef),
    db
      .select({ id: invoices.id, bodyDigest: invoices.bodyDigest })
      .from(invoices)
      .where(
        and(
          eq(invoices.tenantId, sql`(select ${orders.tenantId} from ${orders} where ${orders.id} = ${orderRef})`),
          eq(invoices.vendorId, vendorId),
          eq(invoices.kind, "credit_memo"),
          eq(invoices.number, input.creditMemoNumber),
        ),
      ),
  ]);
  const invoicing = invoicingOf(vendorId, [order, states, vendorLines, documentRows, settings]);
  const invoice = invoicing?.documents.find((d) => d.id === input.invoiceId);
  if (!invoicing || !invoice) throw notFound("The vendor has no invoice with that id.");
  const digest = await sha256Hex(canonical(input));
  if (sameNumber[0]) {
    if (sameNumber[0].bodyDigest === digest) return { id: sameNumber[0].id, created: false, eventIds: [] };
    throw usedNumber("credit_memo", input.creditMemoNumber);
  }
  const remaining = remainingOf(invoice, invoicing.documents);
  const credit = input.lines ? creditOfLines(input.lines, input.summary!, remaining) : wholeCredit(remaining);
  const at = now.toISOString();
  const matches = matchAll(invoicing, {
    credits: credit.lines.map((line) => ({ invoiceId: invoice.id, creditedLineNumber: line.creditedLineNumber, quantity: line.quantity })),
  });
  const rematch = rematchStatements(db, invoicing, matches);
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
  const idQuery = sql`(select ${invoices.id} from ${invoices} where ${invoices.tenantId} = ${invoicing.order.tenantId} and ${invoices.vendorId} = ${vendorId} and ${invoices.kind} = 'credit_memo' and ${invoices.number} = ${input.creditMemoNumber})`;
  const { id, eventIds } = await commitDocument(db, invoicing, {
    statements: [
      ...insertDocument(
        db,
        head,
        credit.lines.map((line, i) => ({
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
      ),
      ...rematch.statements,
    ],
    events: [received, ...rematch.events],
    idField: "creditMemoId",
    idQuery,
    idRead: documentIdQuery(db, invoicing.order.tenantId, vendorId, "credit_memo", input.creditMemoNumber),
    at: now,
  });
  return { id, created: true, eventIds };
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

function wholeCredit(remaining: ReturnType<typeof remainingOf>): Credit {
  const lines = remaining.lines
    .filter((line) => line.amountCents > 0 || line.taxCents > 0 || line.quantity > 0)
    .map((line) => ({
      creditedLineNumber: line.lineNumber,
      orderLineId: line.orderLineId,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      amountCents: line.amountCents,
      taxCents: line.taxCents,
    }));
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  const taxCents = lines.reduce((sum, line) => sum + line.taxCents, 0);
  const totals = {
    subtotalCents,
    taxCents,
    freightCents: remaining.freightCents,
    totalCents: subtotalCents + taxCents + remaining.freightCents,
  };
  if (totals.totalCents <= 0) throw nothingToCredit();
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
  inputs.forEach((input, i) => {
    const left = remaining.lines.find((line) => line.lineNumber === input.invoiceLineNumber);
    if (!left) {
      errors[`lines[${i}].invoiceLineNumber`] = [`The invoice has no line ${input.invoiceLineNumber}.`];
      return;
    }
    const sum = taken.get(left.lineNumber) ?? { quantity: 0, amountCents: 0, taxCents: 0 };
    sum.quantity += lines[i]!.quantity;
    sum.amountCents += lines[i]!.amountCents;
    sum.taxCents += lines[i]!.taxCents;
    taken.set(left.lineNumber, sum);
    if (sum.quantity > left.quantity)
      errors[`lines[${i}].quantity`] = [`At most ${left.quantity} of invoice line ${left.lineNumber} remain to credit.`];
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
    lines: lines.map((line, i) => ({
      ...line,
      creditedLineNumber: inputs[i]!.invoiceLineNumber,
      orderLineId: remaining.lines.find((l) => l.lineNumber === inputs[i]!.invoiceLineNumber)!.orderLineId,
    })),
    totals,
  };
}
