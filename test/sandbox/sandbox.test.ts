import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EVENT_SCHEMAS } from "../../src/api/events/schemas";
import { DELIVERED_EVENT_TYPES } from "../../src/api/events/types";
import { INVOICE_EXCEPTIONS } from "../../src/api/sandbox/purchasing";
import { consumeSandboxBatch, type SandboxMessage } from "../../src/api/sandbox/schedule";
import { runScenario } from "../../src/api/sandbox/simulator";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { LATEST_VERSION } from "../../src/platform/versions/calendar";
import { CONFIRMATION_CODES } from "../../src/shared/confirmations/codes";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import {
  call,
  expectProblem,
  issueToken,
  json,
  operatorTokenFor,
  TENANT_A,
  testModeTokenFor,
  tokenFor,
  vendorTokenFor,
} from "../helpers/api";
import { issueQuotes, JSMITH, lineFor, orderBody, placeOrder, type Quote, withoutFields } from "../helpers/orders";
import { testVars } from "../helpers/platform";
import { testOrder, testQuote } from "../helpers/sandbox";
import { storeRows } from "../helpers/stores";
import { RECEIVER, receivedAt, receiverPath } from "../helpers/webhooks";

const simulate = async (orderNumber: string, body: Record<string, unknown>, token?: string) =>
  call(token ?? (await testModeTokenFor(TENANT_A)), `/test-helpers/orders/${orderNumber}/simulate`, { method: "POST", json: body });

/** A test order's first line, in the store of tenant A's sandbox twin, where test mode writes. */
const testLineOf = async (orderNumber: string) =>
  (
    await storeRows(
      -TENANT_A,
      "SELECT l.id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.order_number = ? ORDER BY l.id",
      orderNumber,
    )
  )[0]!.id as number;

const feedTypes = async (token: string, orderNumber: string) =>
  ((await json(await call(token, "/events?limit=100"))).data.events as { type: string; orderNumber: string }[])
    .filter((e) => e.orderNumber === orderNumber)
    .map((e) => e.type);

describe("sandbox: test mode", () => {
  it("a test-mode client: its id says so, the admin API makes one with mode test, every answer carries Medparts-Mode", async () => {
    const created = await call(await operatorTokenFor(), "/admin/api/clients", {
      method: "POST",
      json: { kind: "tenant", tenantId: TENANT_A, name: "ERP sandbox", mode: "test" },
    });
    expect(created.status).toBe(201);
    const client = (await json(created)).data.client;
    expect(client).toMatchObject({ mode: "test", kind: "tenant", tenantId: TENANT_A });
    expect(client.clientId).toMatch(/^mpc_test_/);
    await expectProblem(
      await call(await operatorTokenFor(), "/admin/api/clients", {
        method: "POST",
        json: { kind: "vendor", vendorId: 4, name: "x", mode: "test" },
      }),
      400,
    );
    const test = await call(await testModeTokenFor(TENANT_A), "/users/lookup?userId=1");
    expect(test.status).toBe(200);
    expect(test.headers.get("Medparts-Mode")).toBe("test");
    expect((await call(await tokenFor(TENANT_A), "/users/lookup?userId=1")).headers.get("Medparts-Mode")).toBe("live");
    const refused = await call(await testModeTokenFor(TENANT_A), "/orders/NOPE-1");
    expect(refused.status).toBe(404);
    expect(refused.headers.get("Medparts-Mode")).toBe("test");
  });

  it("test orders, their events and webhook endpoints are invisible to live clients, live ones to test clients, and to vendors", async () => {
    const { orderNumber, eventId } = await testOrder();
    const live = await tokenFor(TENANT_A);
    const test = await testModeTokenFor(TENANT_A);
    expect((await call(test, `/orders/${orderNumber}`)).status).toBe(200);
    await expectProblem(await call(live, `/orders/${orderNumber}`), 404);
    await expectProblem(await call(live, `/events/${eventId}`), 404);
    expect((await call(test, `/events/${eventId}`)).status).toBe(200);
    const liveSearch = await json(await call(live, `/orders/search?q=${encodeURIComponent(`orderNumber:"${orderNumber}"`)}`));
    expect(liveSearch.data.orders).toHaveLength(0);
    const liveOrders = (await json(await call(live, "/orders/search?limit=100"))).data;
    const testOrders = (await json(await call(test, "/orders/search?limit=100"))).data;
    const numbers = (page: any) => page.orders.map((o: any) => o.orderNumber);
    expect(numbers(testOrders)).toEqual([orderNumber]);
    expect(numbers(liveOrders)).not.toContain(orderNumber);
    // The demo vendor's view: the test order's lines are not there, and reading one is a 404.
    const vendor = await vendorTokenFor(DEMO_VENDOR_ID);
    const vendorLines = (await json(await call(vendor, `/vendor/api/order-lines?orderNumber=${orderNumber}`))).data.lines;
    expect(vendorLines).toEqual([]);
    const testLineId = await testLineOf(orderNumber);
    await expectProblem(await call(vendor, `/vendor/api/order-lines/${testLineId}`), 404);
    await expectProblem(
      await call(vendor, `/vendor/api/order-lines/${testLineId}/acknowledge`, { method: "POST", json: { promisedShipDate: "2099-01-01" } }),
      404,
    );
    // Endpoints: each mode sees its own.
    const endpoint = (
      await json(
        await call(test, "/webhook-endpoints", { method: "POST", json: { url: `${RECEIVER}${receiverPath("ok")}`, eventTypes: ["*"] } }),
      )
    ).data;
    await expectProblem(await call(live, `/webhook-endpoints/${endpoint.id}`), 404);
    expect(((await json(await call(live, "/webhook-endpoints"))).data.endpoints as { id: string }[]).map((e) => e.id)).not.toContain(
      endpoint.id,
    );
    // The same Idempotency-Key in both modes: two orders, no replay across.
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(await testQuote("MP-0000003"))]);
    const inTest = await call(test, "/orders", { method: "POST", json: body, headers: { "Idempotency-Key": key } });
    expect(inTest.status).toBe(201);
    const liveQuote = (
      await json(
        await call(live, "/catalog/detail", {
          method: "POST",
          json: { productId: "MP-0000003", requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
        }),
      )
    ).data.options[0];
    const inLive = await call(live, "/orders", {
      method: "POST",
      json: orderBody([lineFor({ ...liveQuote, productId: "MP-0000003", priceCents: 0, customFields: [] } as Quote)]),
      headers: { "Idempotency-Key": key },
    });
    expect([201, 422]).toContain(inLive.status);
    expect(inLive.headers.get("X-Idempotency-Cached")).toBeNull();
  });

  it("a live token on a test helper is a 404 exactly like an unknown path: body and headers, any method, without the scope", async () => {
    const { orderNumber } = await testOrder();
    /** What a caller can tell apart: status, body (the path named in it aside) and headers (the values that vary aside). */
    const seen = async (res: Response, path: string) => {
      const { correlationId: _c, timestamp: _t, ...body } = await res.clone().json<Record<string, string>>();
      return {
        status: res.status,
        body: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value).replace(path, "<path>")])),
        headers: [...res.headers.keys()].sort(),
        mode: res.headers.get("Medparts-Mode"),
        limit: res.headers.get("RateLimit-Limit"),
      };
    };
    const helper = `/test-helpers/orders/${orderNumber}/simulate`;
    const unknown = `/test-helpers/orders/${orderNumber}/simulatex`;
    const liveTokens = [await tokenFor(TENANT_A), (await issueToken(TENANT_A, ["users:read"])).token];
    for (const live of liveTokens) {
      for (const method of ["POST", "GET", "DELETE"]) {
        const init = method === "POST" ? { method, json: { scenario: "acknowledge" } } : { method };
        const answer = await seen(await call(live, helper, init), helper);
        expect(answer).toEqual(await seen(await call(live, unknown, init), unknown));
        expect(answer).toMatchObject({ status: 404, mode: "live", limit: expect.stringMatching(/^\d+$/) });
      }
    }
    await expectProblem(await simulate("MP-NOPE-1", { scenario: "acknowledge" }), 404);
  });
});

describe("sandbox: the simulated vendor", () => {
  it("runs every scenario through the real commit path: acknowledge, ship_partial, ship, deliver, with events and signed webhooks", async () => {
    const path = receiverPath("ok");
    const test = await testModeTokenFor(TENANT_A);
    const endpoint = (
      await json(await call(test, "/webhook-endpoints", { method: "POST", json: { url: `${RECEIVER}${path}`, eventTypes: ["*"] } }))
    ).data;
    const { orderNumber } = await testOrder(4);
    const steps: [string, string][] = [
      ["acknowledge", "Acknowledged"],
      ["ship_partial", "PartiallyShipped"],
      ["ship", "Shipped"],
      ["deliver", "Delivered"],
    ];
    for (const [scenario, status] of steps) {
      const res = await simulate(orderNumber, { scenario });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await json(res)).data).toMatchObject({ orderNumber, scenario, orderStatus: status, eventIds: [expect.any(String)] });
    }
    expect(await feedTypes(test, orderNumber)).toEqual([
      "order.created",
      "order.acknowledged",
      "order.shipped",
      "order.shipped",
      "order.delivered",
    ]);
    expect(await feedTypes(await tokenFor(TENANT_A), orderNumber)).toEqual([]);
    const order = (await json(await call(test, `/orders/${orderNumber}?include=lineItems,shippingInfo`))).data;
    expect(order.status ?? order.orderStatus).toBe("Delivered");
    // Every event of the order reached the test-mode endpoint, signed (it also gets the tenant's other test orders' events).
    const ofOrder = async () =>
      (await receivedAt(path)).filter((r) => (JSON.parse(r.body) as { orderNumber: string }).orderNumber === orderNumber);
    for (let i = 0; i < 50 && (await ofOrder()).length < 5; i++) await new Promise((r) => setTimeout(r, 200));
    const received = await ofOrder();
    expect(received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort()).toEqual(
      ["order.acknowledged", "order.created", "order.delivered", "order.shipped", "order.shipped"].sort(),
    );
    expect(received.every((r) => r.headers["medparts-signature"] ?? r.headers["x-medparts-signature"])).toBeTruthy();
    expect(endpoint.id).toEqual(expect.any(String));
    // A step with nothing to move: 409 naming it.
    const nothing = await expectProblem(await simulate(orderNumber, { scenario: "ship" }), 409);
    expect(nothing.detail).toContain("ship");
  });

  it("ship_partial ships one parcel per vendor holding half of what remains of each of its lines (at least 1)", async () => {
    const test = await testModeTokenFor(TENANT_A);
    const products = ["MP-0000002", "MP-0000003", "MP-0000004"];
    const quantities = [4, 5, 1];
    const quotes = await Promise.all(products.map((product) => testQuote(product)));
    const res = await call(test, "/orders", {
      method: "POST",
      json: orderBody(quotes.map((quote, i) => lineFor(quote, quantities[i]))),
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { orderNumber } = (await json(res)).data;
    const run = await simulate(orderNumber, { scenario: "ship_partial" });
    expect((await json(run)).data.orderStatus).toBe("PartiallyShipped");
    const shipped = (await storeRows(
      -TENANT_A,
      "SELECT l.vendor_id AS vendorId, l.quantity AS ordered, d.tracking_number AS trackingNumber, dl.quantity AS quantity " +
        "FROM shipping_document_lines dl JOIN shipping_documents d ON d.id = dl.shipping_document_id JOIN order_lines l ON l.id = dl.line_id " +
        "JOIN orders o ON o.id = d.order_id WHERE o.order_number = ?1 AND d.shipped_at IS NOT NULL ORDER BY l.id",
      orderNumber,
    )) as { vendorId: number; ordered: number; trackingNumber: string; quantity: number }[];
    expect(shipped.map((s) => [s.ordered, s.quantity])).toEqual([
      [4, 2],
      [5, 2],
      [1, 1],
    ]);
    const vendors = new Set(shipped.map((s) => s.vendorId));
    // The demo data puts two of these lines with one vendor: a parcel that holds several lines.
    expect(vendors.size).toBeLessThan(shipped.length);
    const parcelOf = new Map(shipped.map((s) => [s.vendorId, s.trackingNumber]));
    expect(shipped.every((s) => s.trackingNumber === parcelOf.get(s.vendorId))).toBe(true);
    expect(new Set(parcelOf.values()).size).toBe(vendors.size);
    // As the buyer reads it: one shipped document per parcel, listing its lines.
    const order = (await json(await call(test, `/orders/${orderNumber}?include=lineItems,shippingInfo`))).data;
    const documents = (order.shippingInfo as { trackingNumber: string | null; lines: unknown[] }[]).filter((d) => d.trackingNumber);
    expect(documents.map((d) => d.lines.length).sort()).toEqual(
      [...vendors].map((v) => shipped.filter((s) => s.vendorId === v).length).sort(),
    );
  });

  it("backorder with a date, reject_line with a reason, and the buyer's cancel of a test order", async () => {
    const test = await testModeTokenFor(TENANT_A);
    const backordered = await testOrder();
    const res = await simulate(backordered.orderNumber, { scenario: "backorder", expectedShipDate: "2099-03-01", reason: "Recall hold" });
    expect((await json(res)).data.orderStatus).toBe("Backordered");
    const rejected = await testOrder();
    const rejection = await simulate(rejected.orderNumber, { scenario: "reject_line", reason: "Discontinued" });
    expect(rejection.status).toBe(200);
    expect(await feedTypes(test, backordered.orderNumber)).toEqual(["order.created", "order.backordered"]);
    expect(await feedTypes(test, rejected.orderNumber)).toEqual(["order.created", "order.rejected"]);
    await expectProblem(await simulate(rejected.orderNumber, { scenario: "backorder", expectedShipDate: "2001-01-01" }), 400);
    // The buyer's own move on a test order: order.cancelled, in the test feed only.
    const cancelled = await testOrder();
    const cancel = await call(test, `/orders/${cancelled.orderNumber}/cancel`, {
      method: "POST",
      json: { reason: "Not needed" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    expect(await feedTypes(test, cancelled.orderNumber)).toEqual(["order.created", "order.cancelled"]);
  });

  it("confirm sends any X12 855 code on demand, and invoice an invoice with each kind of exception, through the real paths", async () => {
    const test = await testModeTokenFor(TENANT_A);
    const lineOf = async (orderNumber: string) =>
      (await json(await call(test, `/orders/${orderNumber}?include=lineItems`))).data.lineItems[0] as Record<string, unknown>;
    for (const { code, name, effect } of CONFIRMATION_CODES) {
      const { orderNumber } = await testOrder();
      // Every other code by its X12 code, every other by its name: both spellings work.
      const res = await simulate(orderNumber, { scenario: "confirm", code: code.charCodeAt(1) % 2 ? code : name });
      expect(res.status, `${code}: ${await res.clone().text()}`).toBe(200);
      const line = await lineOf(orderNumber);
      expect(line.confirmationCode, code).toBe(code);
      const expected = { accept: "Acknowledged", backorder: "Backordered", hold: "Ordered", reject: "Rejected" } as const;
      if (effect === "change") {
        // IC lowers the price (applied at once); IP raises it, IQ and IS change the quantity or product (the buyer's answer).
        if (code === "IC") expect(line).toMatchObject({ statusName: "Acknowledged", pendingChange: null });
        else expect(line).toMatchObject({ statusName: "Ordered", pendingChange: { code } });
      } else expect(line.statusName, code).toBe(expected[effect]);
      expect(await feedTypes(test, orderNumber)).toEqual(["order.created", "order.confirmed"]);
    }
    for (const exception of INVOICE_EXCEPTIONS) {
      const { orderNumber } = await testOrder();
      expect((await simulate(orderNumber, { scenario: "invoice" })).status, "nothing shipped: nothing to invoice").toBe(409);
      expect((await simulate(orderNumber, { scenario: "ship" })).status).toBe(200);
      const contracted = (await lineOf(orderNumber)).contractPrice !== null;
      const res = await simulate(orderNumber, { scenario: "invoice", exception });
      if (exception === "contract_price_exception" && !contracted) {
        expect((await expectProblem(res, 409)).type).toMatch(/no-contract-line/);
        continue;
      }
      expect(res.status, `${exception}: ${await res.clone().text()}`).toBe(200);
      const found = (await json(await call(test, `/invoices?q=${encodeURIComponent(`orderNumber:"${orderNumber}"`)}`))).data.invoices;
      expect(found).toHaveLength(1);
      const statuses = found[0].lines.map((l: { matchStatus: string }) => l.matchStatus);
      if (exception === "none") expect(found[0].status).toBe("matched");
      else {
        expect(found[0].status).toBe("exception");
        expect(statuses).toContain(exception);
      }
      expect((await feedTypes(test, orderNumber)).slice(-2)).toEqual([
        "invoice.received",
        exception === "none" ? "invoice.matched" : "invoice.exception",
      ]);
    }
  });

  it("by default a new test order is acknowledged, shipped and delivered on its own (SANDBOX_STEP_SECONDS)", async () => {
    const test = await testModeTokenFor(TENANT_A);
    const { orderNumber } = await testOrder(1);
    let types: string[] = [];
    for (let i = 0; i < 60 && !types.includes("order.delivered"); i++) {
      await new Promise((r) => setTimeout(r, 250));
      types = await feedTypes(test, orderNumber);
    }
    expect(types).toEqual(["order.created", "order.acknowledged", "order.shipped", "order.delivered"]);
  });
});

describe("webhook samples", () => {
  it("POST /webhook-endpoints/{id}/test sends a signed sample of any event type, in its documented shape", async () => {
    const path = receiverPath("ok");
    const test = await testModeTokenFor(TENANT_A);
    const endpoint =
      // At the latest version: its deliveries are checked against the event schemas, which are the latest's.
      (
        await json(
          await call(test, "/webhook-endpoints", {
            method: "POST",
            json: { url: `${RECEIVER}${path}`, eventTypes: ["*"], apiVersion: LATEST_VERSION },
          }),
        )
      ).data;
    for (const type of DELIVERED_EVENT_TYPES) {
      const res = await call(test, `/webhook-endpoints/${endpoint.id}/test`, { method: "POST", json: { type } });
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await json(res)).data.delivered).toBe(true);
    }
    const received = await receivedAt(path);
    expect(received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
    for (const delivery of received) {
      const body = JSON.parse(delivery.body) as { type: (typeof DELIVERED_EVENT_TYPES)[number] };
      const parsed = EVENT_SCHEMAS[body.type].safeParse(body);
      expect(parsed.success, `${body.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    await expectProblem(
      await call(test, `/webhook-endpoints/${endpoint.id}/test`, { method: "POST", json: { type: "order.exploded" } }),
      400,
    );
  });
});

describe("sandbox: the edges a review found", () => {
  const batchOf = (orderNumber: string, step: number) => {
    const acked: string[] = [];
    const batch = {
      queue: "medparts-sandbox",
      messages: [
        {
          // As the schedule sends it: the order is in the store of tenant A's sandbox twin.
          body: { orderNumber, dataTenantId: -TENANT_A, step },
          ack: () => acked.push("ack"),
          retry: () => acked.push("retry"),
        },
      ],
    } as unknown as MessageBatch<SandboxMessage>;
    return { batch, acked };
  };

  it("a step handed over again after its commit (a consumer that died before scheduling the next) moves nothing and goes on", async () => {
    const test = await testModeTokenFor(TENANT_A);
    // Off the queue's own schedule, so that only the steps handed over here run.
    const { orderNumber } = await testOrder(1, testVars({ SANDBOX_STEP_SECONDS: 0 }));
    // Step 0 committed, then the consumer died before it scheduled step 1: the queue hands step 0 over again.
    await runScenario(tenantStoreDatabase(env, -TENANT_A), -TENANT_A, orderNumber, "acknowledge", { unlessManual: true });
    const { batch, acked } = batchOf(orderNumber, 0);
    await consumeSandboxBatch(batch, env);
    expect(acked).toEqual(["ack"]);
    expect(await feedTypes(test, orderNumber)).toEqual(["order.created", "order.acknowledged"]);
    // The redelivered step 0 scheduled step 1 (env's SANDBOX_STEP_SECONDS): the order still goes on to delivery.
    let types: string[] = [];
    for (let i = 0; i < 60 && !types.includes("order.delivered"); i++) {
      await new Promise((r) => setTimeout(r, 250));
      types = await feedTypes(test, orderNumber);
    }
    expect(types.filter((t) => t === "order.acknowledged")).toHaveLength(1);
    expect(types).toContain("order.delivered");
  });

  it("a failed scenario leaves the order on the schedule; a vendor's ship with units of a test line is the unknown line's 404", async () => {
    const { orderNumber } = await testOrder(1, testVars({ SANDBOX_STEP_SECONDS: 0 }));
    await expectProblem(await simulate(orderNumber, { scenario: "deliver" }), 409);
    const [manual] = await storeRows(
      -TENANT_A,
      "SELECT count(*) AS n FROM sandbox_manual_orders m JOIN orders o ON o.id = m.order_id WHERE o.order_number = ?",
      orderNumber,
    );
    expect(manual!.n).toBe(0);
    const lineId = await testLineOf(orderNumber);
    const vendor = await vendorTokenFor(DEMO_VENDOR_ID);
    const ship = (id: number) =>
      call(vendor, `/vendor/api/order-lines/${id}/ship`, {
        method: "POST",
        json: { trackingNumber: "1ZPROBE", units: ["(01)00000000000000"] },
      });
    const test = await expectProblem(await ship(lineId), 404);
    const unknown = await expectProblem(await ship(2_000_000_000), 404);
    expect(test.detail).toBe(unknown.detail);
  });

  it("a price option belongs to the mode that issued it: the other mode's order is a 404 naming the line, and names nothing of the first", async () => {
    const quote = await testQuote("MP-0000006");
    const inTest = await call(await testModeTokenFor(TENANT_A), "/orders", {
      method: "POST",
      json: orderBody([lineFor(quote)]),
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(inTest.status).toBe(201);
    const testOrderNumber = (await json(inTest)).data.orderNumber as string;
    const inLive = await call(await tokenFor(TENANT_A), "/orders", {
      method: "POST",
      json: orderBody([lineFor(quote)]),
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    const refused = await expectProblem(inLive, 404);
    expect(JSON.stringify(refused)).not.toContain(testOrderNumber);
    // And the other way: a live price option, never ordered, is no price option in test mode.
    const live = (await issueQuotes("MP-0000006")).find(withoutFields);
    const liveInTest = await call(await testModeTokenFor(TENANT_A), "/orders", {
      method: "POST",
      json: orderBody([lineFor(live!)]),
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    await expectProblem(liveInTest, 404);
    expect((await placeOrder(orderBody([lineFor(live!)]))).status).toBe(201);
  });
});
