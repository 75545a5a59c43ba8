import { MARKET_CURRENCY } from "../../../platform/money";
import { type ControlNumbers, reserveControlNumbers } from "../control-numbers";
import { centsToDecimal } from "../mapping/decimal";
import { deletionOf, orderChangeSegments } from "../mapping/order-change";
import { type Party, type PurchaseOrder, PurchaseOrderError, purchaseOrderSegments } from "../mapping/purchase-order";
import { partnerInterchange } from "../partner-interchange";
import type { Partner } from "../partners/schemas";
import type { WriteSegment } from "../x12/writer";

/**
 * The 850 Medparts sends a vendor's partner for its lines of one order (docs/edi.md, "Sending the 850"): the lines as
 * the vendor reads them (the vendor API's VendorOrderLine, src/api/vendors/lines.ts) made into the mapping's
 * PurchaseOrder, then written in the partner's envelope with the control numbers reserved for the document's reference.
 */

/**
 * What the 850 reads of a vendor's order line: the fields of the vendor API's VendorOrderLine it uses. Declared here
 * because the operator plane imports no API Worker code (test/architecture); the API's type is assignable to it (a
 * compile-time check in test/edi/outbound.test.ts).
 */
export interface OutboundLine {
  lineId: number;
  orderNumber: string;
  lineNumber: number;
  /** ISO 8601: the order's creation. */
  orderDate: string;
  statusName: string;
  partNumber: string;
  description: string | null;
  quantity: number;
  /** The unit price: a number of at most two decimals (the API's money), or decimal text. */
  price: number | string;
  poNumber: string | null;
  shipTo: { attentionTo: string | null; address1: string; city: string; state: string; zip: string; country: string };
}

/** The buyer of every 850: Medparts, with the tenant as the account (N104, assigned by the buyer). */
export const BUYER_NAME = "MEDPARTS";
export const buyerId = (tenantId: number) => `T${tenantId}`;
/** PO103 when the line does not say its unit: each. */
const DEFAULT_UNIT = "EA";

/** X12 maximum lengths of the free text the 850 carries (N102, N301, N401, N403, PID05). */
const MAX = { name: 60, address: 55, city: 30, zip: 15, description: 80 } as const;

export const priceText = (price: number | string) => {
  if (typeof price === "string") return price;
  if (!Number.isFinite(price)) throw new PurchaseOrderError(`Not a price: ${price}.`);
  return centsToDecimal(Math.round(price * 100));
};

/**
 * The PurchaseOrder of one order's lines for one vendor: PO101 the Medparts line id, BEG03 the line's PO number or
 * else the order number, BEG05 the order's date, the buyer Medparts with the tenant's id (`T{tenantId}`; the vendor
 * API shows a vendor no more of its buyer), the ship-to the order's address (named by its attention line), each line's
 * part number as its VC (the vendor's catalog number), unit EA, its price per unit.
 */
export function purchaseOrderOf(lines: readonly OutboundLine[], tenantId: number, purpose: "00" | "01"): PurchaseOrder {
  const [first] = lines;
  if (!first) throw new PurchaseOrderError("A purchase order has at least one line.");
  const other = lines.find((line) => line.orderNumber !== first.orderNumber);
  if (other) throw new PurchaseOrderError(`One order per 850: ${first.orderNumber} and ${other.orderNumber}.`);
  const ordered = [...lines].sort((a, b) => a.lineNumber - b.lineNumber || a.lineId - b.lineId);
  const orderDate = new Date(first.orderDate);
  if (Number.isNaN(orderDate.getTime())) throw new PurchaseOrderError(`Not an order date: ${first.orderDate}.`);
  const shipTo: Party = {
    name: first.shipTo.attentionTo?.trim() || "SHIP TO",
    id: buyerId(tenantId),
    address: {
      line1: first.shipTo.address1,
      city: first.shipTo.city,
      state: first.shipTo.state,
      zip: first.shipTo.zip,
      country: first.shipTo.country,
    },
  };
  return {
    purpose,
    poNumber: first.poNumber?.trim() || first.orderNumber,
    orderDate: orderDate.toISOString().slice(0, 10).replaceAll("-", ""),
    currency: MARKET_CURRENCY,
    buyer: { name: BUYER_NAME, id: buyerId(tenantId) },
    shipTo,
    lines: ordered.map((line) => ({
      lineNumber: String(line.lineId),
      quantity: String(line.quantity),
      unit: DEFAULT_UNIT,
      unitPrice: priceText(line.price),
      itemIds: [{ qualifier: "VC", id: line.partNumber }],
      ...(line.description ? { description: line.description } : {}),
    })),
  };
}

/**
 * Free text made fit for the partner's envelope: its delimiters and line breaks become spaces (a description may hold
 * a `*`), runs of spaces one, cut to the element's length. Identifiers (part numbers, PO numbers) are not touched: one
 * holding a delimiter is refused by the writer rather than sent changed.
 */
function fitText(value: string, partner: Partner, max: number): string {
  const separators = [partner.delimiters.element, partner.delimiters.component, partner.delimiters.segment, partner.delimiters.repetition];
  let text = value;
  for (const separator of separators) if (separator) text = text.replaceAll(separator, " ");
  return text.replace(/\s+/g, " ").trim().slice(0, max).trim();
}

function fitParty(party: Party, partner: Partner): Party {
  return {
    ...party,
    name: fitText(party.name, partner, MAX.name),
    ...(party.address
      ? {
          address: {
            ...party.address,
            line1: fitText(party.address.line1, partner, MAX.address),
            ...(party.address.line2 ? { line2: fitText(party.address.line2, partner, MAX.address) } : {}),
            city: fitText(party.address.city, partner, MAX.city),
            zip: fitText(party.address.zip, partner, MAX.zip),
          },
        }
      : {}),
  };
}

/** The order with its free text fit for the partner's delimiters and the elements' lengths. */
export function fitForPartner(order: PurchaseOrder, partner: Partner): PurchaseOrder {
  return {
    ...order,
    buyer: fitParty(order.buyer, partner),
    shipTo: fitParty(order.shipTo, partner),
    ...(order.billTo ? { billTo: fitParty(order.billTo, partner) } : {}),
    lines: order.lines.map(({ description, ...line }) => {
      const fitted = description ? fitText(description, partner, MAX.description) : "";
      return fitted ? { ...line, description: fitted } : line;
    }),
  };
}

export interface RenderedOrderDocument {
  text: string;
  numbers: ControlNumbers;
}

/** One set of an order document, in the group its kind goes in (GS01 PO for an 850, PC for an 860). */
export type OrderDocument = { id: "850"; segments: WriteSegment[] } | { id: "860"; segments: WriteSegment[] };
const FUNCTIONAL_ID: Record<OrderDocument["id"], string> = { "850": "PO", "860": "PC" };

export const purchaseOrderDocument = (order: PurchaseOrder, partner: Partner): OrderDocument => ({
  id: "850",
  segments: purchaseOrderSegments(fitForPartner(order, partner)),
});

/** The 860 deleting the lines `order` holds (its 850's mapping), dated `changedAt` (UTC). */
export const orderChangeDocument = (order: PurchaseOrder, changedAt: Date): OrderDocument => ({
  id: "860",
  segments: orderChangeSegments(deletionOf(order, changedAt.toISOString().slice(0, 10).replaceAll("-", ""))),
});

/**
 * The interchange carrying the document `make` gives (an 850 or an 860) to the partner, numbered from the control
 * numbers reserved for `reference` (one set) and dated with their reservation (`make` is given that moment, an 860's
 * change date): the same reference gives the same numbers and, for the same lines, the same bytes (a retry after a
 * crash, a message delivered twice).
 */
export async function renderOrderDocument(
  db: D1Database,
  partner: Partner,
  reference: string,
  make: (reservedAt: Date) => OrderDocument,
): Promise<RenderedOrderDocument> {
  const groupOf = (reservedAt: string) => {
    const document = make(new Date(reservedAt));
    return { functionalId: FUNCTIONAL_ID[document.id], version: partner.version, sets: [document] };
  };
  // Written once before the reservation: an order the mapping or the writer refuses (an identifier holding a
  // delimiter) takes no control number, so none is skipped in what the partner receives.
  const trial = new Date(0).toISOString();
  partnerInterchange(partner, { interchange: 1, group: 1, firstSet: 1, sets: 1, reservedAt: trial }, { group: groupOf(trial) });
  const numbers = await reserveControlNumbers(db, partner.id, reference, 1);
  return { text: partnerInterchange(partner, numbers, { group: groupOf(numbers.reservedAt) }), numbers };
}

export const render850 = (db: D1Database, partner: Partner, reference: string, order: PurchaseOrder) =>
  renderOrderDocument(db, partner, reference, () => purchaseOrderDocument(order, partner));
