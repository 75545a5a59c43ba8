import { expect } from "vitest";
import { generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import type { FunctionalGroup } from "../../src/operator/edi/x12/document";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { type WriteSegment, writeInterchange } from "../../src/operator/edi/x12/writer";
import { freshOrder, readOrder } from "./orders";
import { storeRowsById } from "./stores";
import { vendorOf } from "./vendors";

/** A valid X12 trading partner's settings (POST /admin/api/edi-partners without vendorId), its sender unique per call. */
export function partnerInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Acme Surgical EDI",
    usage: "production",
    partnerIdentity: { qualifier: "ZZ", id: `ACME${crypto.randomUUID().slice(0, 8).toUpperCase()}` },
    ourIdentity: { qualifier: "ZZ", id: "MEDPARTS" },
    partnerApplicationId: "ACMESURG",
    ourApplicationId: "MEDPARTS",
    version: "004010",
    delimiters: { element: "*", component: ">", segment: "~" },
    acknowledgment: "997",
    documents: ["850", "855", "856", "810"],
    transport: { kind: "mailbox" },
    ...overrides,
  };
}

// Partners' documents, written as their translators would (test/edi/apply.test.ts, test/edi/transport.test.ts).

export const ccyymmdd = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
export const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
export const shippedNow = (): [string, string] => {
  const at = new Date(Date.now() + 60_000).toISOString();
  return [at.slice(0, 10).replaceAll("-", ""), at.slice(11, 16).replace(":", "")];
};
export const unique = () => crypto.randomUUID().slice(0, 8).toUpperCase();
export const seg = (id: string, ...elements: string[]): WriteSegment => ({ id, elements });

const FUNCTIONAL_IDS: Record<string, string> = { "855": "PR", "856": "SH", "810": "IN", "832": "SC", "997": "FA" };
let nextControl = 1;

export interface PartnerSet {
  id: string;
  segments: WriteSegment[];
}

/** The envelope of a partner's file: its sender (ISA06, GS02), our receiver id, its usage; a new control number each time. */
export interface PartnerEnvelope {
  senderId?: string;
  receiverId?: string;
  usage?: "P" | "T";
  controlNumber?: number;
}

/** A partner's interchange of one group of these sets, as text (GS01 from the first set's id). */
export function partnerFile(sets: PartnerSet[], envelope: PartnerEnvelope = {}): string {
  const control = envelope.controlNumber ?? nextControl++;
  const senderId = envelope.senderId ?? "EDIAPPLYSUPPLY";
  const receiverId = envelope.receiverId ?? "MEDPARTS";
  return writeInterchange({
    delimiters: { element: "*", component: ">", segment: "~", lineBreak: "\n" },
    envelope: {
      senderQualifier: "ZZ",
      senderId,
      receiverQualifier: "ZZ",
      receiverId,
      date: ccyymmdd().slice(2),
      time: "1200",
      version: "00401",
      controlNumber: control,
      acknowledgmentRequested: false,
      usage: envelope.usage ?? "P",
    },
    groups: [
      {
        envelope: {
          functionalId: FUNCTIONAL_IDS[sets[0]!.id]!,
          senderId,
          receiverId,
          date: ccyymmdd(),
          time: "1200",
          controlNumber: control,
          version: "004010",
        },
        sets: sets.map((set, index) => ({ id: set.id, controlNumber: index + 1, segments: set.segments })),
      },
    ],
  });
}

/** One group of these sets, written as a partner's interchange and read back: a real parsed group. */
export function groupOf(sets: PartnerSet[]): FunctionalGroup {
  const text = partnerFile(sets);
  const [interchange] = readX12(text).interchanges;
  expect(interchange!.problems).toEqual([]);
  return interchange!.groups[0]!;
}

/** An 855 confirming lines: each its PO1 (id, quantity, price), ACK (code, quantity, ship date) and, for a price change, CTP*CON. */
export const set855 = (
  orderNumber: string,
  lines: { lineId: number; quantity: number; price: string; code: string; newPrice?: string }[],
) => ({
  id: "855",
  segments: [
    seg("BAK", "00", "AC", orderNumber, ccyymmdd()),
    ...lines.flatMap((line) => [
      seg("PO1", String(line.lineId), String(line.quantity), "EA", line.price, "", "VC", `SKU-${line.lineId}`),
      ...(line.newPrice ? [seg("CTP", "", "CON", line.newPrice)] : []),
      seg("ACK", line.code, String(line.quantity), "EA", "068", ccyymmdd(1)),
    ]),
    seg("CTT", String(lines.length)),
  ],
});

/** An 856 of one shipment: each item its line, quantity, GTIN, lot, expiry and serials. */
export const set856 = (
  orderNumber: string,
  tracking: string,
  items: { lineId: number; quantity: number; gtin?: string; lot?: string; serials?: string[] }[],
) => {
  let hl = 1;
  const segments: WriteSegment[] = [
    seg("BSN", "00", `ASN-${tracking}`, ...shippedNow()),
    seg("HL", String(hl++), "", "S"),
    seg("TD5", "B", "2", "UPSN", "U", "UPS GROUND"),
    seg("REF", "CN", tracking),
    // Shipped now (a minute ahead, as HHMM drops the seconds; the API takes 5 minutes of clock skew): after the order was placed.
    seg("DTM", "011", ...shippedNow()),
    seg("HL", String(hl++), "1", "O"),
    seg("PRF", orderNumber),
  ];
  for (const item of items) {
    segments.push(
      seg("HL", String(hl++), "2", "I"),
      seg(
        "LIN",
        String(item.lineId),
        "VC",
        `SKU-${item.lineId}`,
        ...(item.gtin ? ["UK", item.gtin] : []),
        ...(item.lot ? ["LT", item.lot] : []),
      ),
      seg("SN1", "", String(item.quantity), "EA"),
      ...(item.gtin ? [seg("DTM", "036", "20301231")] : []),
      ...(item.serials ?? []).map((serial) => seg("REF", "SE", serial)),
    );
  }
  segments.push(seg("CTT", String(items.length)));
  return { id: "856", segments };
};

/** An 810 billing lines of one order at their prices (TDS the lines' total, in cents). */
export const set810 = (orderNumber: string, invoiceNumber: string, lines: { lineId: number; quantity: number; price: string }[]) => {
  const totalCents = lines.reduce((sum, line) => sum + line.quantity * Math.round(Number(line.price) * 100), 0);
  return {
    id: "810",
    segments: [
      seg("BIG", ccyymmdd(), invoiceNumber, "", orderNumber),
      seg("CUR", "SE", "USD"),
      ...lines.map((line) => seg("IT1", String(line.lineId), String(line.quantity), "EA", line.price, "", "VC", `SKU-${line.lineId}`)),
      seg("TDS", String(totalCents)),
      seg("CTT", String(lines.length)),
    ],
  };
};

/** An 832 of items: each its SKU (VC), GTIN (UK) and list price (CTP*CAT), per each. */
export const set832 = (items: { sku: string; gtin: string; price: string }[]) => ({
  id: "832",
  segments: [
    seg("BCT", "PC", `CAT-${unique()}`),
    ...items.flatMap((item, index) => [
      seg("LIN", String(index + 1), "VC", item.sku, "UK", item.gtin),
      seg("CTP", "", "CAT", item.price, "", "EA"),
    ]),
    seg("CTT", String(items.length)),
  ],
});

/**
 * An order of `lines` lines of one vendor (`vendorId`, or whichever comes up), with the lines' prices: fresh orders
 * until their lines share that vendor (the demo catalog's products go round its vendors; at most 100 tries).
 */
export async function orderOfOneVendor(lines: number, quantity: number, vendorId?: number) {
  for (let tries = 0; tries < 100; tries++) {
    const order = await freshOrder(lines, { quantity });
    const vendors = await Promise.all(order.lineIds.map((lineId) => vendorOf(lineId)));
    if (vendors.every((vendor) => vendor === (vendorId ?? vendors[0]))) {
      const { lineItems } = await readOrder(order.orderNumber);
      const prices = lineItems.map((line: { price: number }) => line.price.toFixed(2));
      return { ...order, vendorId: vendors[0]!, prices: prices as string[] };
    }
  }
  throw new Error(`no order of ${lines} lines of vendor ${vendorId} in 100 tries`);
}

/** The unit GTIN-14 of the line's product (src/dev/seed/catalog.ts). */
export async function gtinOfLine(lineId: number): Promise<string> {
  const product = (await storeRowsById(lineId, "SELECT product_id FROM order_lines WHERE id = ?", lineId))[0]!.product_id as string;
  return generateDeviceIdentifiers(Number(product.slice(3)) - 1)[0]!.deviceId;
}
