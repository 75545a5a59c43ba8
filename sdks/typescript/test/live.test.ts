/**
 * Live tests against a running Medparts deployment, with a TEST-MODE buyer client (sandbox) and a vendor client.
 *
 *   MEDPARTS_URL=http://localhost:8791 \
 *   MEDPARTS_CLIENT_ID=mpc_test_... MEDPARTS_CLIENT_SECRET=... \
 *   MEDPARTS_VENDOR_CLIENT_ID=... MEDPARTS_VENDOR_CLIENT_SECRET=... \
 *   npx tsx --test --test-concurrency=1 test/live.test.ts
 *
 * Optional: MEDPARTS_REQUESTER_ID (50001), MEDPARTS_USER_ID (1), MEDPARTS_FACILITY_ID (1001),
 * MEDPARTS_SHIPPING_ADDRESS_ID (11), MEDPARTS_BILLING_ADDRESS_ID (13), MEDPARTS_PRODUCT_ID (MP-0000003).
 * The webhook test needs a deployment that allows http://localhost webhook URLs (a local one does).
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import {
  constructEvent,
  IdempotencyConflictError,
  InvalidRequestError,
  Medparts,
  type MedpartsEvent,
  type Schemas,
  SIGNATURE_HEADER,
} from "../src/index.js";

const env = process.env;
const missing = [
  "MEDPARTS_URL",
  "MEDPARTS_CLIENT_ID",
  "MEDPARTS_CLIENT_SECRET",
  "MEDPARTS_VENDOR_CLIENT_ID",
  "MEDPARTS_VENDOR_CLIENT_SECRET",
].filter((name) => !env[name]);

if (missing.length) {
  test("live tests need a deployment and credentials", () => {
    assert.fail(
      `Set ${missing.join(", ")} (a test-mode buyer client, mpc_test_..., and a vendor client). See the header of test/live.test.ts.`,
    );
  });
} else {
  const baseUrl = env.MEDPARTS_URL!;
  const ids = {
    requesterId: Number(env.MEDPARTS_REQUESTER_ID ?? 50001),
    userId: Number(env.MEDPARTS_USER_ID ?? 1),
    facilityId: Number(env.MEDPARTS_FACILITY_ID ?? 1001),
    shippingAddressId: Number(env.MEDPARTS_SHIPPING_ADDRESS_ID ?? 11),
    billingAddressId: Number(env.MEDPARTS_BILLING_ADDRESS_ID ?? 13),
    productId: env.MEDPARTS_PRODUCT_ID ?? "MP-0000003",
  };
  const buyer = new Medparts({ baseUrl, clientId: env.MEDPARTS_CLIENT_ID!, clientSecret: env.MEDPARTS_CLIENT_SECRET! });
  const vendor = new Medparts({ baseUrl, clientId: env.MEDPARTS_VENDOR_CLIENT_ID!, clientSecret: env.MEDPARTS_VENDOR_CLIENT_SECRET! });
  const poNumber = `SDK-TS-${Date.now()}`;

  type PriceOption = Schemas["PriceOption"];
  let options: PriceOption[] = [];
  let orderNumber = "";
  let createdEventId = "";
  let simulatedEventIds: string[] = [];

  // The webhook receiver: every delivery as it came, raw body and headers.
  const deliveries: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
  let receiver: Server | undefined;
  let endpoint: { id: string; secret: string } | undefined;

  const orderBody = (option: PriceOption, extra: Record<string, unknown> = {}) => ({
    requesterId: ids.requesterId,
    userId: ids.userId,
    facilityId: ids.facilityId,
    shippingAddressId: ids.shippingAddressId,
    billingAddressId: ids.billingAddressId,
    shippingMethod: "GROUND" as const,
    payment: { paymentMethod: "PO" as const, poNumber },
    quoteItems: [{ priceOptionId: option.priceOptionId, productId: ids.productId, quantity: 1, price: option.price }],
    ...extra,
  });

  after(async () => {
    if (endpoint)
      await buyer.DELETE("/customer/api/webhook-endpoints/{id}", { params: { path: { id: endpoint.id } } }).catch(() => undefined);
    if (receiver) await new Promise<void>((resolve) => receiver!.close(() => resolve()));
  });

  describe("buyer (test mode)", () => {
    before(() => {
      assert.match(env.MEDPARTS_CLIENT_ID!, /^mpc_test_/, "the buyer must be a test-mode client: these tests place orders");
    });

    test("token: issued once and cached", async () => {
      const token = await buyer.getToken();
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(await buyer.getToken(), token);
    });

    test("catalog search (answered in test mode, API version pinned)", async () => {
      const { data, response } = await buyer.raw.POST("/customer/api/catalog/search", {
        body: { requesterId: ids.requesterId, facilityId: ids.facilityId, filters: { query: "115-838 A" }, pagination: { limit: 10 } },
      });
      assert.equal(response.headers.get("Medparts-Mode"), "test");
      assert.equal(response.headers.get("Medparts-Version"), "2026-12-07");
      assert.ok(
        data?.data.items.some((item) => item.id === ids.productId),
        "the demo product is found by its part number",
      );
    });

    test("catalog detail: price options with decimal-string prices", async () => {
      const detail = await buyer.POST("/customer/api/catalog/detail", {
        body: { productId: ids.productId, requesterId: ids.requesterId, facilityId: ids.facilityId },
      });
      assert.equal(detail.product.id, ids.productId);
      assert.ok(detail.options.length >= 2, "at least two options (one to order, one for the business-rule test)");
      for (const option of detail.options) {
        assert.match(option.priceOptionId, /^po_/);
        assert.match(option.price, /^\d+\.\d{2}$/);
        assert.equal(typeof option.currency, "string");
      }
      // Options that can be ordered without custom field values.
      options = detail.options.filter((o) => !o.customFields.some((f) => f.isRequired));
      assert.ok(options.length >= 2);
    });

    test("register a webhook endpoint to a local receiver", async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          deliveries.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
      const url = `http://localhost:${(receiver.address() as AddressInfo).port}/webhooks`;
      const created = await buyer.POST("/customer/api/webhook-endpoints", { body: { url, eventTypes: ["*"] } });
      endpoint = { id: created.id, secret: created.secret };
      assert.match(created.secret, /^whsec_/);
      assert.equal(created.url, url);
      assert.equal(created.apiVersion, "2026-12-07");
    });

    test("place an order; the same key and body replays it", async () => {
      const key = crypto.randomUUID();
      const body = orderBody(options[0]!);
      const first = await buyer.raw.POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body });
      assert.equal(first.response.status, 201);
      orderNumber = first.data!.data.orderNumber;
      createdEventId = first.data!.data.eventId;
      assert.match(orderNumber, /^ORD-/);

      // Drive the order at once (off the default schedule), so that the events below are certain.
      const simulated = await buyer.POST("/customer/api/test-helpers/orders/{orderNumber}/simulate", {
        params: { path: { orderNumber } },
        body: { scenario: "ship" },
      });
      assert.equal(simulated.orderNumber, orderNumber);
      simulatedEventIds = simulated.eventIds;
      assert.ok(simulatedEventIds.length >= 1);

      const replay = await buyer.raw.POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body });
      assert.equal(replay.response.status, 201);
      assert.equal(replay.response.headers.get("X-Idempotency-Cached"), "true");
      assert.equal(replay.data!.data.orderNumber, orderNumber);
      // The unwrapping call answers the same order too.
      const again = await buyer.POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body });
      assert.equal(again.orderNumber, orderNumber);
      assert.equal(again.eventId, createdEventId);
    });

    test("a business rule violation (a price that is not the quote's) is a 422 InvalidRequestError", async () => {
      const body = orderBody(options[1]!);
      const error = await buyer
        .POST("/customer/api/orders", { body: { ...body, quoteItems: [{ ...body.quoteItems[0]!, price: "0.01" }] } })
        .catch((e: unknown) => e);
      assert.ok(error instanceof InvalidRequestError, String(error));
      assert.equal(error.status, 422);
      assert.equal(error.code, "business-rule");
      assert.ok(error.errors.length >= 1 && /price/.test(error.errors[0]!.detail), JSON.stringify(error.errors));
      assert.ok(error.correlationId);
    });

    test("the same key with another body is an IdempotencyConflictError", async () => {
      const key = crypto.randomUUID();
      const body = orderBody(options[1]!, { notes: "first" });
      const second = await buyer.POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body });
      assert.notEqual(second.orderNumber, orderNumber);
      const conflict = await buyer
        .POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body: { ...body, notes: "second" } })
        .catch((e: unknown) => e);
      assert.ok(conflict instanceof IdempotencyConflictError, String(conflict));
      assert.equal(conflict.status, 409);
      assert.equal(conflict.code, "idempotency-conflict");
      assert.equal(conflict.inProgress, false);
      assert.match(conflict.detail ?? "", /different request body/);
      assert.equal(conflict.idempotencyKey, key);
    });

    test("a validation error is an InvalidRequestError with field errors and a correlation id", async () => {
      const body = orderBody(options[0]!);
      const error = await buyer
        .POST("/customer/api/orders", {
          body: { ...body, quoteItems: [{ ...body.quoteItems[0]!, quantity: 0 }], poNumbr: "typo" } as typeof body,
          params: { header: { "X-Correlation-Id": "sdk-ts-live-validation" } },
        })
        .catch((e: unknown) => e);
      assert.ok(error instanceof InvalidRequestError, String(error));
      assert.equal(error.status, 400);
      assert.equal(error.code, "validation");
      assert.equal(error.correlationId, "sdk-ts-live-validation");
      assert.equal(error.headers?.get("X-Correlation-Id"), "sdk-ts-live-validation");
      const fields = error.errors.map((e) => e.field);
      assert.ok(fields.includes("quoteItems[0].quantity"), JSON.stringify(error.errors));
      assert.ok(fields.includes("poNumbr"), JSON.stringify(error.errors));
      assert.match(error.idempotencyKey ?? "", /^[0-9a-f-]{36}$/, "the SDK generated the key");
    });

    test("paginate orders", async () => {
      const found: string[] = [];
      for await (const order of buyer.paginate("GET", "/customer/api/orders/search", {
        params: { query: { q: `poNumber:"${poNumber}"`, limit: 1, include: "lineItems" } },
      })) {
        found.push(order.orderNumber);
        assert.equal(order.poNumber, poNumber);
      }
      // Two orders carry this run's PO number (the replayed one counts once): two pages of one.
      assert.equal(new Set(found).size, found.length);
      assert.equal(found.length, 2);
      assert.ok(found.includes(orderNumber));

      // Pages of one order across the sandbox's orders (a fresh deployment has only this run's two): stopped after three.
      const { pagination } = await buyer.GET("/customer/api/orders/search", { params: { query: { limit: 1 } } });
      let pages = 0;
      for await (const page of buyer.pages("GET", "/customer/api/orders/search", { params: { query: { limit: 1 } } })) {
        assert.equal(page.orders.length, 1);
        if (++pages === 3) break;
      }
      assert.ok(pagination.total >= 2, `total ${pagination.total}`);
      assert.equal(pages, Math.min(3, pagination.total));
    });

    test("the events feed holds the order's events", async () => {
      let created: MedpartsEvent | undefined;
      let scanned = 0;
      for await (const event of buyer.events({ types: "order.created", limit: 100 })) {
        scanned++;
        if (event.id === createdEventId) {
          created = event;
          break;
        }
      }
      assert.ok(created, `order.created ${createdEventId} not found in ${scanned} events`);
      assert.equal(created.type, "order.created");
      assert.equal(created.orderNumber, orderNumber);
      if (created.type === "order.created") assert.equal(created.data.poNumber, poNumber);

      // Resuming after it: the simulated events of the order follow.
      const later: string[] = [];
      for await (const event of buyer.events({ after: createdEventId, limit: 50 })) {
        if (event.orderNumber === orderNumber) later.push(event.id);
        if (simulatedEventIds.every((id) => later.includes(id))) break;
      }
      assert.deepEqual(
        later.filter((id) => simulatedEventIds.includes(id)),
        simulatedEventIds,
      );
    });

    test("webhook deliveries arrive signed and verify with constructEvent", async () => {
      assert.ok(endpoint);
      const wanted = new Set([createdEventId, ...simulatedEventIds]);
      const deadline = Date.now() + 60_000;
      const verified = new Map<string, MedpartsEvent>();
      while (Date.now() < deadline) {
        for (const delivery of deliveries) {
          const header = delivery.headers[SIGNATURE_HEADER.toLowerCase()];
          const event = await constructEvent(delivery.body, typeof header === "string" ? header : undefined, endpoint.secret);
          assert.equal(delivery.headers["medparts-event-id"], event.id);
          assert.equal(delivery.headers["medparts-event-type"], event.type);
          verified.set(event.id, event);
        }
        if ([...wanted].every((id) => verified.has(id))) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      for (const id of wanted) assert.ok(verified.has(id), `delivery of event ${id} not received`);
      const created = verified.get(createdEventId)!;
      assert.equal(created.type, "order.created");
      assert.equal(created.orderNumber, orderNumber);
      // A tampered delivery does not verify.
      const sample = deliveries[0]!;
      await assert.rejects(constructEvent(`${sample.body} `, String(sample.headers[SIGNATURE_HEADER.toLowerCase()]), endpoint.secret));
    });

    test("delete the webhook endpoint", async () => {
      assert.ok(endpoint);
      const deleted = await buyer.DELETE("/customer/api/webhook-endpoints/{id}", { params: { path: { id: endpoint.id } } });
      assert.equal(deleted, undefined);
      const { endpoints } = await buyer.GET("/customer/api/webhook-endpoints");
      assert.ok(!endpoints.some((e) => e.id === endpoint!.id));
      endpoint = undefined;
    });
  });

  describe("vendor", () => {
    test("lists its order lines and reads one", async () => {
      const lines: Schemas["VendorOrderLine"][] = [];
      for await (const line of vendor.paginate("GET", "/vendor/api/order-lines", { params: { query: { limit: 20 } } })) {
        lines.push(line);
        if (lines.length >= 40) break;
      }
      if (lines.length === 0) return; // nothing open for this vendor: the list itself answered
      const first = lines[0]!;
      const line = await vendor.GET("/vendor/api/order-lines/{lineId}", { params: { path: { lineId: first.lineId } } });
      assert.equal(line.lineId, first.lineId);
      assert.equal(line.orderNumber, first.orderNumber);
    });
  });
}
