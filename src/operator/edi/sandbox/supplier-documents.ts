import { fromScaled, multiply } from "../mapping/decimal";
import { type WriteSegment, writeInterchange } from "../x12/writer";

/**
 * A supplier's X12 documents, written as its translator would: the 855, 856, 810, 832 and 997 it sends Medparts, in
 * one partner interchange each. The sandbox's simulated supplier answers with them (./simulated-supplier.ts); the
 * tests and `npm run demo -- --edi` send them as partners (src/dev/edi/partner-documents.ts): one copy of what a
 * partner sends.
 */

export const ccyymmdd = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
export const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
export const shippedNow = (): [string, string] => {
  const at = new Date(Date.now() + 60_000).toISOString();
  return [at.slice(0, 10).replaceAll("-", ""), at.slice(11, 16).replace(":", "")];
};
export const unique = () => crypto.randomUUID().slice(0, 8).toUpperCase();
export const seg = (id: string, ...elements: string[]): WriteSegment => ({ id, elements });

const FUNCTIONAL_IDS: Record<string, string> = { "855": "PR", "856": "SH", "810": "IN", "832": "SC", "997": "FA" };

export interface PartnerSet {
  id: string;
  segments: WriteSegment[];
}

/** The envelope of a partner's file: its sender (ISA06, GS02), our receiver id, its usage, its control number. */
export interface PartnerEnvelope {
  senderId?: string;
  receiverId?: string;
  usage?: "P" | "T";
  controlNumber: number;
}

/** A partner's interchange of one group of these sets, as text (GS01 from the first set's id), version 004010. */
export function supplierInterchange(sets: PartnerSet[], envelope: PartnerEnvelope): string {
  const control = envelope.controlNumber;
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

/** An 855 confirming lines: each its PO1 (id, quantity, price, VC the SKU, default `SKU-{lineId}`), ACK (code, quantity, ship date) and, for a price change, CTP*CON. */
export const set855 = (
  orderNumber: string,
  lines: { lineId: number; quantity: number; price: string; code: string; newPrice?: string; sku?: string }[],
) => ({
  id: "855",
  segments: [
    seg("BAK", "00", "AC", orderNumber, ccyymmdd()),
    ...lines.flatMap((line) => [
      seg("PO1", String(line.lineId), String(line.quantity), "EA", line.price, "", "VC", line.sku ?? `SKU-${line.lineId}`),
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
  items: { lineId: number; quantity: number; gtin?: string; lot?: string; serials?: string[]; sku?: string }[],
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
        item.sku ?? `SKU-${item.lineId}`,
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

/** An 810 billing lines of one order at their prices (TDS the lines' total, in cents, exactly). */
export const set810 = (
  orderNumber: string,
  invoiceNumber: string,
  lines: { lineId: number; quantity: number; price: string; sku?: string }[],
) => {
  const total = lines.reduce((sum, line) => sum + multiply(String(line.quantity), line.price), 0n);
  const totalCents = fromScaled(total * 100n, 0);
  return {
    id: "810",
    segments: [
      seg("BIG", ccyymmdd(), invoiceNumber, "", orderNumber),
      seg("CUR", "SE", "USD"),
      ...lines.map((line) =>
        seg("IT1", String(line.lineId), String(line.quantity), "EA", line.price, "", "VC", line.sku ?? `SKU-${line.lineId}`),
      ),
      seg("TDS", totalCents),
      seg("CTT", String(lines.length)),
    ],
  };
};

/** An 810 credit memo (BIG07 CR) of invoice `invoiceNumber` (REF*IV) on the order: the units credited at their price. */
export const setCredit810 = (
  orderNumber: string,
  creditMemoNumber: string,
  invoiceNumber: string,
  lines: { lineId: number; quantity: number; price: string; sku?: string }[],
) => {
  const invoice = set810(orderNumber, creditMemoNumber, lines);
  const [, ...rest] = invoice.segments;
  return {
    ...invoice,
    segments: [seg("BIG", ccyymmdd(), creditMemoNumber, "", orderNumber, "", "", "CR"), seg("REF", "IV", invoiceNumber), ...rest],
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
 * A 997 accepting a group of ours: AK1 its functional id and GS06, per set AK2 (id, ST02) and AK5 `A`, AK9 `A` with
 * the counts.
 */
export const set997 = (group: { functionalId: string; controlNumber: string; sets: { id: string; controlNumber: string }[] }) => ({
  id: "997",
  segments: [
    seg("AK1", group.functionalId, group.controlNumber),
    ...group.sets.flatMap((set) => [seg("AK2", set.id, set.controlNumber), seg("AK5", "A")]),
    seg("AK9", "A", String(group.sets.length), String(group.sets.length), String(group.sets.length)),
  ],
});
