import { env } from "cloudflare:test";
import { expect } from "vitest";
import { LINE_STATUSES, type LineStatus } from "../../src/api/orders/lifecycle";
import type { VendorAction } from "../../src/api/vendors/fulfilment";
import type { VendorOrderLine } from "../../src/api/vendors/lines";
import { retentionCutoff } from "../../src/api/vendors/projection/retention";
import { vendorProjection } from "../../src/api/vendors/projection/stub";
import { tenantStore } from "../../src/shared/tenants/stub";
import { AT_LATEST, json, TENANT_A, vendorTokenFor } from "./api";
import { contractCall } from "./contract";
import { storeRowsById } from "./stores";

/** The vendor API as a vendor client calls it, every answer checked against the document. */

export const V = "/vendor/api";
export const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The vendor that fulfils the line (read in the store its id names). */
export const vendorOf = async (lineId: number) =>
  (await storeRowsById(lineId, "SELECT vendor_id AS v FROM order_lines WHERE id = ?1", lineId))[0]!.v as number;

export async function vendorCall(
  vendorId: number,
  path: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  return contractCall(await vendorTokenFor(vendorId), `${V}${path}`, init);
}

/**
 * Waits until the vendor's projection, which its list of lines reads (GET /vendor/api/order-lines), holds tenant
 * `tenantId`'s lines as its store publishes them: the same lines at the same revisions (the counts and checksums the
 * reconciliation sweep compares), so every change the store made has come through the queue. Throws after `timeoutMs`:
 * 20 s (under the tests' 30 s), as CI's clean clone under the whole suite's load once took over 10 s to publish a file's seeded store.
 */
export async function projectionFollows(vendorId: number, tenantId = TENANT_A, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cutoff = retentionCutoff(env, Date.now());
    const [published, held] = await Promise.all([
      tenantStore(env, tenantId).publishedLines(cutoff),
      vendorProjection(env, vendorId, tenantId).held(tenantId, cutoff),
    ]);
    const want = published.find((account) => account.vendorId === vendorId) ?? { lines: 0, ids: 0, revisions: 0 };
    if (want.lines === held.lines && want.ids === held.ids && want.revisions === held.revisions) return;
    if (Date.now() > deadline) throw new Error(`vendor ${vendorId}'s projection did not follow tenant ${tenantId}'s store`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every line of the vendor's list in the given statuses (all by default), page by page through the API, at the latest version. */
export async function listAllVendorLines(
  vendorId: number,
  { statuses = LINE_STATUSES, limit = 100 }: { statuses?: readonly string[]; limit?: number } = {},
): Promise<VendorOrderLine[]> {
  const lines: VendorOrderLine[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await vendorCall(vendorId, `/order-lines?status=${statuses.join(",")}&limit=${limit}&offset=${offset}`, {
      headers: AT_LATEST,
    });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    lines.push(...data.lines);
    if (!data.pagination.hasMore) return lines;
  }
}

/** A move of the line by its vendor (or `vendorId`). */
export async function move(lineId: number, action: VendorAction, body: unknown, vendorId?: number) {
  return vendorCall(vendorId ?? (await vendorOf(lineId)), `/order-lines/${lineId}/${action}`, { method: "POST", json: body });
}

/** A valid body of each move. */
export const BODIES: Record<VendorAction, () => unknown> = {
  acknowledge: () => ({ promisedShipDate: tomorrow() }),
  backorder: () => ({ expectedShipDate: tomorrow(), reason: "Awaiting stock" }),
  ship: () => ({ trackingNumber: `1Z${crypto.randomUUID().slice(0, 8)}` }),
  deliver: () => ({}),
  reject: () => ({ reason: "Discontinued" }),
};

/** A line as its vendor reads it, of an order of the given number and date. */
export function madeUpLine(lineId: number, order: { orderNumber: string; orderDate: string }, statusName: LineStatus): VendorOrderLine {
  return {
    lineId,
    orderNumber: order.orderNumber,
    lineNumber: 1,
    orderDate: order.orderDate,
    statusName,
    partNumber: `PN-${lineId}`,
    description: "A made-up line",
    quantity: 1,
    shippedQuantity: 0,
    price: "10.00",
    extendedPrice: "10.00",
    currency: "USD",
    poNumber: null,
    requiredFields: [],
    promisedShipDate: null,
    expectedShipDate: null,
    statusReason: null,
    deliveredAt: null,
    contractPrice: null,
    confirmationCode: null,
    pendingChange: null,
    returnsToReceive: 0,
    invoicesInException: 0,
    shippingMethod: "GROUND",
    shipTo: { attentionTo: null, address1: "1 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US" },
    shipments: [],
  };
}
