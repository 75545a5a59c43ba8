import { centsToText, MARKET_CURRENCY, textToCents } from "../../platform/money";
import type { ApiAnswer } from "../procurement/api";
import type { DeskApi, DeskLine } from "./vendor-work";
import { outcomeOf } from "./vendor-work";

/**
 * Invoices, credit memos and returns as the desk's forms write them (docs/desk.md, "Invoices" and "Returns"): amounts
 * worked out in integer cents from what the user typed, then sent as the vendor API's decimal strings, which must add
 * up exactly there. What the user typed wrong is named by line before anything is sent.
 */

export interface InvoiceView {
  invoiceId: number;
  kind: "invoice" | "credit_memo";
  invoiceNumber: string;
  orderNumber: string;
  invoiceDate: string;
  subtotal: string;
  tax: string;
  freight: string;
  total: string;
  status: string;
  statusReason: string | null;
  matchStatus: "matched" | "exception" | null;
  credited: string | null;
  creditedInvoiceId: number | null;
  creditedInvoiceNumber: string | null;
  lines: {
    lineNumber: number;
    lineId: number | null;
    partNumber: string | null;
    description: string | null;
    quantity: number;
    unitPrice: string;
    amount: string;
    tax: string;
    matchStatus: string | null;
    matchExplanation: string | null;
  }[];
}

export interface ReturnView {
  returnId: number;
  kind: string;
  status: string;
  open: boolean;
  quantity: number;
  rmaNumber: string | null;
  reason: string | null;
  note: string | null;
  serialNumber: string | null;
  dueAt: string | null;
  returnTo: string | null;
  inbound: { carrierName: string; trackingNumber: string; shippedAt: string } | null;
  outcome: string | null;
  outcomeReason: string | null;
  proposedPrice: string | null;
  repairPrice: string | null;
  nextSteps: { step: string; actor: "buyer" | "vendor" }[];
}

type Field = (name: string) => string;
type Drafted<T> = { body: T; errors: [] } | { body: null; errors: string[] };

/** Today's date (UTC), as a document's date defaults to. */
export const today = () => new Date().toISOString().slice(0, 10);

/** A vendor's document number, as the vendor API takes it (src/api/invoices/schemas.ts). */
const DOCUMENT_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;

/** A document's summary from its cents: subtotal, tax, freight and their total. */
const summaryOf = (subtotal: number, tax: number, freight: number) => ({
  subtotal: centsToText(subtotal),
  tax: centsToText(tax),
  freight: centsToText(freight),
  total: centsToText(subtotal + tax + freight),
});

/** A line's field name in the invoice form: `line-{lineId}-{what}`. */
export const invoiceField = (lineId: number, what: "bill" | "quantity" | "unitPrice" | "tax") => `line-${lineId}-${what}`;
/** A credited line's field name in the credit memo form: `credit-{lineNumber}-{what}`. */
export const creditField = (lineNumber: number, what: "quantity" | "tax") => `credit-${lineNumber}-${what}`;

const centsOf = (text: string, blankIs: number | null = null) => (text === "" ? blankIs : textToCents(text));

/**
 * The invoice of the order's lines the user ticked: each at the quantity and unit price typed (the form fills in what
 * shipped, at the line's price), its tax, and the freight; amounts and summary worked out here.
 */
export function invoiceDraft(orderNumber: string, lines: DeskLine[], field: Field): Drafted<Record<string, unknown>> {
  const errors: string[] = [];
  const billed = lines.filter((line) => field(invoiceField(line.lineId, "bill")) === "on");
  if (billed.length === 0) errors.push("Tick at least one line to bill.");
  const invoiceLines = billed.map((line) => {
    const where = `Line ${line.lineNumber}`;
    const quantityText = field(invoiceField(line.lineId, "quantity"));
    const quantity = /^\d{1,5}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
    const unitCents = centsOf(field(invoiceField(line.lineId, "unitPrice")));
    const taxCents = centsOf(field(invoiceField(line.lineId, "tax")), 0);
    if (!(quantity >= 1)) errors.push(`${where}: the quantity must be a whole number from 1.`);
    if (unitCents === null) errors.push(`${where}: the unit price must be an amount like 120.00.`);
    if (taxCents === null) errors.push(`${where}: the tax must be an amount like 9.60, or empty.`);
    const amount = quantity * (unitCents ?? 0);
    return { lineId: line.lineId, partNumber: line.partNumber, quantity, unitCents: unitCents ?? 0, amount, taxCents: taxCents ?? 0 };
  });
  const freightCents = centsOf(field("freight"), 0);
  if (freightCents === null) errors.push("The freight must be an amount like 15.00, or empty.");
  if (!DOCUMENT_NUMBER.test(field("invoiceNumber"))) {
    errors.push("The invoice number is required: letters, digits and . _ / - (up to 40).");
  }
  if (errors.length > 0) return { body: null, errors };
  const subtotal = invoiceLines.reduce((sum, line) => sum + line.amount, 0);
  const tax = invoiceLines.reduce((sum, line) => sum + line.taxCents, 0);
  return {
    errors: [],
    body: {
      invoiceNumber: field("invoiceNumber"),
      orderNumber,
      invoiceDate: field("invoiceDate") || today(),
      currency: MARKET_CURRENCY,
      lines: invoiceLines.map((line) => ({
        lineId: line.lineId,
        // The part number printed on the invoice, as the line has it (the vendor API takes 64 characters).
        ...(line.partNumber && line.partNumber.length <= 64 ? { partNumber: line.partNumber } : {}),
        quantity: line.quantity,
        unitPrice: centsToText(line.unitCents),
        amount: centsToText(line.amount),
        tax: centsToText(line.taxCents),
      })),
      summary: summaryOf(subtotal, tax, freightCents!),
    },
  };
}

/**
 * A credit memo against the invoice: everything that remains of it (`whole`), or the units typed per invoice line at
 * the line's unit price, each with its share of the line's tax unless typed (round half up of tax × units / quantity),
 * and the freight typed.
 */
export function creditMemoDraft(invoice: InvoiceView, field: Field): Drafted<Record<string, unknown>> {
  const errors: string[] = [];
  if (!DOCUMENT_NUMBER.test(field("creditMemoNumber"))) {
    errors.push("The credit memo number is required: letters, digits and . _ / - (up to 40).");
  }
  const head = {
    creditMemoNumber: field("creditMemoNumber"),
    invoiceId: invoice.invoiceId,
    creditDate: field("creditDate") || today(),
    currency: MARKET_CURRENCY,
    ...(field("reason") ? { reason: field("reason") } : {}),
  };
  if (field("whole") === "on") return errors.length > 0 ? { body: null, errors } : { body: head, errors: [] };
  const credited = invoice.lines.flatMap((line) => {
    const quantityText = field(creditField(line.lineNumber, "quantity"));
    if (quantityText === "" || quantityText === "0") return [];
    const quantity = /^\d{1,5}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
    const unitCents = textToCents(line.unitPrice) ?? 0;
    const lineTax = textToCents(line.tax) ?? 0;
    const typedTax = field(creditField(line.lineNumber, "tax"));
    const taxCents = typedTax === "" ? Math.floor((lineTax * quantity * 2 + line.quantity) / (2 * line.quantity)) : textToCents(typedTax);
    if (!(quantity >= 1 && quantity <= line.quantity)) {
      errors.push(`Invoice line ${line.lineNumber}: credit a whole number of units, at most ${line.quantity}.`);
    }
    if (taxCents === null) errors.push(`Invoice line ${line.lineNumber}: the tax must be an amount like 9.60, or empty.`);
    return [{ invoiceLineNumber: line.lineNumber, quantity, unitCents, taxCents: taxCents ?? 0 }];
  });
  const freightCents = centsOf(field("freight"), 0);
  if (freightCents === null) errors.push("The freight must be an amount like 15.00, or empty.");
  if (credited.length === 0 && freightCents === 0) errors.push("Type the units to credit on a line, or tick “everything that remains”.");
  if (errors.length > 0) return { body: null, errors };
  const subtotal = credited.reduce((sum, line) => sum + line.quantity * line.unitCents, 0);
  const tax = credited.reduce((sum, line) => sum + line.taxCents, 0);
  return {
    errors: [],
    body: {
      ...head,
      lines: credited.map((line) => ({
        invoiceLineNumber: line.invoiceLineNumber,
        quantity: line.quantity,
        unitPrice: centsToText(line.unitCents),
        amount: centsToText(line.quantity * line.unitCents),
        tax: centsToText(line.taxCents),
      })),
      summary: summaryOf(subtotal, tax, freightCents!),
    },
  };
}

type Sent = ApiAnswer<{ data?: InvoiceView; detail?: string; errors?: unknown }>;

/** An invoice or credit memo sent: its record (201 new, 200 the same again), or what the vendor API refused. */
export async function sendDocument(api: DeskApi, kind: "invoice" | "credit_memo", body: Record<string, unknown>) {
  const answer = (await api("POST", kind === "invoice" ? "/invoices" : "/credit-memos", body)) as Sent;
  return { ...outcomeOf(answer), record: answer.body.data ?? null };
}

export async function documentOf(api: DeskApi, invoiceId: number): Promise<InvoiceView | null> {
  const answer = (await api("GET", `/invoices/${invoiceId}`)) as ApiAnswer<{ data?: InvoiceView }>;
  return answer.status === 200 && answer.body.data ? answer.body.data : null;
}

export async function returnsOfLine(api: DeskApi, lineId: number): Promise<ReturnView[]> {
  const answer = (await api("GET", `/order-lines/${lineId}/returns`)) as ApiAnswer<{ data?: { returns: ReturnView[] } }>;
  return answer.status === 200 ? (answer.body.data?.returns ?? []) : [];
}

export async function returnOf(api: DeskApi, returnId: number): Promise<(ReturnView & { lineId: number }) | null> {
  const answer = (await api("GET", `/returns/${returnId}`)) as ApiAnswer<{ data?: ReturnView & { lineId: number } }>;
  return answer.status === 200 && answer.body.data ? answer.body.data : null;
}

/** The vendor's steps of a return (the vendor API's POST /returns/{id}/{step}). */
export const RETURN_STEPS = ["authorize", "decline", "receive", "diagnose", "send-back"] as const;
export type ReturnStep = (typeof RETURN_STEPS)[number];

/** A return step's form as the vendor API's body: only the fields the step takes, as typed. */
export function returnStepBody(step: ReturnStep, field: Field): Record<string, unknown> {
  const given = (...names: string[]) => Object.fromEntries(names.filter((name) => field(name) !== "").map((name) => [name, field(name)]));
  switch (step) {
    case "authorize":
      return given("rmaNumber", "returnBy", "restockingFee", "returnTo");
    case "decline":
      return { reason: field("reason") };
    case "receive":
      return given("outcome", "reason");
    case "diagnose":
      return { withinFlatRate: field("withinFlatRate") !== "no", ...given("price", "reason") };
    case "send-back":
      return given("carrierName", "trackingNumber");
  }
}

export async function takeReturnStep(api: DeskApi, returnId: number, step: ReturnStep, body: Record<string, unknown>) {
  const answer = (await api("POST", `/returns/${returnId}/${step}`, body)) as ApiAnswer<{ detail?: string; errors?: unknown }>;
  return outcomeOf(answer);
}
