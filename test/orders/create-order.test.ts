import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { centsToText } from "../../src/platform/money";
import { json, TENANT_A } from "../helpers/api";
import {
  dropFromKv,
  issueQuote,
  issueQuotes,
  JSMITH,
  KJOHNSON,
  lineFor,
  orderBody,
  placeOrder,
  rowsWrittenBy,
  storedQuoteLike,
} from "../helpers/orders";
import { storeRows } from "../helpers/stores";

const ORDER_NUMBER = /^ORD-\d{8}-[0-9A-HJKMNP-TV-Z]{8}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The order as its tenant's store holds it. */
async function orderRow(orderNumber: string, tenantId = TENANT_A) {
  return (await storeRows(tenantId, "SELECT * FROM orders WHERE order_number = ?", orderNumber))[0] as Record<string, any>;
}

describe("POST /orders: success", () => {
  it("creates a multi-line order from several vendors in one write: order, lines, used quotes, shipping document, event", async () => {
    const options = await issueQuotes("MP-0000001"); // four vendors, two of them with custom fields
    const other = await issueQuote("MP-0000002");
    const items = [...options.map((q, i) => lineFor(q, i + 1)), lineFor(other, 3)];
    expect(new Set(options.map((q) => q.vendorName)).size).toBeGreaterThanOrEqual(3);
    expect(items.some((item) => item.requiredFields?.length)).toBe(true);

    const { result: res, written } = await rowsWrittenBy(() => placeOrder(orderBody(items, JSMITH, { notes: "Deliver to dock 3" })));

    expect(res.status).toBe(201);
    expect(res.headers.get("X-Idempotency-Cached")).toBeNull();
    const body = await json(res);
    expect(body).toMatchObject({ success: true, correlationId: expect.any(String), timestamp: expect.any(String) });
    expect(Object.keys(body.data).sort()).toEqual(["createdAt", "eventId", "orderNumber", "success"]);
    expect(body.data.orderNumber).toMatch(ORDER_NUMBER);
    expect(body.data.eventId).toMatch(UUID);
    expect(body.data.success).toBe(true);
    expect(new Date(body.data.createdAt).toISOString()).toBe(body.data.createdAt);
    const lineCount = items.length;
    expect(written).toEqual({
      orders: 1,
      orderLines: lineCount,
      shippingDocuments: 1,
      shippingDocumentLines: lineCount,
      events: 1,
    });

    const order = await orderRow(body.data.orderNumber);
    const expectedTotal = [...options, other].reduce((sum, q, i) => sum + q.priceCents * items[i]!.quantity, 0);
    expect(order).toMatchObject({
      tenant_id: TENANT_A,
      company_id: 101,
      facility_id: JSMITH.facilityId,
      requester_contact_id: JSMITH.requesterContactId,
      user_id: JSMITH.userId,
      requester_name: "John Smith",
      po_number: "PO-2024-0001",
      payment_method: "PO",
      shipping_method: "GROUND",
      shipping_address_id: 11,
      billing_address_id: 13,
      notes: "Deliver to dock 3",
      total_cents: expectedTotal,
      event_id: body.data.eventId,
      created_at: body.data.createdAt,
    });

    const lines = (await storeRows(TENANT_A, "SELECT * FROM order_lines WHERE order_id = ? ORDER BY line_number", order.id)) as Record<
      string,
      any
    >[];
    // Vendors are the control plane's: their names stay in DB.
    const { results: vendors } = await env.DB.prepare("SELECT id, name FROM vendors").all<{ id: number; name: string }>();
    const vendorName = new Map(vendors.map((v) => [v.id, v.name]));
    expect(lines.map((l) => l.quote_id)).toEqual(items.map((i) => i.priceOptionId));
    lines.forEach((line, i) => {
      const quote = [...options, other][i]!;
      expect(vendorName.get(line.vendor_id)).toBe(quote.vendorName);
      expect(line).toMatchObject({
        line_number: i + 1,
        product_id: quote.productId,
        quantity: items[i]!.quantity,
        price_cents: quote.priceCents,
        extended_price_cents: quote.priceCents * items[i]!.quantity,
        status_name: "Ordered",
        po_number: "PO-2024-0001",
      });
      expect(JSON.parse(line.required_fields)).toEqual(items[i]!.requiredFields ?? []);
    });

    expect(await storeRows(TENANT_A, "SELECT count(*) AS n FROM quotes WHERE used_by_order_id = ?", order.id)).toEqual([{ n: lineCount }]);

    const [doc] = await storeRows(TENANT_A, "SELECT * FROM shipping_documents WHERE order_id = ?", order.id);
    expect(doc).toMatchObject({ carrier_name: "UPS", service_level: "Ground", city: "Springfield", state: "IL" });

    const [event] = (await storeRows(TENANT_A, "SELECT * FROM outbox_events WHERE id = ?", body.data.eventId)) as Record<string, any>[];
    expect(event).toMatchObject({ type: "order.created", tenant_id: TENANT_A, aggregate_id: body.data.orderNumber, delivered_at: null });
    const payload = JSON.parse(event!.payload);
    expect(payload).toMatchObject({
      orderNumber: body.data.orderNumber,
      facilityId: JSMITH.facilityId,
      total: centsToText(expectedTotal),
    });
    expect(payload.lines).toHaveLength(lineCount);
  });

  it("accepts the maximum of 50 lines in one order", async () => {
    const quotes = [];
    for (let n = 30; quotes.length < 50; n++) quotes.push(...(await issueQuotes(`MP-${String(n).padStart(7, "0")}`)));
    const items = quotes.slice(0, 50).map((q) => lineFor(q, 2));
    const { result: res, written } = await rowsWrittenBy(() => placeOrder(orderBody(items)));
    expect(res.status).toBe(201);
    expect(written).toEqual({ orders: 1, orderLines: 50, shippingDocuments: 1, shippingDocumentLines: 50, events: 1 });
  });

  it("accepts the payment object form and the other codes", async () => {
    const quote = await issueQuote("MP-0000003");
    const res = await placeOrder(
      orderBody([lineFor(quote)], JSMITH, {
        poNumber: undefined,
        shippingMethod: "NEXT_DAY",
        payment: { paymentMethod: "CREDIT_CARD_ON_FILE" },
      }),
    );
    expect(res.status).toBe(201);
    const order = await orderRow((await json(res)).data.orderNumber);
    expect(order).toMatchObject({ payment_method: "CREDIT_CARD_ON_FILE", po_number: null, shipping_method: "NEXT_DAY" });
    expect(await storeRows(TENANT_A, "SELECT carrier_name, service_level FROM shipping_documents WHERE order_id = ?", order.id)).toEqual([
      { carrier_name: "UPS", service_level: "Next Day Air" },
    ]);
  });

  it("takes neither poNumber nor payment (both optional, spec 4.7): billed on net terms, no PO number", async () => {
    const quote = await issueQuote("MP-0000005");
    const res = await placeOrder(orderBody([lineFor(quote)], JSMITH, { poNumber: undefined }));
    expect(res.status).toBe(201);
    expect(await orderRow((await json(res)).data.orderNumber)).toMatchObject({ payment_method: "NET_TERMS", po_number: null });
  });

  it("a top-level poNumber alone means payment by PO", async () => {
    const quote = await issueQuote("MP-0000006");
    const res = await placeOrder(orderBody([lineFor(quote)], JSMITH, { poNumber: "PO-TOP" }));
    expect(res.status).toBe(201);
    expect(await orderRow((await json(res)).data.orderNumber)).toMatchObject({ payment_method: "PO", po_number: "PO-TOP" });
  });

  it("rejects a price with more than two decimal places exactly as sent (400), however small the excess", async () => {
    const quote = await issueQuote("MP-0000007");
    const res = await placeOrder(orderBody([{ ...lineFor(quote), price: quote.price + 0.000000001 }], JSMITH));
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toHaveProperty(["quoteItems[0].price"]);
  });

  it("takes the PO number from payment when paymentMethod is PO", async () => {
    const quote = await issueQuote("MP-0000004");
    const res = await placeOrder(
      orderBody([lineFor(quote)], JSMITH, { poNumber: undefined, payment: { paymentMethod: "PO", poNumber: "PO-77" } }),
    );
    expect(res.status).toBe(201);
    expect(await orderRow((await json(res)).data.orderNumber)).toMatchObject({ payment_method: "PO", po_number: "PO-77" });
  });

  it("orders with a stored quote (issued before signed ids) that KV no longer has, from its record in the store; once", async () => {
    const quote = await storedQuoteLike(await issueQuote("MP-0000005"));
    await dropFromKv(quote);
    const res = await placeOrder(orderBody([lineFor(quote)]));
    expect(res.status).toBe(201);
    const order = await orderRow((await json(res)).data.orderNumber);
    expect(await storeRows(TENANT_A, "SELECT used_by_order_id FROM quotes WHERE id = ?", quote.priceOptionId)).toEqual([
      { used_by_order_id: order.id },
    ]);
    expect((await placeOrder(orderBody([lineFor(quote)]))).status).toBe(409);
  });

  it("lets the user placing the order differ from the requester when both may order for the facility", async () => {
    const quote = await issueQuote("MP-0000006");
    const res = await placeOrder(orderBody([lineFor(quote)], { ...JSMITH, userId: 2 })); // mgarcia, facility 1001
    expect(res.status).toBe(201);
    expect(await orderRow((await json(res)).data.orderNumber)).toMatchObject({ user_id: 2, requester_contact_id: 50001 });
  });

  it("serves each tenant its own orders (tenant 2)", async () => {
    const quote = await issueQuote("MP-0000007", KJOHNSON);
    const res = await placeOrder(orderBody([lineFor(quote)], KJOHNSON), { tenantId: KJOHNSON.tenantId });
    expect(res.status).toBe(201);
    const { orderNumber } = (await json(res)).data;
    expect(await orderRow(orderNumber, KJOHNSON.tenantId)).toMatchObject({ tenant_id: KJOHNSON.tenantId, company_id: 201 });
    // In tenant 2's store only.
    expect(await orderRow(orderNumber)).toBeUndefined();
  });
});
