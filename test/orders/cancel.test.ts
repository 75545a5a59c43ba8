import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cancelOrder } from "../../src/api/orders/cancel";
import { canMove, LINE_STATUSES, orderStatusOf, TRANSITIONS } from "../../src/api/orders/lifecycle";
import { database } from "../../src/db/client";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { demoOrderOf } from "../helpers/adversarial";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { eventsOf, freshOrder, putLineIn, readOrder } from "../helpers/orders";
import { storeRows } from "../helpers/stores";

async function cancel(orderNumber: string, body: unknown, key: string = crypto.randomUUID(), tenantId = TENANT_A) {
  return contractCall(await tokenFor(tenantId), `/orders/${orderNumber}/cancel`, {
    method: "POST",
    json: body,
    headers: { "Idempotency-Key": key },
  });
}

describe("order lifecycle: the state machine", () => {
  it("allows exactly the documented transitions; closed statuses go nowhere", () => {
    expect(canMove("Ordered", "Cancelled")).toBe(true);
    expect(canMove("Backordered", "Cancelled")).toBe(true);
    expect(canMove("Shipped", "Cancelled")).toBe(false);
    expect(canMove("Delivered", "Shipped")).toBe(false);
    expect(canMove("Processing", "Cancelled")).toBe(false);
    for (const closed of ["Delivered", "Cancelled", "Rejected"] as const) expect(TRANSITIONS[closed]).toEqual([]);
    for (const [from, targets] of Object.entries(TRANSITIONS))
      for (const to of targets) expect(LINE_STATUSES, `${from}->${to}`).toContain(to);
  });

  it("derives the order's status from its lines", () => {
    expect(orderStatusOf(["Ordered", "Ordered"])).toBe("Ordered");
    expect(orderStatusOf(["Acknowledged", "Acknowledged"])).toBe("Acknowledged");
    expect(orderStatusOf(["Acknowledged", "Ordered"])).toBe("Ordered");
    expect(orderStatusOf(["Acknowledged", "Backordered"])).toBe("Backordered");
    expect(orderStatusOf(["Shipped", "Acknowledged"])).toBe("PartiallyShipped");
    expect(orderStatusOf(["Shipped", "Delivered"])).toBe("Shipped");
    expect(orderStatusOf(["Delivered", "Cancelled"])).toBe("Delivered");
    expect(orderStatusOf(["Cancelled", "Ordered"])).toBe("Ordered");
    expect(orderStatusOf(["Cancelled", "Rejected"])).toBe("Cancelled");
    expect(orderStatusOf(["Rejected", "Rejected"])).toBe("Rejected");
  });
});

describe("POST /orders/{orderNumber}/cancel", () => {
  it("cancels every line, derives the order's status, moves lastUpdated and writes one order.cancelled event", async () => {
    const { orderNumber, lineIds } = await freshOrder(2);
    const before = await readOrder(orderNumber);
    const res = await cancel(orderNumber, { reason: "Ordered twice" });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data).toEqual({ orderNumber, status: "Cancelled", cancelledLineIds: lineIds, notCancelled: [], eventId: expect.any(String) });

    const after = await readOrder(orderNumber);
    expect(after.status).toBe("Cancelled");
    expect(after.lineItems.map((l: { statusName: string }) => l.statusName)).toEqual(["Cancelled", "Cancelled"]);
    expect(after.lastUpdated > before.lastUpdated).toBe(true);
    const events = await eventsOf(orderNumber);
    expect(events.map((e) => e.type)).toEqual(["order.created", "order.cancelled"]);
    expect(events[1]!.id).toBe(data.eventId);
    expect(JSON.parse(events[1]!.payload)).toMatchObject({
      orderNumber,
      status: "Cancelled",
      cancelledLineIds: lineIds,
      reason: "Ordered twice",
    });
  });

  it("cancels only the lines named; the order stays open while a line is", async () => {
    const { orderNumber, lineIds } = await freshOrder(2);
    const { data } = await json(await cancel(orderNumber, { lineIds: [lineIds[1]] }));
    expect(data).toMatchObject({ status: "Ordered", cancelledLineIds: [lineIds[1]], notCancelled: [] });
    expect((await readOrder(orderNumber)).lineItems.map((l: { statusName: string }) => l.statusName)).toEqual(["Ordered", "Cancelled"]);
  });

  it("is idempotent: the same key and body replay the same answer, and nothing happens twice", async () => {
    const { orderNumber } = await freshOrder();
    const key = crypto.randomUUID();
    const first = await cancel(orderNumber, {}, key);
    const again = await cancel(orderNumber, {}, key);
    expect(again.status).toBe(200);
    expect(again.headers.get("X-Idempotency-Cached")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect((await eventsOf(orderNumber)).filter((e) => e.type === "order.cancelled")).toHaveLength(1);
    // The same key with another body is the spec's 409.
    expect((await cancel(orderNumber, { reason: "other" }, key)).status).toBe(409);
    // A new key on an order with nothing left open: 200, nothing cancelled, no event.
    const { data } = await json(await cancel(orderNumber, {}));
    expect(data).toMatchObject({ status: "Cancelled", cancelledLineIds: [], eventId: null });
    expect((await eventsOf(orderNumber)).filter((e) => e.type === "order.cancelled")).toHaveLength(1);
  });

  it("lines already shipped make it a 409 naming them, changing nothing; with partial the others are cancelled", async () => {
    const { orderNumber, lineIds } = await freshOrder(2);
    await putLineIn(lineIds[0]!, "Shipped");
    const refused = await expectProblem(await cancel(orderNumber, {}), 409);
    expect(refused.errors).toEqual([expect.stringContaining(`line ${lineIds[0]} is Shipped`)]);
    expect((await readOrder(orderNumber)).lineItems.map((l: { statusName: string }) => l.statusName)).toEqual(["Shipped", "Ordered"]);
    expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual(["order.created"]);

    const { data } = await json(await cancel(orderNumber, { partial: true }));
    expect(data).toMatchObject({
      status: "Shipped",
      cancelledLineIds: [lineIds[1]],
      notCancelled: [{ lineId: lineIds[0], statusName: "Shipped" }],
    });
  });

  it("a seeded delivered order cannot be cancelled", async () => {
    const { orderNumber } = await freshOrder();
    const { lineIds } = { lineIds: (await readOrder(orderNumber)).lineItems.map((l: { lineId: number }) => l.lineId) };
    await putLineIn(lineIds[0], "Delivered");
    await expectProblem(await cancel(orderNumber, { lineIds }), 409);
  });

  it("a line that changed after it was read aborts the whole batch: 409, nothing written (injected interleaving)", async () => {
    const { orderNumber, lineIds } = await freshOrder(2);
    const db = database(tenantStoreDatabase(env, TENANT_A));
    // The tenant's real store, where a vendor ships line 1 between the cancel's reads and its write batch.
    const racing = new Proxy(db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== "batch" || typeof value !== "function") return value;
        return async (statements: unknown) => {
          await putLineIn(lineIds[0]!, "Shipped");
          return value.call(target, statements);
        };
      },
    });
    await expect(cancelOrder(racing, TENANT_A, orderNumber, {})).rejects.toMatchObject({ status: 409 });
    expect((await readOrder(orderNumber)).lineItems.map((l: { statusName: string }) => l.statusName)).toEqual(["Shipped", "Ordered"]);
    expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual(["order.created"]);
    expect(await storeRows(TENANT_A, "SELECT count(*) AS n FROM write_preconditions")).toEqual([{ n: 0 }]);
  });

  it("a misspelt field is a 400 naming it, not dropped: {lineID: [first]} cancelled every line of the order", async () => {
    const { orderNumber, lineIds } = await freshOrder(3);
    for (const [body, errors] of [
      [{ lineID: [lineIds[0]] }, { lineID: ["Unknown field; did you mean lineIds?"] }],
      [{ lineIds: [lineIds[0]], Partial: true }, { Partial: ["Unknown field; did you mean partial?"] }],
    ]) {
      expect((await expectProblem(await cancel(orderNumber, body), 400)).errors).toEqual(errors);
    }
    const order = await readOrder(orderNumber);
    expect(order.lineItems.map((l: { statusName: string }) => l.statusName)).toEqual(["Ordered", "Ordered", "Ordered"]);
    expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual(["order.created"]);
  });

  it("refuses what it cannot do: unknown lines 400, another tenant's order 404 like an unknown one, no key 400, no scope 403", async () => {
    const { orderNumber } = await freshOrder();
    const unknownLine = await expectProblem(await cancel(orderNumber, { lineIds: [999999999] }), 400);
    expect(Object.keys(unknownLine.errors)).toEqual(["lineIds"]);
    await expectProblem(await cancel(orderNumber, { lineIds: [1, 1] }), 400);
    await expectProblem(await cancel(demoOrderOf(TENANT_A).orderNumber, {}, crypto.randomUUID(), TENANT_B), 404);
    await expectProblem(await cancel("ORD-20990101-ZZZZZZZZ", {}, crypto.randomUUID(), TENANT_B), 404);
    const noKey = await call(await tokenFor(TENANT_A), `/orders/${orderNumber}/cancel`, { method: "POST", json: {} });
    expect(Object.keys((await expectProblem(noKey, 400)).errors)).toEqual(["idempotencyKey"]);
    const readOnly = await call(await tokenFor(TENANT_A, ["orders:read"]), `/orders/${orderNumber}/cancel`, {
      method: "POST",
      json: {},
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    await expectProblem(readOnly, 403);
    expect((await readOrder(orderNumber)).status).toBe("Ordered");
  });
});
