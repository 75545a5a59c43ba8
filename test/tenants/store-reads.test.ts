import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ID_BASE, demoOrders } from "../../src/dev/seed/orders";
import { DEFAULT_PRODUCT_COUNT } from "../../src/dev/seed/seed";
import { rangeFloor, storeOfId } from "../../src/shared/tenants/id-ranges";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { freshOrder, JSMITH, KJOHNSON } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { BODIES, move, vendorCall } from "../helpers/vendors";
import { registerEndpoint } from "../helpers/webhooks";

/**
 * A tenant is read from its stores (docs/tenant-stores.md): the directory, orders, events and webhook endpoints, and its
 * vendors read and move its lines there (by id). The control database holds the directory's master and no orders: what
 * only the store holds shows, so the answers cannot have come from DB.
 */

describe("a tenant served from its stores: reads, and its vendors' moves", () => {
  let orderNumber: string;
  let endpointId: string;
  beforeAll(async () => {
    ({ orderNumber } = await freshOrder(1));
    endpointId = (await registerEndpoint("https://receiver.example.com/ok/store-reads")).id;
    // Only in the store: DB keeps the directory's master as it was, and holds no orders or endpoints.
    await storeRows(TENANT_A, "UPDATE users SET first_name = 'Stored' WHERE id = ?", JSMITH.userId);
    await storeRows(TENANT_A, "UPDATE orders SET po_number = 'PO-IN-STORE' WHERE order_number = ?", orderNumber);
    await storeRows(TENANT_A, "UPDATE webhook_endpoints SET url = 'https://receiver.example.com/ok/moved' WHERE id = ?", endpointId);
  });

  it("the user lookup and the user search read the store", async () => {
    const token = await tokenFor(TENANT_A);
    const { data } = await json(await call(token, `/users/lookup?userId=${JSMITH.userId}`, { headers: { "X-Session-Bookmark": "any" } }));
    expect(data.firstName).toBe("Stored");
    const search = await json(await call(token, `/users/search?q=${encodeURIComponent('firstName:"Stored"')}`));
    expect(search.data.items.map((u: { id: number }) => u.id)).toEqual([JSMITH.userId]);
  });

  it("catalog detail and resolve check the requester's access in the store", async () => {
    const token = await tokenFor(TENANT_A);
    const detail = () =>
      call(token, "/catalog/detail", {
        method: "POST",
        json: { productId: "MP-0000003", requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
      });
    expect((await detail()).status).toBe(200);
    const grant = await storeRows(
      TENANT_A,
      "SELECT user_id, facility_id FROM user_facilities WHERE user_id = ? AND facility_id = ?",
      JSMITH.userId,
      JSMITH.facilityId,
    );
    expect(grant).toHaveLength(1);
    // Revoked in the store only: DB's master still grants it.
    await storeRows(TENANT_A, "DELETE FROM user_facilities WHERE user_id = ? AND facility_id = ?", JSMITH.userId, JSMITH.facilityId);
    try {
      await expectProblem(await detail(), 403);
      const resolve = await call(token, "/catalog/resolve", {
        method: "POST",
        json: { codes: ["MP-0000003"], requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
      });
      expect(resolve.status).toBe(403);
      expect(
        await env.DB.prepare("SELECT count(*) AS n FROM user_facilities WHERE user_id = ?1 AND facility_id = ?2")
          .bind(JSMITH.userId, JSMITH.facilityId)
          .first("n"),
      ).toBe(1);
    } finally {
      await storeRows(TENANT_A, "INSERT INTO user_facilities (user_id, facility_id) VALUES (?, ?)", JSMITH.userId, JSMITH.facilityId);
    }
    expect((await detail()).status).toBe(200);
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

  it("a vendor reads and moves the tenant's lines in its store, a demo line and one ordered now; another tenant is untouched", async () => {
    const seeded = demoOrders(DEFAULT_PRODUCT_COUNT).find((o) => o.tenantId === TENANT_A && o.status === "Ordered")!.lines[0]!.id;
    const ordered = (await freshOrder(1)).lineIds[0]!;
    expect(seeded).toBeGreaterThan(rangeFloor(TENANT_A) + DEMO_ID_BASE);
    for (const lineId of [seeded, ordered]) {
      expect(storeOfId(lineId)).toBe(TENANT_A);
      const vendorId = (await storeRows(TENANT_A, "SELECT vendor_id AS v FROM order_lines WHERE id = ?", lineId))[0]!.v as number;
      const moved = await move(lineId, "acknowledge", BODIES.acknowledge(), vendorId);
      expect(moved.status, await moved.clone().text()).toBe(200);
      expect((await json(moved)).data.line.statusName).toBe("Acknowledged");
      const read = await vendorCall(vendorId, `/order-lines/${lineId}`);
      expect((await json(read)).data.statusName).toBe("Acknowledged");
      expect((await storeRows(TENANT_A, "SELECT status_name AS s FROM order_lines WHERE id = ?", lineId))[0]!.s).toBe("Acknowledged");
    }
    const other = await json(await call(await tokenFor(TENANT_B), `/users/lookup?userId=${KJOHNSON.userId}`));
    expect(other.data.firstName).not.toBe("Stored");
    await expect(freshOrder(1, { who: KJOHNSON })).resolves.toMatchObject({ orderNumber: expect.any(String) });
  });

  it("a line id its tenant's store does not hold, in the range of a tenant that does not exist, or beyond every range, is a 404", async () => {
    for (const lineId of [rangeFloor(TENANT_B) + 1, rangeFloor(987) + 1, Number.MAX_SAFE_INTEGER - 1]) {
      await expectProblem(await vendorCall(4, `/order-lines/${lineId}`), 404);
      await expectProblem(await move(lineId, "acknowledge", BODIES.acknowledge(), 4), 404);
    }
  });

  it("another tenant's ids are not found through a store: the store holds its own tenant only", async () => {
    const { orderNumber: theirs } = await freshOrder(1, { who: KJOHNSON });
    await expectProblem(await call(await tokenFor(TENANT_A), `/orders/${theirs}`), 404);
  });
});
