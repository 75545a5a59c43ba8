import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantStore } from "../../src/shared/tenants/stub";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { freshOrder, JSMITH, KJOHNSON } from "../helpers/orders";
import { forgetStores, moveAndSwitch } from "../helpers/stores";
import { BODIES, move } from "../helpers/vendors";
import { registerEndpoint } from "../helpers/webhooks";

/**
 * A tenant switched to its stores (registry state 'store'; docs/tenant-stores.md) is read from them: the directory,
 * orders, events and webhook endpoints. Vendors' moves of its lines are not served by the stores yet, and DB refuses
 * them (503). What only the store holds shows, so the answers cannot have come from DB.
 */

const inStore = (tenantId: number, sql: string, ...params: (string | number)[]) => tenantStore(env, tenantId).execute([{ sql, params }]);

describe("a tenant served from its stores: reads", () => {
  let orderNumber: string;
  let endpointId: string;
  beforeAll(async () => {
    ({ orderNumber } = await freshOrder(1));
    endpointId = (await registerEndpoint("https://receiver.example.com/ok/store-reads")).id;
    await moveAndSwitch(TENANT_A);
    // Only in the store: DB keeps the frozen copy of the switch.
    await inStore(TENANT_A, "UPDATE users SET first_name = 'Stored' WHERE id = ?", JSMITH.userId);
    await inStore(TENANT_A, "UPDATE orders SET po_number = 'PO-IN-STORE' WHERE order_number = ?", orderNumber);
    await inStore(TENANT_A, "UPDATE webhook_endpoints SET url = 'https://receiver.example.com/ok/moved' WHERE id = ?", endpointId);
  });
  afterAll(forgetStores);

  it("the user lookup and the user search read the store", async () => {
    const token = await tokenFor(TENANT_A);
    const { data } = await json(await call(token, `/users/lookup?userId=${JSMITH.userId}`, { headers: { "X-Session-Bookmark": "any" } }));
    expect(data.firstName).toBe("Stored");
    const search = await json(await call(token, `/users/search?q=${encodeURIComponent('firstName:"Stored"')}`));
    expect(search.data.items.map((u: { id: number }) => u.id)).toEqual([JSMITH.userId]);
  });

  it("order search and an order by number read the store", async () => {
    const token = await tokenFor(TENANT_A);
    const { data } = await json(await call(token, `/orders/${orderNumber}`));
    expect(data.poNumber).toBe("PO-IN-STORE");
    const search = await json(await call(token, `/orders/search?q=${encodeURIComponent('poNumber:"PO-IN-STORE"')}`));
    expect(search.data.orders.map((o: { orderNumber: string }) => o.orderNumber)).toEqual([orderNumber]);
  });

  it("the events feed and the webhook endpoints read the store", async () => {
    const token = await tokenFor(TENANT_A);
    const feed = await json(await call(token, "/events"));
    expect(feed.data.events.some((e: { orderNumber: string }) => e.orderNumber === orderNumber)).toBe(true);
    const { data } = await json(await call(token, `/webhook-endpoints/${endpointId}`));
    expect(data.url).toBe("https://receiver.example.com/ok/moved");
    const list = await json(await call(token, "/webhook-endpoints"));
    expect(list.data.endpoints.map((e: { id: string }) => e.id)).toContain(endpointId);
  });

  it("a write not yet served by the stores, a vendor's move of its line, is refused (503, Retry-After); another tenant is untouched", async () => {
    const { lineItems } = (await json(await call(await tokenFor(TENANT_A), `/orders/${orderNumber}?include=lineItems`))).data;
    const res = await move(lineItems[0].lineId, "acknowledge", BODIES.acknowledge());
    await expectProblem(res, 503);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    const other = await json(await call(await tokenFor(TENANT_B), `/users/lookup?userId=${KJOHNSON.userId}`));
    expect(other.data.firstName).not.toBe("Stored");
    await expect(freshOrder(1, { who: KJOHNSON })).resolves.toMatchObject({ orderNumber: expect.any(String) });
  });

  it("another tenant's ids are not found through a store: the store holds its own tenant only", async () => {
    const { orderNumber: theirs } = await freshOrder(1, { who: KJOHNSON });
    await expectProblem(await call(await tokenFor(TENANT_A), `/orders/${theirs}`), 404);
  });
});
