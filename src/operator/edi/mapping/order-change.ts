import type { TransactionSet } from "../x12/document";
import { element } from "../x12/elements";
import type { WriteSegment } from "../x12/writer";
import {
  ITEM_ID_QUALIFIERS,
  type ItemId,
  PRICE_PER_UNIT,
  type PurchaseOrder,
  PurchaseOrderError,
  type PurchaseOrderLine,
} from "./purchase-order";

/**
 * The X12 860 (purchase order change request, buyer initiated) Medparts sends a partner whose `orderChanges` is `860`
 * (docs/edi.md, "Order changes"), and the same mapping read back (the round-trip tests). Today's only buyer change
 * that reaches a vendor is a cancellation of lines (the buyer's, or a vendor's proposal declined), so a change is
 * BCH01 `04` (change) naming each cancelled line by its PO101 with POC02 `DI` (delete item), its quantity ordered and
 * nothing left to receive. The same segments for 004010 and 005010.
 */

/** POC02 codes Medparts sends: DI delete item. */
export const LINE_CHANGE_CODES = ["DI"] as const;

export interface OrderChangeLine extends Omit<PurchaseOrderLine, "description"> {
  change: (typeof LINE_CHANGE_CODES)[number];
  /** POC04: what is left to receive after the change (decimal text); 0 for a deleted line. */
  quantityLeft: string;
}

export interface OrderChange {
  /** BCH01: 04 change (lines named by POC). */
  purpose: "04";
  poNumber: string;
  /** BCH06, CCYYMMDD: the order's date, as its 850's BEG05. */
  orderDate: string;
  /** BCH11, CCYYMMDD: the date of the change. */
  changeDate: string;
  currency: string;
  lines: OrderChangeLine[];
}

/** The change that deletes `order`'s lines (those of the 850 it was sent as), dated `changeDate`. */
export function deletionOf(order: PurchaseOrder, changeDate: string): OrderChange {
  return {
    purpose: "04",
    poNumber: order.poNumber,
    orderDate: order.orderDate,
    changeDate,
    currency: order.currency,
    lines: order.lines.map(({ description: _, ...line }) => ({ ...line, change: "DI", quantityLeft: "0" })),
  };
}

/** The segments between ST and SE of the 860 for `change`. */
export function orderChangeSegments(change: OrderChange): WriteSegment[] {
  if (change.lines.length === 0) throw new PurchaseOrderError("An order change names at least one line.");
  return [
    { id: "BCH", elements: [change.purpose, "SA", change.poNumber, "", "", change.orderDate, "", "", "", "", change.changeDate] },
    { id: "CUR", elements: ["BY", change.currency] },
    ...change.lines.map((line) => ({
      id: "POC",
      elements: [
        line.lineNumber,
        line.change,
        line.quantity,
        line.quantityLeft,
        line.unit,
        line.unitPrice,
        PRICE_PER_UNIT,
        ...line.itemIds.flatMap(({ qualifier, id }) => [qualifier, id]),
      ],
    })),
    { id: "CTT", elements: [String(change.lines.length)] },
  ];
}

/** An 860 read back into the record it maps. */
export function readOrderChange(set: TransactionSet): OrderChange {
  const bch = set.segments.find((segment) => segment.id === "BCH");
  if (!bch || element(bch, 1) !== "04") throw new PurchaseOrderError("An 860 without BCH*04.");
  const lines = set.segments
    .filter((segment) => segment.id === "POC")
    .map((poc): OrderChangeLine => {
      const itemIds: ItemId[] = [];
      for (let position = 8; element(poc, position) !== ""; position += 2) {
        const qualifier = element(poc, position) as ItemId["qualifier"];
        if (ITEM_ID_QUALIFIERS.includes(qualifier)) itemIds.push({ qualifier, id: element(poc, position + 1) });
      }
      const change = element(poc, 2);
      if (!(LINE_CHANGE_CODES as readonly string[]).includes(change)) throw new PurchaseOrderError(`POC02 '${change}' is not sent.`);
      return {
        lineNumber: element(poc, 1),
        change: change as OrderChangeLine["change"],
        quantity: element(poc, 3),
        quantityLeft: element(poc, 4),
        unit: element(poc, 5),
        unitPrice: element(poc, 6),
        itemIds,
      };
    });
  const cur = set.segments.find((segment) => segment.id === "CUR");
  return {
    purpose: "04",
    poNumber: element(bch, 3),
    orderDate: element(bch, 6),
    changeDate: element(bch, 11),
    currency: (cur && element(cur, 2)) || "USD",
    lines,
  };
}
