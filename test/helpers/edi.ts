import { env } from "cloudflare:test";
import { expect } from "vitest";
import { type PartnerSet, partnerFile } from "../../src/dev/edi/partner-documents";
import { generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import type { FunctionalGroup } from "../../src/operator/edi/x12/document";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { freshOrder, readOrder } from "./orders";
import { storeRowsById } from "./stores";
import { vendorOf } from "./vendors";

// Partners' documents, written as their translators would (test/edi/apply.test.ts, test/edi/transport.test.ts), are
// src/dev/edi/partner-documents.ts's, shared with `npm run demo -- --edi`.
export {
  ccyymmdd,
  isoDay,
  type PartnerEnvelope,
  type PartnerSet,
  partnerFile,
  partnerInput,
  seg,
  set810,
  set832,
  set855,
  set856,
  set997,
  setCredit810,
  shippedNow,
  unique,
} from "../../src/dev/edi/partner-documents";

/** One group of these sets, written as a partner's interchange and read back: a real parsed group. */
export function groupOf(sets: PartnerSet[]): FunctionalGroup {
  const text = partnerFile(sets);
  const [interchange] = readX12(text).interchanges;
  expect(interchange!.problems).toEqual([]);
  return interchange!.groups[0]!;
}

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

/** A partner's control number counters (edi_control_numbers): the last interchange, group and set number given. */
export const counters = async (partnerId: number) =>
  Object.fromEntries(
    (
      await env.DB.prepare("SELECT kind, last FROM edi_control_numbers WHERE partner_id = ?")
        .bind(partnerId)
        .all<{ kind: string; last: number }>()
    ).results.map(({ kind, last }) => [kind, last]),
  );
