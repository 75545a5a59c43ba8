import { centsToText } from "../../platform/money";
import { type PurchasingSettings, type Tolerance, withinTolerance } from "../purchasing/settings";

/**
 * Three-way match (docs/api.md, "Invoices"): each invoice line against the order line it names (the PO, at its
 * confirmed revision: the price and quantity after every accepted change) and what shipped of it (the receipt). A pure
 * function of the order's lines and every invoice and credit memo of the vendor on the order, so a match is the same
 * whatever the order in which the invoices, credits and shipments arrived: quantities are compared in total per order
 * line, never first come first served. The first of these a line fails is its status:
 *
 * 1. `not_on_po`: it names no line of the vendor on the order;
 * 2. `contract_price_exception`: its unit price is above the buyer's contract price of the line (never tolerated);
 * 3. `price_variance`: its unit price differs from the line's by more than the tenant's price tolerance;
 *    (a line that credit memos corrected is priced net of them: its amount less theirs, over its units less theirs;
 *    a line whose whole amount is credited bills nothing)
 * 4. `quantity_variance`: the vendor's invoices, less its credits, bill more of the line than shipped (plus the tenant's
 *    quantity tolerance);
 * 5. else `matched`.
 */

export const MATCH_STATUSES = ["matched", "price_variance", "quantity_variance", "not_on_po", "contract_price_exception"] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

export interface MatchedOrderLine {
  id: number;
  priceCents: number;
  contractPriceCents: number | null;
  shippedQuantity: number;
}

export interface MatchedInvoiceLine {
  lineNumber: number;
  orderLineId: number | null;
  quantity: number;
  unitPriceCents: number;
  /** What the line bills; a line whose whole amount is credited bills no units any more. */
  amountCents?: number;
}

export interface MatchedCreditLine {
  /** The invoice and the line of it credited. */
  invoiceId: number;
  creditedLineNumber: number;
  /** Units returned or not billed after all: they no longer count as invoiced. */
  quantity: number;
  /** What it credits of the line. */
  amountCents?: number;
}

export interface MatchedInvoice {
  id: number;
  lines: readonly MatchedInvoiceLine[];
}

export interface LineMatch {
  lineNumber: number;
  status: MatchStatus;
  explanation: string;
}

const describe = (tolerance: Tolerance) => {
  const parts = [
    ...(tolerance.percentBp !== null ? [`${centsToText(tolerance.percentBp)}%`] : []),
    ...(tolerance.amountCents !== null ? [centsToText(tolerance.amountCents)] : []),
  ];
  return parts.length === 0 ? "none" : parts.join(" and ");
};

/** Each invoice's lines matched, by invoice id. */
export function matchInvoices(
  orderNumber: string,
  orderLines: readonly MatchedOrderLine[],
  invoices: readonly MatchedInvoice[],
  credits: readonly MatchedCreditLine[],
  settings: Pick<PurchasingSettings, "priceTolerance" | "quantityTolerance">,
): Map<number, LineMatch[]> {
  const byId = new Map(orderLines.map((line) => [line.id, line]));
  const invoiced = new Map<number, number>();
  const creditedOf = new Map<string, { quantity: number; amountCents: number }>();
  for (const credit of credits) {
    const key = `${credit.invoiceId}:${credit.creditedLineNumber}`;
    const sum = creditedOf.get(key) ?? { quantity: 0, amountCents: 0 };
    creditedOf.set(key, { quantity: sum.quantity + credit.quantity, amountCents: sum.amountCents + (credit.amountCents ?? 0) });
  }
  /** What a line bills once its credits are taken off: units and amount (none at all once its whole amount is credited). */
  const netOf = (invoiceId: number, line: MatchedInvoiceLine): Billed => {
    const credited = creditedOf.get(`${invoiceId}:${line.lineNumber}`) ?? { quantity: 0, amountCents: 0 };
    const amountCents = (line.amountCents ?? line.unitPriceCents * line.quantity) - credited.amountCents;
    const quantity = line.quantity - credited.quantity;
    return amountCents <= 0 && line.quantity > 0
      ? { quantity: 0, amountCents: 0, credited: true }
      : { quantity, amountCents, credited: credited.amountCents > 0 };
  };
  for (const invoice of invoices) {
    for (const line of invoice.lines) {
      if (line.orderLineId === null || !byId.has(line.orderLineId)) continue;
      invoiced.set(line.orderLineId, (invoiced.get(line.orderLineId) ?? 0) + netOf(invoice.id, line).quantity);
    }
  }
  const result = new Map<number, LineMatch[]>();
  for (const invoice of invoices) {
    result.set(
      invoice.id,
      invoice.lines.map((line) => ({
        lineNumber: line.lineNumber,
        ...matchLine(orderNumber, line, netOf(invoice.id, line), byId, invoiced, settings),
      })),
    );
  }
  return result;
}

interface Billed {
  quantity: number;
  amountCents: number;
  /** Credit memos credit some of it: its price is then its amount over its units, net of them. */
  credited: boolean;
}

function matchLine(
  orderNumber: string,
  line: MatchedInvoiceLine,
  billed: Billed,
  byId: ReadonlyMap<number, MatchedOrderLine>,
  invoiced: ReadonlyMap<number, number>,
  settings: Pick<PurchasingSettings, "priceTolerance" | "quantityTolerance">,
): { status: MatchStatus; explanation: string } {
  const ordered = line.orderLineId === null ? undefined : byId.get(line.orderLineId);
  if (!ordered) {
    return {
      status: "not_on_po",
      explanation:
        line.orderLineId === null
          ? `Names no line of order ${orderNumber}.`
          : `Line ${line.orderLineId} is not a line of this vendor on order ${orderNumber}.`,
    };
  }
  // Prices compare as totals over the units billed (exact integers): the net price of a credited line is a fraction.
  const units = billed.quantity;
  const price = billed.credited
    ? `${centsToText(billed.amountCents)} for ${units} unit(s) net of credits`
    : `${centsToText(line.unitPriceCents)} a unit`;
  if (units > 0 && ordered.contractPriceCents !== null && billed.amountCents > ordered.contractPriceCents * units) {
    return {
      status: "contract_price_exception",
      explanation: `Invoiced ${price}, above the buyer's contract price ${centsToText(ordered.contractPriceCents)} a unit for line ${ordered.id}.`,
    };
  }
  const tolerance = {
    percentBp: settings.priceTolerance.percentBp,
    amountCents: settings.priceTolerance.amountCents === null ? null : settings.priceTolerance.amountCents * units,
  };
  if (units > 0 && !withinTolerance(billed.amountCents - ordered.priceCents * units, ordered.priceCents * units, tolerance)) {
    return {
      status: "price_variance",
      explanation: `Invoiced ${price}; line ${ordered.id} of the order says ${centsToText(ordered.priceCents)} a unit (tolerance: ${describe(settings.priceTolerance)}).`,
    };
  }
  const total = invoiced.get(ordered.id) ?? 0;
  if (total > ordered.shippedQuantity + settings.quantityTolerance) {
    return {
      status: "quantity_variance",
      explanation: `Invoices bill ${total} of line ${ordered.id} in all (${units} here), but ${ordered.shippedQuantity} shipped (tolerance: ${settings.quantityTolerance}).`,
    };
  }
  return {
    status: "matched",
    explanation: `Matches line ${ordered.id}: ${price} as ordered, ${total} invoiced in all of ${ordered.shippedQuantity} shipped.`,
  };
}

/** An invoice's status from its lines' matches: matched when every line is. */
export const invoiceMatchStatus = (lines: readonly { status: MatchStatus }[]) =>
  lines.every((line) => line.status === "matched") ? ("matched" as const) : ("exception" as const);
