import { expect } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { call, json, TENANT_A, tokenFor, vendorTokenFor } from "./api";
import { contractCall } from "./contract";
import { issueQuotes, orderBody, placeOrder, type Quote } from "./orders";
import { storeRows } from "./stores";
import { tomorrow, vendorCall } from "./vendors";

/** Returns (docs/api.md, "Returns, cores, loaners and repairs") as tests set them up: offers of a purchase type, orders of them. */

/** The vendor whose offers of each purchase type the tests publish. */
export const RETURNS_VENDOR = 3;

export const EXCHANGE = { purchaseType: "exchange", exchangeTerms: { coreCharge: 300, coreDueDays: 30, coreConditions: ["Complete"] } };
export const LOAN = { purchaseType: "loan", loanTerms: { loanDays: 14, lateFeePerDay: 12.5 } };
export const REPAIR = { purchaseType: "repair", repairTerms: { turnaroundDays: 10, reasons: ["error_code", "no_power"] } };

export type TermsOption = Quote & { purchaseType: string; purchaseTerms: Record<string, unknown> | null };

let nextProduct = 20;
/** A fresh offer of RETURNS_VENDOR with these purchase terms on the next demo product; the buyer's option of it. */
export async function optionWith(terms: Record<string, unknown>, price = 800): Promise<TermsOption> {
  const product = productId(nextProduct++);
  const sku = `RT-${crypto.randomUUID().slice(0, 8)}`;
  const put = await call(await vendorTokenFor(RETURNS_VENDOR), `/vendor/api/offers/${sku}`, {
    method: "PUT",
    json: {
      productId: product,
      condition: "Refurbished",
      purchaseChoice: "Exchange",
      warranty: "6 months",
      price,
      leadTimeDays: 2,
      ...terms,
    },
  });
  expect(put.status, await put.clone().text()).toBeLessThan(300);
  const option = (await issueQuotes(product)).find((q) => (q as unknown as { vendorSku: string }).vendorSku === sku);
  expect(option).toBeDefined();
  return option as TermsOption;
}

/** The next demo product's option of a part bought outright, without custom fields. */
export async function boughtOption(): Promise<Quote> {
  const option = (await issueQuotes(productId(nextProduct++))).find(
    (q) => (q as unknown as { purchaseType: string }).purchaseType === "buy" && q.customFields.length === 0,
  );
  expect(option).toBeDefined();
  return option!;
}

const buyer = async (path: string) => contractCall(await tokenFor(TENANT_A), path);

/** Orders the option (quantity, extra line fields) for tenant A's jsmith; the order number and its line id. */
export async function orderOf(option: Quote, quantity: number, extra: Record<string, unknown> = {}) {
  const res = await placeOrder(
    orderBody([{ priceOptionId: option.priceOptionId, productId: option.productId, quantity, price: option.price, ...extra }]),
  );
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  const orderNumber = body.data.orderNumber as string;
  const detail = await json(await buyer(`/orders/${orderNumber}?include=lineItems`));
  return { orderNumber, lineId: detail.data.lineItems[0].lineId as number };
}

/** The vendor acknowledges and ships the line (all of it, or `quantity`). */
export async function shipLine(lineId: number, quantity?: number, vendorId = RETURNS_VENDOR) {
  await vendorCall(vendorId, `/order-lines/${lineId}/acknowledge`, { method: "POST", json: { promisedShipDate: tomorrow() } });
  const shipped = await vendorCall(vendorId, `/order-lines/${lineId}/ship`, {
    method: "POST",
    json: { trackingNumber: `1Z${crypto.randomUUID().slice(0, 8)}`, ...(quantity ? { quantity } : {}) },
  });
  expect(shipped.status, await shipped.clone().text()).toBe(200);
}

/** Tenant A's returns that `q` finds. */
export async function returnsOf(q: string): Promise<any[]> {
  return (await json(await buyer(`/returns?q=${encodeURIComponent(q)}`))).data.returns;
}

/** How many events of each type tenant A's orders have in its store. */
export async function eventCounts(types: readonly string[]): Promise<Record<string, number>> {
  const results = await storeRows(
    TENANT_A,
    "SELECT type, count(*) AS n FROM outbox_events WHERE type IN (SELECT value FROM json_each(?)) GROUP BY type",
    JSON.stringify(types),
  );
  return Object.fromEntries(results.map((r) => [r.type as string, r.n as number]));
}
