import type { TransactionSet } from "../x12/document";
import { element } from "../x12/elements";
import { fromScaled, multiply, toScaled } from "./decimal";

/**
 * The X12 810 (invoice) a partner sends, read into the vendor API's invoice request (POST /vendor/api/invoices,
 * docs/api.md "Invoices and credit memos"), to be submitted as the vendor and matched three ways as any invoice. IT101 is
 * the Medparts line id (the 850's PO101, echoed); amounts are exact (./decimal.ts). TDS01 and SAC05 are N2 (two implied
 * decimals); freight is SAC C with code D240; the invoice's total must be the lines plus freight, else a problem.
 * BIG07 CR marks a credit memo (POST /vendor/api/credit-memos, the invoice named by the vendor's numbers): BIG02 its
 * number, BIG01 its date, BIG04 the order, the credited invoice's number in a header REF*OI (original invoice number)
 * or REF*IV (seller's invoice number), its lines and total read as an invoice's (each credit line names the order line,
 * IT101: the invoice's one line billing it). None of the public 810 samples is a credit memo (BIG07 DI or CI, or none).
 */

export interface InvoiceRequest {
  invoiceNumber: string;
  orderNumber: string;
  invoiceDate: string;
  currency: string;
  lines: { lineId: number; partNumber?: string; description?: string; quantity: number; unitPrice: string; amount: string }[];
  summary: { subtotal: string; tax: string; freight: string; total: string };
}

/** A credit memo by the vendor's numbers: its lines name order lines (docs/api.md, "Credit memos"). */
export interface CreditMemoRequest {
  creditMemoNumber: string;
  orderNumber: string;
  invoiceNumber: string;
  creditDate: string;
  currency: string;
  lines: { lineId: number; quantity: number; unitPrice: string; amount: string }[];
  summary: { subtotal: string; tax: string; freight: string; total: string };
}

export type InvoiceFromEdi =
  | { kind: "invoice"; request: InvoiceRequest; problems: { segment: string; message: string }[] }
  | { kind: "credit-memo"; request: CreditMemoRequest; problems: { segment: string; message: string }[] };

/** REF01 qualifiers naming the invoice a credit memo credits, the first found used: original invoice, seller's invoice. */
const CREDITED_INVOICE_REFS = ["OI", "IV"];

/** SAC02 codes that are freight and handling (D240 freight, G830 shipping and handling). */
const FREIGHT_CODES = new Set(["D240", "G830"]);

const isoDate = (ccyymmdd: string) => `${ccyymmdd.slice(0, 4)}-${ccyymmdd.slice(4, 6)}-${ccyymmdd.slice(6)}`;
/** An N2 element (two implied decimals, "234800" is 2348.00) as millionths. */
const n2 = (text: string) => toScaled(text) / 100n;

export function invoiceFrom810(set: TransactionSet): InvoiceFromEdi {
  const body = set.segments;
  const big = body.find((segment) => segment.id === "BIG");
  const problems: { segment: string; message: string }[] = [];
  if (!big) return { kind: "invoice", request: emptyRequest(), problems: [{ segment: "BIG", message: "An 810 without BIG." }] };
  const cur = body.find((segment) => segment.id === "CUR");
  const request: InvoiceRequest = {
    invoiceNumber: element(big, 2),
    orderNumber: element(big, 4),
    invoiceDate: /^\d{8}$/.test(element(big, 1)) ? isoDate(element(big, 1)) : element(big, 1),
    currency: (cur && element(cur, 2)) || "USD",
    lines: [],
    summary: { subtotal: "0.00", tax: "0.00", freight: "0.00", total: "0.00" },
  };
  let subtotal = 0n;
  body.forEach((it1, index) => {
    if (it1.id !== "IT1") return;
    const lineId = Number(element(it1, 1));
    const quantity = Number(element(it1, 2));
    if (!Number.isSafeInteger(lineId) || lineId <= 0) {
      problems.push({ segment: "IT1", message: `IT101 ${JSON.stringify(element(it1, 1))} is not a Medparts line id.` });
      return;
    }
    if (!Number.isInteger(quantity) || quantity <= 0) {
      problems.push({ segment: "IT1", message: `IT102 ${JSON.stringify(element(it1, 2))} of line ${lineId} is not a whole quantity.` });
      return;
    }
    const amount = multiply(element(it1, 2), element(it1, 4));
    subtotal += amount;
    let partNumber: string | undefined;
    for (let position = 6; element(it1, position) !== ""; position += 2) {
      if (element(it1, position) === "VC" || element(it1, position) === "VP") {
        partNumber = element(it1, position + 1);
        break;
      }
    }
    const pid = body[index + 1]?.id === "PID" ? body[index + 1] : undefined;
    request.lines.push({
      lineId,
      ...(partNumber ? { partNumber } : {}),
      ...(pid && element(pid, 5) ? { description: element(pid, 5) } : {}),
      quantity,
      unitPrice: fromScaled(toScaled(element(it1, 4)), 2),
      amount: fromScaled(amount, 2),
    });
  });
  const freight = body
    .filter((segment) => segment.id === "SAC" && element(segment, 1) === "C" && FREIGHT_CODES.has(element(segment, 2)))
    .reduce((sum, segment) => sum + n2(element(segment, 5) || "0"), 0n);
  const total = subtotal + freight;
  request.summary = { subtotal: fromScaled(subtotal, 2), tax: "0.00", freight: fromScaled(freight, 2), total: fromScaled(total, 2) };
  const tds = body.find((segment) => segment.id === "TDS");
  if (tds && n2(element(tds, 1)) !== total) {
    problems.push({
      segment: "TDS",
      message: `TDS01 says ${fromScaled(n2(element(tds, 1)), 2)}; the lines and freight add up to ${fromScaled(total, 2)}.`,
    });
  }
  if (element(big, 7) !== "CR") return { kind: "invoice", request, problems };
  // The header's REFs (before the first IT1): the invoice credited.
  const firstLine = body.findIndex((segment) => segment.id === "IT1");
  const header = firstLine < 0 ? body : body.slice(0, firstLine);
  const ref = CREDITED_INVOICE_REFS.map((code) => header.find((segment) => segment.id === "REF" && element(segment, 1) === code)).find(
    (found) => found !== undefined,
  );
  if (!ref || element(ref, 2) === "") {
    problems.push({ segment: "REF", message: "A credit memo (BIG07 CR) names the invoice it credits in REF*OI or REF*IV." });
  }
  const { invoiceNumber, invoiceDate, lines, ...rest } = request;
  return {
    kind: "credit-memo",
    request: {
      creditMemoNumber: invoiceNumber,
      orderNumber: rest.orderNumber,
      invoiceNumber: ref ? element(ref, 2) : "",
      creditDate: invoiceDate,
      currency: rest.currency,
      lines: lines.map(({ lineId, quantity, unitPrice, amount }) => ({ lineId, quantity, unitPrice, amount })),
      summary: rest.summary,
    },
    problems,
  };
}

function emptyRequest(): InvoiceRequest {
  return {
    invoiceNumber: "",
    orderNumber: "",
    invoiceDate: "",
    currency: "USD",
    lines: [],
    summary: { subtotal: "0.00", tax: "0.00", freight: "0.00", total: "0.00" },
  };
}
