import { env } from "cloudflare:test";
import { expect } from "vitest";
import { generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import { GS } from "../../src/shared/udi/gs1";
import { json } from "../helpers/api";
import { freshOrder, issueQuotes, JSMITH, lineFor, type Orderer, orderBody, placeOrder, readOrder, withoutFields } from "../helpers/orders";
import { storeRows, storeRowsById } from "../helpers/stores";
import { BODIES, move } from "../helpers/vendors";

export const RECALL_IMPORTS = "/admin/api/recalls/imports";

/** A unit's GS1 code of demo product `index`: its unit GTIN, an expiry, a lot and a serial. */
export const unitCode = (index: number, lot: string, serial: string) =>
  `]d201${generateDeviceIdentifiers(index)[0]!.deviceId}17301231` + `10${lot}${GS}21${serial}`;

export const unitGtin = (index: number) => generateDeviceIdentifiers(index)[0]!.deviceId;

/** An order of one line of demo product `productId` (MP-0000123), `quantity` of it. */
async function orderOf(productId: string, quantity: number, who: Orderer) {
  const quote = (await issueQuotes(productId, who)).find(withoutFields);
  if (!quote) throw new Error(`no quote of ${productId} without custom fields`);
  const res = await placeOrder(orderBody([lineFor(quote, quantity)], who), { tenantId: who.tenantId });
  expect(res.status).toBe(201);
  const { orderNumber } = (await json(res)).data;
  const record = await readOrder(orderNumber, who.tenantId);
  return { orderNumber, lineIds: record.lineItems.map((l: { lineId: number }) => l.lineId) as number[] };
}

/**
 * A fresh order of one line for the orderer (of `productId`, else the next demo product), acknowledged and shipped with
 * units of the given lots and serials.
 */
export async function shippedUnits(
  units: { lot: string; serial: string }[],
  { who = JSMITH, productId }: { who?: Orderer; productId?: string } = {},
  tracking = `1ZRCL${crypto.randomUUID().slice(0, 8)}`,
) {
  const order = productId ? await orderOf(productId, units.length, who) : await freshOrder(1, { quantity: units.length, who });
  const lineId = order.lineIds[0]!;
  expect((await move(lineId, "acknowledge", BODIES.acknowledge())).status).toBe(200);
  const product = (await storeRowsById(lineId, "SELECT product_id FROM order_lines WHERE id = ?", lineId))[0]!.product_id as string;
  const index = Number(product.slice(3)) - 1;
  const res = await move(lineId, "ship", {
    trackingNumber: tracking,
    quantity: units.length,
    units: units.map((unit) => unitCode(index, unit.lot, unit.serial)),
  });
  expect(res.status).toBe(200);
  const partNumber = (await storeRowsById(lineId, "SELECT part_number FROM order_lines WHERE id = ?", lineId))[0]!.part_number as string;
  return { ...order, lineId, index, productId: product, gtin: unitGtin(index), partNumber };
}

/** An openFDA device/enforcement record of a made-up recall. */
export const enforcementRecord = (productNumber: string, codeInfo: string, extra: Record<string, unknown> = {}) => ({
  recall_number: productNumber,
  event_id: "99001",
  classification: "Class II",
  status: "Ongoing",
  recalling_firm: "Acme Infusion Inc.",
  product_description: "Acme infusion pump tubing set",
  product_code: "FPA",
  reason_for_recall: "Tubing may crack at the connector.",
  code_info: codeInfo,
  recall_initiation_date: "20261201",
  center_classification_date: "20261203",
  ...extra,
});

/** The recalls a tenant's store holds, and its recall events. */
export const storeRecalls = (storeTenantId: number) =>
  storeRows(storeTenantId, "SELECT recall_id, product_number, status, affected_units, review_units FROM tenant_recalls ORDER BY recall_id");

export const recallEvents = (storeTenantId: number, recallId: number) =>
  storeRows(
    storeTenantId,
    "SELECT type, payload FROM outbox_events WHERE aggregate_id = ?1 AND type LIKE 'recall.%' ORDER BY created_at, rowid",
    String(recallId),
  );

export const recallIdOf = async (productNumber: string, owner = "fda") =>
  (await env.DB.prepare("SELECT id FROM recalls WHERE owner = ? AND product_number = ?").bind(owner, productNumber).first<{ id: number }>())
    ?.id;

/** Waits until the store has checked every shipped unit (its alarm matches them against the open recalls). */
export async function unitsChecked(storeTenantId: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await storeRows(storeTenantId, "SELECT count(*) AS n FROM recall_unit_checks");
    if (row!.n === 0) return;
    if (Date.now() > until) throw new Error(`store ${storeTenantId} still has ${row!.n} units to check`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
