import { describe, expect, it } from "vitest";
import { DEMO_ORDER_NUMBER } from "../../src/api/orders/retrieve-routes";
import { demoOrderOf } from "../helpers/adversarial";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { findQuote, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";

/** The order as GET /orders/search shows it (the same record, spec 2.10). */
async function searchRecord(token: string, orderNumber: string, include = ""): Promise<unknown> {
  const q = encodeURIComponent(`orderNumber:"${orderNumber}"`);
  const res = await contractCall(token, `/orders/search?q=${q}${include ? `&include=${include}` : ""}`);
  const { orders } = (await json(res)).data;
  expect(orders).toHaveLength(1);
  return orders[0];
}

describe("GET /orders/{orderNumber}", () => {
  it("answers the order just placed: the search record, with the same includes", async () => {
    const token = await tokenFor(TENANT_A);
    const created = await placeOrder(orderBody([lineFor(await findQuote(withoutFields), 2)]));
    expect(created.status).toBe(201);
    const { orderNumber } = (await json(created)).data;

    for (const include of ["", "lineItems", "shippingInfo", "lineItems,shippingInfo"]) {
      const res = await contractCall(token, `/orders/${orderNumber}${include ? `?include=${include}` : ""}`);
      expect(res.status, include).toBe(200);
      const { data } = await json(res);
      expect(data, include).toEqual(await searchRecord(token, orderNumber, include));
      expect(data.orderNumber).toBe(orderNumber);
    }
    const full = (await json(await call(token, `/orders/${orderNumber}?include=lineItems,shippingInfo`))).data;
    expect(full.lineItems.map((l: { quantity: number; statusName: string }) => [l.quantity, l.statusName])).toEqual([[2, "Ordered"]]);
    expect(full.shippingInfo[0].lineItemIds).toEqual(full.lineItems.map((l: { lineId: number }) => l.lineId));
  });

  it("the documented example is a real order of the demo tenant", () => {
    expect(DEMO_ORDER_NUMBER).toBe(demoOrderOf(TENANT_A).orderNumber);
  });

  it("finds seeded orders too, and matches the order number exactly (case-sensitive, no prefix match)", async () => {
    const token = await tokenFor(TENANT_A);
    const seeded = demoOrderOf(TENANT_A);
    expect((await json(await contractCall(token, `/orders/${seeded.orderNumber}`))).data.orderId).toBe(seeded.id);
    await expectProblem(await contractCall(token, `/orders/${seeded.orderNumber.slice(0, -1)}`), 404);
    await expectProblem(await contractCall(token, `/orders/${seeded.orderNumber.toLowerCase()}`), 404);
  });

  it("another tenant's order is a 404 exactly like an unknown one: nothing tells them apart", async () => {
    const attacker = await tokenFor(TENANT_B);
    const victimOrder = demoOrderOf(TENANT_A).orderNumber;
    const foreign = await expectProblem(await contractCall(attacker, `/orders/${victimOrder}`), 404);
    const unknown = await expectProblem(await contractCall(attacker, "/orders/ORD-20990101-ZZZZZZZZ"), 404);
    const strip = (p: Record<string, unknown>) => ({
      ...p,
      detail: String(p.detail).replace(/"[^"]*"/, '"…"'),
      correlationId: 0,
      timestamp: 0,
      instance: 0,
    });
    expect(strip(foreign)).toEqual(strip(unknown));
  });

  it("an order number that cannot be one is a 400 naming it; GET /orders/search is still the search", async () => {
    const token = await tokenFor(TENANT_A);
    const body = await expectProblem(await contractCall(token, `/orders/${encodeURIComponent("ORD 1;drop")}`), 400);
    expect(Object.keys(body.errors)).toEqual(["orderNumber"]);
    expect((await json(await contractCall(token, "/orders/search?limit=1"))).data.pagination.limit).toBe(1);
  });

  it("needs the orders:read scope", async () => {
    const token = await tokenFor(TENANT_A, ["catalog:read"]);
    const body = await expectProblem(await call(token, `/orders/${demoOrderOf(TENANT_A).orderNumber}`), 403);
    expect(body.detail).toContain("orders:read");
  });
});
