import type { Segment, TransactionSet } from "../x12/document";
import { element } from "../x12/elements";

/**
 * The X12 856 (ship notice) a partner sends, read into the vendor API's ship requests, one per item (the gateway sends
 * each order's items of a parcel as one POST /vendor/api/shipments): it then ships as the vendor, through the same rules. The
 * hierarchy (HL: shipment S, order O, pack P, item I) gives each item its shipment's carrier, tracking number and ship
 * time; LIN01 is the Medparts line id (the 850's PO101, echoed), SN102 the quantity, and the units' UDIs are made from
 * the item's GTIN (LIN UK), expiry (DTM*036), lot (LIN LT or REF*LT) and serials (REF*SE), as GS1 bracketed element
 * strings, which the ship route reads as it reads a scanned code (lots and serials then feed order.shipped and recalls).
 */

export interface ShipRequest {
  trackingNumber: string;
  carrierName?: string;
  quantity: number;
  shippedAt?: string;
  units?: string[];
}

export interface ShipNotice {
  /** BSN02: the partner's shipment id. */
  shipmentId: string;
  /** PRF01 of the order level: the PO number. */
  poNumber: string;
  /** `order`: PRF01 of the item's order level (HL O), the order it says the line is of; "" when none. */
  items: { lineId: number; order: string; request: ShipRequest }[];
  problems: { segment: string; message: string }[];
}

/** A LIN's or REF's value by its qualifier (pairs from `first`). */
function qualified(segment: Segment, qualifier: string, first = 2): string | undefined {
  for (let position = first; element(segment, position) !== ""; position += 2) {
    if (element(segment, position) === qualifier) return element(segment, position + 1);
  }
  return undefined;
}

/** CCYYMMDD and HHMM (DTM02, DTM03) as an instant, UTC when the partner does not say (DTM04). */
function instant(date: string, time: string): string | undefined {
  if (!/^\d{8}$/.test(date)) return undefined;
  const hhmm = /^\d{4}/.test(time) ? `${time.slice(0, 2)}:${time.slice(2, 4)}` : "00:00";
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T${hhmm}:00.000Z`;
}

/** The units' GS1 codes of an item: one per serial, or one for its lot and expiry; none without a GTIN-14. */
function unitCodes(gtin: string | undefined, expiry: string | undefined, lot: string | undefined, serials: string[]): string[] | undefined {
  if (!gtin || !/^\d{14}$/.test(gtin)) return undefined;
  const base = `(01)${gtin}${expiry && /^\d{8}$/.test(expiry) ? `(17)${expiry.slice(2)}` : ""}${lot ? `(10)${lot}` : ""}`;
  if (serials.length > 0) return serials.map((serial) => `${base}(21)${serial}`);
  return expiry || lot ? [base] : undefined;
}

export function shipmentsFrom856(set: TransactionSet): ShipNotice {
  const segments = set.segments;
  const bsn = segments.find((segment) => segment.id === "BSN");
  const problems: ShipNotice["problems"] = [];
  const notice: ShipNotice = { shipmentId: bsn ? element(bsn, 2) : "", poNumber: "", items: [], problems };
  // The HL levels in order: each level's segments until the next HL.
  const levels: { code: string; segments: Segment[] }[] = [];
  for (const segment of segments) {
    if (segment.id === "HL") levels.push({ code: element(segment, 3), segments: [] });
    else levels.at(-1)?.segments.push(segment);
  }
  let carrierName: string | undefined;
  let trackingNumber: string | undefined;
  let shippedAt: string | undefined;
  let packCode: string | undefined;
  let order = "";
  for (const level of levels) {
    const find = (id: string, first?: string) =>
      level.segments.find((s) => s.id === id && (first === undefined || element(s, 1) === first));
    if (level.code === "S") {
      const td5 = find("TD5");
      carrierName = td5 ? element(td5, 5) || element(td5, 3) || undefined : undefined;
      trackingNumber = find("REF", "CN") ? element(find("REF", "CN")!, 2) : undefined;
      const shipped = find("DTM", "011");
      shippedAt = shipped ? instant(element(shipped, 2), element(shipped, 3)) : undefined;
    }
    if (level.code === "O") {
      order = find("PRF") ? element(find("PRF")!, 1) : "";
      notice.poNumber ||= order;
    }
    if (level.code === "P") packCode = find("MAN") ? element(find("MAN")!, 2) : undefined;
    if (level.code !== "I") continue;
    const lin = find("LIN");
    const sn1 = find("SN1");
    if (!lin || !sn1) {
      problems.push({ segment: lin ? "SN1" : "LIN", message: "An item level without LIN and SN1." });
      continue;
    }
    const lineId = Number(element(lin, 1));
    const quantity = Number(element(sn1, 2));
    if (!Number.isSafeInteger(lineId) || lineId <= 0) {
      problems.push({ segment: "LIN", message: `LIN01 ${JSON.stringify(element(lin, 1))} is not a Medparts line id.` });
      continue;
    }
    if (!Number.isInteger(quantity) || quantity <= 0) {
      problems.push({ segment: "SN1", message: `SN102 ${JSON.stringify(element(sn1, 2))} of line ${lineId} is not a whole quantity.` });
      continue;
    }
    const tracking = trackingNumber ?? packCode;
    if (!tracking) {
      problems.push({ segment: "REF", message: `No tracking number (REF*CN) or pack code (MAN*GM) for line ${lineId}.` });
      continue;
    }
    const lot = qualified(lin, "LT") ?? (find("REF", "LT") ? element(find("REF", "LT")!, 2) : undefined);
    const expiry = find("DTM", "036") ? element(find("DTM", "036")!, 2) : undefined;
    const serials = level.segments.filter((s) => s.id === "REF" && element(s, 1) === "SE").map((s) => element(s, 2));
    const units = unitCodes(qualified(lin, "UK"), expiry, lot, serials);
    notice.items.push({
      lineId,
      order,
      request: {
        trackingNumber: tracking,
        ...(carrierName ? { carrierName } : {}),
        quantity,
        ...(shippedAt ? { shippedAt } : {}),
        ...(units ? { units } : {}),
      },
    });
  }
  return notice;
}
