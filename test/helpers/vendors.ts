import { env } from "cloudflare:test";
import type { VendorAction } from "../../src/api/vendors/fulfilment";
import { vendorTokenFor } from "./api";
import { contractCall } from "./contract";

/** The vendor API as a vendor client calls it, every answer checked against the document. */

export const V = "/vendor/api";
export const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

export const vendorOf = async (lineId: number) =>
  (await env.DB.prepare("SELECT vendor_id AS v FROM order_lines WHERE id = ?1").bind(lineId).first<{ v: number }>())!.v;

export async function vendorCall(vendorId: number, path: string, init: { method?: string; json?: unknown } = {}) {
  return contractCall(await vendorTokenFor(vendorId), `${V}${path}`, init);
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
