import type { Segment, TransactionSet } from "../x12/document";
import { element } from "../x12/elements";
import type { WriteSegment } from "../x12/writer";
import { DecimalError, fromScaled, multiply, toScaled } from "./decimal";

/**
 * The X12 850 (purchase order) Medparts sends a vendor's partner for its lines of an order (docs/edi.md, "Mapping"),
 * and the same mapping read back (the sandbox's simulated supplier, and the round-trip tests). Which element carries
 * what is data (PARTY_MAP, ITEM_ID_QUALIFIERS, the element positions below), the same for 004010 and 005010: the
 * segments used here did not change between them.
 */

export interface PartyAddress {
  line1: string;
  line2?: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface Party {
  name: string;
  /** N104 with N103 = 92 (assigned by the buyer): Medparts' facility or tenant reference. */
  id: string;
  address?: PartyAddress;
}

/** An item identifier: VC vendor catalog number (the vendor's SKU), MG manufacturer part, UK GTIN-14, IN buyer's item, N4 NDC. */
export interface ItemId {
  qualifier: (typeof ITEM_ID_QUALIFIERS)[number];
  id: string;
}

export interface PurchaseOrderLine {
  lineNumber: string;
  /** Decimal text (X12 R). */
  quantity: string;
  /** Unit of measure (X12 355), e.g. EA, BX, CS. */
  unit: string;
  /** Decimal text, the unit price in the order's currency. */
  unitPrice: string;
  itemIds: ItemId[];
  description?: string;
}

export interface PurchaseOrder {
  /** BEG01: 00 original, 01 cancellation. */
  purpose: "00" | "01";
  poNumber: string;
  /** CCYYMMDD. */
  orderDate: string;
  currency: string;
  buyer: Party;
  shipTo: Party;
  billTo?: Party;
  /** DTM*002, CCYYMMDD. */
  requestedDelivery?: string;
  lines: PurchaseOrderLine[];
}

export const ITEM_ID_QUALIFIERS = ["VC", "VP", "MG", "UK", "IN", "N4"] as const;
const PARTY_MAP = { buyer: "BY", shipTo: "ST", billTo: "BT" } as const;
/** N1 identification code qualifier: assigned by the buyer (Medparts). */
const BUYER_ASSIGNED = "92";
/** PO105: the unit price's basis, price per each unit of PO103. */
export const PRICE_PER_UNIT = "PE";

export class PurchaseOrderError extends Error {}

function partySegments(code: string, party: Party): WriteSegment[] {
  const segments: WriteSegment[] = [{ id: "N1", elements: [code, party.name, BUYER_ASSIGNED, party.id] }];
  if (party.address) {
    const { line1, line2, city, state, zip, country } = party.address;
    segments.push({ id: "N3", elements: line2 ? [line1, line2] : [line1] }, { id: "N4", elements: [city, state, zip, country] });
  }
  return segments;
}

/** The line's extended amount and the order's total, exactly. */
export function orderTotal(order: Pick<PurchaseOrder, "lines">): string {
  return fromScaled(
    order.lines.reduce((sum, line) => sum + multiply(line.quantity, line.unitPrice), 0n),
    2,
  );
}

/** The segments between ST and SE of the 850 for `order`. */
export function purchaseOrderSegments(order: PurchaseOrder): WriteSegment[] {
  if (order.lines.length === 0) throw new PurchaseOrderError("A purchase order has at least one line.");
  const segments: WriteSegment[] = [
    { id: "BEG", elements: [order.purpose, "SA", order.poNumber, "", order.orderDate] },
    { id: "CUR", elements: ["BY", order.currency] },
  ];
  if (order.requestedDelivery) segments.push({ id: "DTM", elements: ["002", order.requestedDelivery] });
  for (const [key, code] of Object.entries(PARTY_MAP) as [keyof typeof PARTY_MAP, string][]) {
    const party = order[key];
    if (party) segments.push(...partySegments(code, party));
  }
  for (const line of order.lines) {
    segments.push({
      id: "PO1",
      elements: [
        line.lineNumber,
        line.quantity,
        line.unit,
        line.unitPrice,
        PRICE_PER_UNIT,
        ...line.itemIds.flatMap(({ qualifier, id }) => [qualifier, id]),
      ],
    });
    if (line.description) segments.push({ id: "PID", elements: ["F", "", "", "", line.description] });
  }
  const quantities = order.lines.reduce((sum, line) => sum + toScaled(line.quantity), 0n);
  segments.push(
    { id: "CTT", elements: [String(order.lines.length), fromScaled(quantities)] },
    { id: "AMT", elements: ["TT", orderTotal(order)] },
  );
  return segments;
}

/** What reading an 850 found wrong with it: its totals, or a value that is not what its element takes. */
export interface PurchaseOrderProblem {
  segment: string;
  message: string;
}

function readParty(segments: Segment[], index: number): Party {
  const n1 = segments[index]!;
  const party: Party = { name: element(n1, 2), id: element(n1, 4) };
  const n3 = segments[index + 1]?.id === "N3" ? segments[index + 1] : undefined;
  const n4 = segments[index + (n3 ? 2 : 1)];
  if (n3 && n4?.id === "N4") {
    party.address = {
      line1: element(n3, 1),
      ...(element(n3, 2) ? { line2: element(n3, 2) } : {}),
      city: element(n4, 1),
      state: element(n4, 2),
      zip: element(n4, 3),
      country: element(n4, 4),
    };
  }
  return party;
}

/** An 850 read back into the record it maps, with the problems of its totals (CTT, AMT*TT) against its lines. */
export function readPurchaseOrder(set: TransactionSet): { order: PurchaseOrder; problems: PurchaseOrderProblem[] } {
  const body = set.segments.filter((segment) => segment.id !== "ST" && segment.id !== "SE");
  const problems: PurchaseOrderProblem[] = [];
  const beg = body.find((segment) => segment.id === "BEG");
  if (!beg) throw new PurchaseOrderError("An 850 without BEG.");
  const order: PurchaseOrder = {
    purpose: element(beg, 1) === "01" ? "01" : "00",
    poNumber: element(beg, 3),
    orderDate: element(beg, 5),
    currency: element(body.find((segment) => segment.id === "CUR") ?? { id: "CUR", elements: [] }, 2) || "USD",
    buyer: { name: "", id: "" },
    shipTo: { name: "", id: "" },
    lines: [],
  };
  const requested = body.find((segment) => segment.id === "DTM" && element(segment, 1) === "002");
  if (requested) order.requestedDelivery = element(requested, 2);
  body.forEach((segment, index) => {
    if (segment.id === "N1") {
      const key = (Object.keys(PARTY_MAP) as (keyof typeof PARTY_MAP)[]).find((k) => PARTY_MAP[k] === element(segment, 1));
      if (key) order[key] = readParty(body, index);
    }
    if (segment.id === "PO1") {
      const itemIds: ItemId[] = [];
      for (let position = 6; element(segment, position) !== ""; position += 2) {
        const qualifier = element(segment, position) as ItemId["qualifier"];
        if (ITEM_ID_QUALIFIERS.includes(qualifier)) itemIds.push({ qualifier, id: element(segment, position + 1) });
      }
      const line: PurchaseOrderLine = {
        lineNumber: element(segment, 1),
        quantity: element(segment, 2),
        unit: element(segment, 3),
        unitPrice: element(segment, 4),
        itemIds,
      };
      const pid = body[index + 1];
      if (pid?.id === "PID" && element(pid, 1) === "F") line.description = element(pid, 5);
      order.lines.push(line);
    }
  });
  try {
    const ctt = body.find((segment) => segment.id === "CTT");
    if (ctt && Number(element(ctt, 1)) !== order.lines.length) {
      problems.push({ segment: "CTT", message: `CTT01 says ${element(ctt, 1)} lines; the order has ${order.lines.length}.` });
    }
    const amount = body.find((segment) => segment.id === "AMT" && element(segment, 1) === "TT");
    if (amount && toScaled(element(amount, 2)) !== toScaled(orderTotal(order))) {
      problems.push({ segment: "AMT", message: `AMT*TT says ${element(amount, 2)}; its lines add up to ${orderTotal(order)}.` });
    }
  } catch (error) {
    if (!(error instanceof DecimalError)) throw error;
    problems.push({ segment: "PO1", message: error.message });
  }
  return { order, problems };
}
