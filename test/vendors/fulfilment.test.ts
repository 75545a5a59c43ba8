import { env } from "cloudflare:test";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { LINE_STATUSES, type LineStatus, TRANSITIONS } from "../../src/api/orders/lifecycle";
import { DEMO_ORDER_NUMBER } from "../../src/api/orders/retrieve-routes";
import { MOVE_TARGETS, moveLine, type VendorAction, type VendorMove } from "../../src/api/vendors/fulfilment";
import { DEMO_LINE_ID, DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { database } from "../../src/db/client";
import { TENANTS } from "../../src/dev/seed/organizations";
import { setClientEnabled } from "../../src/shared/auth/clients";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { call, expectProblem, json, newVendorClient, requestToken, TENANT_A, tokenFor, vendorTokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { withMethods } from "../helpers/faults";
import { eventsOf, freshOrder, putLineIn, readOrder } from "../helpers/orders";
import { storeRows, storeRowsById } from "../helpers/stores";
import { BODIES, move, projectionFollows, tomorrow, V, vendorCall, vendorOf } from "../helpers/vendors";

/** The demo tenants, whose seeded lines every vendor's list holds. */
const DEMO_TENANTS = TENANTS.map((tenant) => tenant.id);

/** The other demo vendor: one that does not fulfil `lineId`. */
const otherVendor = async (lineId: number) => ((await vendorOf(lineId)) % 6) + 1;

const lineStatus = async (lineId: number) =>
  (await storeRowsById(lineId, "SELECT status_name AS s FROM order_lines WHERE id = ?1", lineId))[0]!.s as string;

describe("vendor clients and tokens", () => {
  it("a vendor client gets a token for the vendor API: claim vid, the vendor audience, the vendor scopes", async () => {
    const creds = await newVendorClient(4);
    expect(creds.clientId).toMatch(/^mpv_/);
    const res = await requestToken(creds);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.scope).toBe("fulfilment:read fulfilment:write offers:read offers:write");
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({ vid: 4, aud: env.VENDOR_AUDIENCE, sub: creds.clientId });
    expect(claims).not.toHaveProperty("tid");
    expect(await requestToken(creds, { scope: "orders:read" }).then((r) => r.status)).toBe(400);
  });

  it("neither API takes the other's token: 401 both ways", async () => {
    const vendorToken = await vendorTokenFor(1);
    const buyerToken = await tokenFor(TENANT_A);
    const vendorOnBuyer = await call(vendorToken, "/orders/search");
    expect((await expectProblem(vendorOnBuyer, 401)).detail).toMatch(/invalid|audience/i);
    await expectProblem(await call(buyerToken, `${V}/order-lines`), 401);
    await expectProblem(await call(buyerToken, `${V}/order-lines/1/acknowledge`, { method: "POST", json: BODIES.acknowledge() }), 401);
  });

  it("scopes and disabled clients: fulfilment:read cannot move a line (403); a disabled vendor client is 401", async () => {
    const { lineIds } = await freshOrder();
    const vendorId = await vendorOf(lineIds[0]!);
    const readOnly = await vendorTokenFor(vendorId, ["fulfilment:read"]);
    expect((await call(readOnly, `${V}/order-lines/${lineIds[0]}`)).status).toBe(200);
    await expectProblem(
      await call(readOnly, `${V}/order-lines/${lineIds[0]}/acknowledge`, { method: "POST", json: BODIES.acknowledge() }),
      403,
    );
    const creds = await newVendorClient(vendorId);
    const token = (await json(await requestToken(creds))).access_token;
    await setClientEnabled(database(env.DB), creds.clientId, false);
    await expectProblem(await call(token, `${V}/order-lines`), 401);
    expect(await lineStatus(lineIds[0]!)).toBe("Ordered");
  });
});

describe("what a vendor sees", () => {
  it("the documented demo line is the demo vendor's line of the demo order (/docs examples, npm start's vendor client)", async () => {
    const res = await vendorCall(DEMO_VENDOR_ID, `/order-lines/${DEMO_LINE_ID}`);
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ lineId: DEMO_LINE_ID, orderNumber: DEMO_ORDER_NUMBER, statusName: "Ordered" });
  });

  it("lists its own open lines of an order, never the other vendor's line of the same order", async () => {
    const { orderNumber, lineIds } = await freshOrder(2, { pick: (q) => q.customFields.length === 0 });
    const vendors = await Promise.all(lineIds.map(vendorOf));
    for (const vendorId of new Set(vendors)) await projectionFollows(vendorId);
    for (const [i, lineId] of lineIds.entries()) {
      const res = await vendorCall(vendors[i]!, `/order-lines?orderNumber=${orderNumber}`);
      expect(res.status).toBe(200);
      const { lines, pagination } = (await json(res)).data;
      const mine = lineIds.filter((_, j) => vendors[j] === vendors[i]);
      expect(lines.map((l: { lineId: number }) => l.lineId)).toEqual(mine);
      expect(pagination.total).toBe(mine.length);
      expect(lines.find((l: { lineId: number }) => l.lineId === lineId)).toMatchObject({
        orderNumber,
        statusName: "Ordered",
        shippedQuantity: 0,
        shippingMethod: "GROUND",
        shipTo: { city: expect.any(String), address1: expect.any(String) },
        shipments: [],
      });
    }
    const stranger = await otherVendor(lineIds[0]!);
    if (!vendors.includes(stranger)) {
      expect((await json(await vendorCall(stranger, `/order-lines?orderNumber=${orderNumber}`))).data.lines).toEqual([]);
    }
    await expectProblem(await vendorCall(stranger, `/order-lines/${lineIds[0]}`), 404);
  });

  it("filters by status (case-insensitive, default the open ones) and refuses unknown statuses", async () => {
    const { orderNumber, lineIds } = await freshOrder();
    const vendorId = await vendorOf(lineIds[0]!);
    const list = async (query: string) =>
      (await json(await vendorCall(vendorId, `/order-lines?orderNumber=${orderNumber}${query}`))).data.lines.map(
        (l: { lineId: number }) => l.lineId,
      );
    await projectionFollows(vendorId);
    expect(await list("")).toEqual(lineIds);
    expect(await list("&status=shipped")).toEqual([]);
    await putLineIn(lineIds[0]!, "Shipped");
    await projectionFollows(vendorId);
    expect(await list("")).toEqual([]);
    expect(await list("&status=Shipped,delivered")).toEqual(lineIds);
    const bad = await expectProblem(await vendorCall(vendorId, "/order-lines?status=Lost"), 400);
    expect(Object.keys(bad.errors)).toEqual(["status"]);
  });

  it("lists oldest orders first (by order date, then line), whatever the line ids say", async () => {
    const vendorId = DEMO_VENDOR_ID;
    for (const tenantId of DEMO_TENANTS) await projectionFollows(vendorId, tenantId);
    const all = (
      await json(
        await vendorCall(vendorId, "/order-lines?status=Ordered,Acknowledged,Backordered,Shipped,Delivered,Cancelled,Rejected&limit=100"),
      )
    ).data.lines as { lineId: number; orderDate: string }[];
    expect(all.length).toBeGreaterThan(3);
    const sorted = [...all].sort((a, b) => a.orderDate.localeCompare(b.orderDate) || a.lineId - b.lineId);
    expect(all.map((l) => l.lineId)).toEqual(sorted.map((l) => l.lineId));
    // The seeded orders are back-dated: by line id alone they would not come out in date order.
    const byId = [...all].sort((a, b) => a.lineId - b.lineId);
    expect(byId.map((l) => l.lineId)).not.toEqual(sorted.map((l) => l.lineId));
  });

  it("an unknown line and another vendor's line get the same 404", async () => {
    const { lineIds } = await freshOrder();
    const stranger = await otherVendor(lineIds[0]!);
    const theirs = await expectProblem(await vendorCall(stranger, `/order-lines/${lineIds[0]}`), 404);
    const unknown = await expectProblem(await vendorCall(stranger, "/order-lines/999999999"), 404);
    expect(theirs.detail).toBe(unknown.detail);
    await expectProblem(await move(lineIds[0]!, "acknowledge", BODIES.acknowledge(), stranger), 404);
    expect(await lineStatus(lineIds[0]!)).toBe("Ordered");
  });
});

describe("the line lifecycle, move by move", () => {
  /** Which moves the API takes from each status: the lifecycle, plus re-dating an acknowledged or backordered line. */
  const allowed = (from: LineStatus, action: VendorAction) =>
    TRANSITIONS[from].includes(MOVE_TARGETS[action]) ||
    (action === "acknowledge" && from === "Acknowledged") ||
    (action === "backorder" && from === "Backordered");

  for (const from of LINE_STATUSES) {
    it(`from ${from}: every move is taken or refused exactly as the lifecycle says`, async () => {
      const { orderNumber, lineIds } = await freshOrder(Object.keys(BODIES).length);
      const actions = Object.keys(BODIES) as VendorAction[];
      for (const [i, action] of actions.entries()) {
        const lineId = lineIds[i]!;
        await putLineIn(lineId, from);
        const res = await move(lineId, action, BODIES[action]());
        if (MOVE_TARGETS[action] === from && (from === "Delivered" || from === "Rejected")) {
          // Already in place: a repeat, answered without a change or an event.
          expect(res.status).toBe(200);
          expect((await json(res)).data.eventId).toBeNull();
        } else if (allowed(from, action)) {
          expect(res.status, `${from} -> ${action}: ${await res.clone().text()}`).toBe(200);
          const { line, eventId } = (await json(res)).data;
          expect(line.statusName).toBe(MOVE_TARGETS[action]);
          expect(eventId).toEqual(expect.any(String));
        } else {
          const problem = await expectProblem(res, 409);
          expect(problem.type).toMatch(/invalid-transition$/);
          expect(problem.detail).toContain(`Allowed from ${from}:`);
          expect(problem.errors).toEqual(TRANSITIONS[from].map((s) => `allowed: ${s}`));
          expect(await lineStatus(lineId)).toBe(from);
        }
      }
      const moved = actions.filter((a) => allowed(from, a)).map((a) => `order.${MOVE_TARGETS[a].toLowerCase()}`);
      expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual(["order.created", ...moved]);
    });
  }

  it("acknowledge, ship in two parcels, deliver: the buyer follows it all, events numbered 1, 2, 3...", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 3 });
    const lineId = lineIds[0]!;
    const promised = tomorrow();
    expect((await json(await move(lineId, "acknowledge", { promisedShipDate: promised }))).data.orderStatus).toBe("Acknowledged");

    const first = await move(lineId, "ship", { trackingNumber: "1ZPART0001", quantity: 1, carrierName: "FedEx", serviceLevel: "Priority" });
    const afterFirst = (await json(first)).data;
    expect(afterFirst.line).toMatchObject({ statusName: "Acknowledged", shippedQuantity: 1 });
    expect(afterFirst.orderStatus).toBe("PartiallyShipped");
    let order = await readOrder(orderNumber);
    expect(order.status).toBe("PartiallyShipped");
    expect(order.shippingInfo.map((d: any) => [d.trackingNumber, d.lines])).toEqual([
      [null, [{ lineId, quantity: 2 }]],
      ["1ZPART0001", [{ lineId, quantity: 1 }]],
    ]);

    const tooMany = await expectProblem(await move(lineId, "ship", { trackingNumber: "1ZPART0002", quantity: 3 }), 400);
    expect(tooMany.errors.quantity[0]).toContain("At most 2");

    const second = (await json(await move(lineId, "ship", { trackingNumber: "1ZPART0002" }))).data;
    expect(second.line).toMatchObject({ statusName: "Shipped", shippedQuantity: 3 });
    expect(second.line.shipments.map((s: any) => [s.trackingNumber, s.carrierName, s.quantity])).toEqual([
      ["1ZPART0001", "FedEx", 1],
      ["1ZPART0002", "UPS", 2],
    ]);
    order = await readOrder(orderNumber);
    expect(order.status).toBe("Shipped");
    expect(order.shippingInfo.map((d: any) => d.trackingNumber)).toEqual(["1ZPART0001", "1ZPART0002"]);
    expect(order.lineItems[0]).toMatchObject({ statusName: "Shipped", shippedQuantity: 3, promisedShipDate: promised });

    const delivered = (await json(await move(lineId, "deliver", {}))).data;
    expect(delivered.orderStatus).toBe("Delivered");
    expect(Date.parse(delivered.line.deliveredAt)).toBeGreaterThan(Date.parse(order.orderDate));
    order = await readOrder(orderNumber);
    expect(order.status).toBe("Delivered");
    expect(Date.parse(order.lastUpdated)).toBeGreaterThanOrEqual(Date.parse(delivered.line.deliveredAt) - 1000);

    const events = await eventsOf(orderNumber);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ["order.created", 1],
      ["order.acknowledged", 2],
      ["order.shipped", 3],
      ["order.shipped", 4],
      ["order.delivered", 5],
    ]);
    expect(JSON.parse(events[2]!.payload)).toMatchObject({
      orderNumber,
      lineId,
      trackingNumber: "1ZPART0001",
      quantity: 1,
      status: "PartiallyShipped",
    });
  });

  it("a line part-shipped and then re-acknowledged or backordered keeps its shipped quantity: the order stays PartiallyShipped", async () => {
    for (const [action, body] of [
      ["acknowledge", { promisedShipDate: "2099-02-01" }],
      ["backorder", { expectedShipDate: "2099-02-01", reason: "Rest on backorder" }],
    ] as const) {
      const { orderNumber, lineIds } = await freshOrder(2, { quantity: 3 });
      for (const lineId of lineIds) await move(lineId, "acknowledge", BODIES.acknowledge());
      await move(lineIds[0]!, "ship", { trackingNumber: `1ZP${action.slice(0, 4).toUpperCase()}01`, quantity: 1 });
      const moved = (await json(await move(lineIds[0]!, action, body))).data;
      expect(moved.orderStatus, action).toBe("PartiallyShipped");
      expect(moved.line.shippedQuantity, action).toBe(1);
      const order = await readOrder(orderNumber);
      expect(order.status, action).toBe("PartiallyShipped");
      expect(order.lineItems[0].shippedQuantity, action).toBe(1);
      const events = await eventsOf(orderNumber);
      expect(JSON.parse(events.at(-1)!.payload).status, action).toBe("PartiallyShipped");
      const found = await json(
        await call(
          await tokenFor(TENANT_A),
          `/orders/search?q=${encodeURIComponent(`status:PartiallyShipped AND orderNumber:"${orderNumber}"`)}`,
        ),
      );
      expect(found.data.orders, action).toHaveLength(1);
    }
  });

  it("one tracking number for two lines of a vendor on an order is one parcel: one shipping document", async () => {
    // Two lines from the same vendor: options of vendor 4 (first choice for new OEM parts).
    const { orderNumber, lineIds } = await freshOrder(2, {
      pick: (q) => q.customFields.length === 0 && q.vendorName === "OEM Authorized Distribution",
    });
    for (const lineId of lineIds) await move(lineId, "acknowledge", BODIES.acknowledge());
    for (const lineId of lineIds) expect((await move(lineId, "ship", { trackingNumber: "1ZSHARED01" })).status).toBe(200);
    const order = await readOrder(orderNumber);
    expect(order.shippingInfo).toHaveLength(1);
    expect(order.shippingInfo[0]).toMatchObject({ trackingNumber: "1ZSHARED01", lineItemIds: lineIds });
  });

  it("repeating a move already in place changes nothing: same answer, no new event (retries need no key)", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    const ack = BODIES.acknowledge();
    const once = (await json(await move(lineId, "acknowledge", ack))).data;
    const twice = (await json(await move(lineId, "acknowledge", ack))).data;
    expect(twice.eventId).toBeNull();
    expect(twice.line).toEqual(once.line);
    const ship = { trackingNumber: "1ZRETRY001", quantity: 1 };
    await move(lineId, "ship", ship);
    const again = (await json(await move(lineId, "ship", ship))).data;
    expect(again.eventId).toBeNull();
    expect(again.line.shippedQuantity).toBe(1);
    const redated = (await json(await move(lineId, "acknowledge", { promisedShipDate: "2099-01-31" }))).data;
    expect(redated.eventId).toEqual(expect.any(String));
    expect(redated.line.promisedShipDate).toBe("2099-01-31");
    expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual([
      "order.created",
      "order.acknowledged",
      "order.shipped",
      "order.acknowledged",
    ]);
  });

  it("refuses bad input with 400: past dates, future delivery, a blank reason, a malformed tracking number", async () => {
    const { lineIds } = await freshOrder();
    const lineId = lineIds[0]!;
    for (const [action, body, field] of [
      ["acknowledge", { promisedShipDate: "2020-01-01" }, "promisedShipDate"],
      ["acknowledge", { promisedShipDate: "2026-02-30" }, "promisedShipDate"],
      ["backorder", { expectedShipDate: tomorrow(), reason: "  " }, "reason"],
      ["reject", {}, "reason"],
      ["ship", { trackingNumber: "<script>" }, "trackingNumber"],
      ["deliver", { deliveredAt: "2999-01-01T00:00:00Z" }, "deliveredAt"],
    ] as const) {
      const problem = await expectProblem(await move(lineId, action, body), 400);
      expect(Object.keys(problem.errors), `${action} ${JSON.stringify(body)}`).toEqual([field]);
    }
    expect(await lineStatus(lineId)).toBe("Ordered");
  });

  it("refuses an unknown field with a 400 naming it and the field meant, rather than moving the line without it", async () => {
    const { orderNumber, lineIds } = await freshOrder();
    const lineId = lineIds[0]!;
    for (const [action, body, errors] of [
      [
        "acknowledge",
        { promisedShipDate: tomorrow(), promisedShipdate: tomorrow() },
        { promisedShipdate: ["Unknown field; did you mean promisedShipDate?"] },
      ],
      ["backorder", { expectedShipDate: tomorrow(), reasons: "Awaiting stock" }, { reasons: ["Unknown field; did you mean reason?"] }],
      ["reject", { reason: "Discontinued", note: "x" }, { note: ["Unknown field; expected one of: reason."] }],
    ] as const) {
      const problem = await expectProblem(await move(lineId, action, body), 400);
      expect(problem.errors, `${action} ${JSON.stringify(body)}`).toEqual(errors);
    }
    expect(await lineStatus(lineId)).toBe("Ordered");
    expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual(["order.created"]);
  });
});

describe("vendor timestamps", () => {
  it("a shipment before the order was placed, or a delivery before the line's last shipment, is a 400 naming it", async () => {
    const { orderNumber, lineIds } = await freshOrder(1, { quantity: 2 });
    const lineId = lineIds[0]!;
    await move(lineId, "acknowledge", BODIES.acknowledge());
    for (const shippedAt of ["0001-01-01T00:00:00Z", "2020-01-01T00:00:00Z"]) {
      const problem = await expectProblem(await move(lineId, "ship", { trackingNumber: "1ZEARLY001", shippedAt }), 400);
      expect(problem.errors.shippedAt[0]).toContain("before the order was placed");
    }
    const shippedAt = new Date().toISOString();
    expect((await move(lineId, "ship", { trackingNumber: "1ZTIME0001", shippedAt })).status).toBe(200);
    const early = await expectProblem(
      await move(lineId, "deliver", { deliveredAt: new Date(Date.parse(shippedAt) - 60_000).toISOString() }),
      400,
    );
    expect(early.errors.deliveredAt[0]).toContain("last shipment");
    expect(await lineStatus(lineId)).toBe("Shipped");
    const delivered = (await json(await move(lineId, "deliver", { deliveredAt: shippedAt }))).data;
    expect(delivered.line.deliveredAt).toBe(shippedAt);
    expect((await readOrder(orderNumber)).status).toBe("Delivered");
  });
});

describe("concurrent changes of one order", () => {
  it("a change that lands between a move's read and its write aborts the move: 409, nothing written (injected)", async () => {
    const { orderNumber, lineIds } = await freshOrder(2);
    const db = database(tenantStoreDatabase(env, TENANT_A));
    const vendorId = await vendorOf(lineIds[0]!);
    // The tenant's real store, where the buyer cancels line 2 between the vendor's read and its write batch.
    let injected = false;
    const racing = withMethods(db, {
      batch: (batch) => async (statements: unknown[]) => {
        if (!injected && statements.length > 2) {
          injected = true;
          await putLineIn(lineIds[1]!, "Cancelled");
        }
        return batch(statements);
      },
    });
    const rejected = moveLine(racing, vendorId, lineIds[0]!, { action: "reject", reason: "No stock" } satisfies VendorMove);
    await expect(rejected).rejects.toMatchObject({ status: 409, slug: "order-changed" });
    expect(await lineStatus(lineIds[0]!)).toBe("Ordered");
    expect((await eventsOf(orderNumber)).map((e) => e.type)).toEqual(["order.created"]);
    expect(await storeRows(TENANT_A, "SELECT count(*) AS n FROM write_preconditions")).toEqual([{ n: 0 }]);
  });

  it("two vendors' moves and a buyer cancel at once on one order: each is applied or refused whole, the status adds up", async () => {
    const { orderNumber, lineIds } = await freshOrder(3);
    const results = await Promise.all([
      move(lineIds[0]!, "acknowledge", BODIES.acknowledge()),
      move(lineIds[1]!, "reject", BODIES.reject()),
      call(await tokenFor(TENANT_A), `/orders/${orderNumber}/cancel`, {
        method: "POST",
        json: { lineIds: [lineIds[2]] },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }),
    ]);
    for (const res of results) expect([200, 409]).toContain(res.status);
    const won = results.filter((r) => r.status === 200).length;
    const events = await eventsOf(orderNumber);
    expect(events).toHaveLength(1 + won);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    const order = await readOrder(orderNumber);
    const { orderStatusOf } = await import("../../src/api/orders/lifecycle");
    // The status the lines add up to, from the buyer's view of them (statusName; nothing shipped in this race).
    const lines = (order.lineItems as { statusName: string }[]).map((l) => ({ status: l.statusName, shippedQuantity: 0 }));
    expect(lines.map((l) => l.status)).not.toContain(undefined);
    expect(order.status).toBe(orderStatusOf(lines));
  });
});

describe("cancel meets fulfilment", () => {
  const toShip = (order: any) => order.shippingInfo.filter((d: any) => d.trackingNumber === null);
  const searchOrders = async (q: string) =>
    (await json(await call(await tokenFor(TENANT_A), `/orders/search?q=${encodeURIComponent(q)}`))).data.orders.map((o: any) => o.orderId);

  it("the to-ship document lists only what is left to ship, whatever closed a line, and goes when nothing is left", async () => {
    const { orderNumber, lineIds } = await freshOrder(3);
    const [rejected, cancelled, shipped] = lineIds as [number, number, number];
    const orderId = (await readOrder(orderNumber)).orderId;
    expect(await searchOrders(`trackingNumber:null AND orderNumber:"${orderNumber}"`)).toEqual([orderId]);

    await move(rejected, "reject", { reason: "Discontinued" });
    expect(toShip(await readOrder(orderNumber))[0].lineItemIds).toEqual([cancelled, shipped]);
    const cancel = await contractCall(await tokenFor(TENANT_A), `/orders/${orderNumber}/cancel`, {
      method: "POST",
      json: { lineIds: [cancelled] },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(cancel.status).toBe(200);
    expect(toShip(await readOrder(orderNumber))[0].lines).toEqual([{ lineId: shipped, quantity: 1 }]);

    await move(shipped, "acknowledge", BODIES.acknowledge());
    await move(shipped, "ship", { trackingNumber: "1ZLAST0001" });
    const order = await readOrder(orderNumber);
    expect(toShip(order)).toEqual([]);
    expect(order.shippingInfo.map((d: any) => d.lineItemIds)).toEqual([[shipped]]);
    expect(await searchOrders(`trackingNumber:null AND orderNumber:"${orderNumber}"`)).toEqual([]);
    expect(await searchOrders(`-trackingNumber:null AND orderNumber:"${orderNumber}"`)).toEqual([orderId]);
  });

  it("a fully cancelled order has no to-ship document and is not found by trackingNumber:null", async () => {
    const { orderNumber } = await freshOrder(2);
    const res = await contractCall(await tokenFor(TENANT_A), `/orders/${orderNumber}/cancel`, {
      method: "POST",
      json: {},
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(res.status).toBe(200);
    expect((await readOrder(orderNumber)).shippingInfo).toEqual([]);
    expect(await searchOrders(`trackingNumber:null AND orderNumber:"${orderNumber}"`)).toEqual([]);
    expect(await searchOrders(`-trackingNumber:null AND orderNumber:"${orderNumber}"`)).toEqual([]);
  });

  it("a line of which part has shipped cannot be cancelled: 409 naming it; with partial, the rest is cancelled", async () => {
    const { orderNumber, lineIds } = await freshOrder(2, { quantity: 2 });
    await move(lineIds[0]!, "acknowledge", BODIES.acknowledge());
    await move(lineIds[0]!, "ship", { trackingNumber: "1ZHALF0001", quantity: 1 });
    const cancel = async (body: unknown) =>
      contractCall(await tokenFor(TENANT_A), `/orders/${orderNumber}/cancel`, {
        method: "POST",
        json: body,
        headers: { "Idempotency-Key": crypto.randomUUID() },
      });
    const refused = await expectProblem(await cancel({}), 409);
    expect(refused.errors).toEqual([`line ${lineIds[0]} is Acknowledged and 1 of it has shipped.`]);
    const partial = (await json(await cancel({ partial: true }))).data;
    expect(partial.cancelledLineIds).toEqual([lineIds[1]]);
    expect(partial.notCancelled).toEqual([{ lineId: lineIds[0], statusName: "Acknowledged" }]);
    expect(partial.status).toBe("PartiallyShipped");
  });
});
