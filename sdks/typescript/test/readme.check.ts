// The README's snippets, compiled by `npm run typecheck` (not run).
import { ConflictError, constructEvent, InvalidRequestError, type Medparts, SignatureVerificationError } from "../src/index.js";

declare const medparts: Medparts;
declare const vendor: Medparts;
declare function showFieldError(field: string | undefined, detail: string): void;
declare function loadCursor(): Promise<string | undefined>;
declare function saveCursor(cursor: string): Promise<void>;
declare function handle(event: unknown): Promise<void>;

export async function snippets() {
  const who = { requesterId: 50001, facilityId: 1001 };
  const { options } = await medparts.POST("/customer/api/catalog/detail", { body: { productId: "MP-0000003", ...who } });
  const option = options[0]!;
  const body = {
    ...who,
    userId: 1,
    shippingAddressId: 11,
    billingAddressId: 13,
    shippingMethod: "GROUND" as const,
    payment: { paymentMethod: "PO" as const, poNumber: "PO-1001" },
    quoteItems: [{ priceOptionId: option.priceOptionId, productId: "MP-0000003", quantity: 2, price: option.price }],
  };
  const order = await medparts.POST("/customer/api/orders", { body });
  await medparts.GET("/customer/api/orders/{orderNumber}", {
    params: { path: { orderNumber: order.orderNumber }, query: { include: "lineItems,shippingInfo" } },
  });
  for await (const line of vendor.paginate("GET", "/vendor/api/order-lines", { params: { query: { status: "Ordered" } } })) {
    await vendor.POST("/vendor/api/order-lines/{lineId}/acknowledge", {
      params: { path: { lineId: line.lineId } },
      body: { promisedShipDate: "2026-12-20" },
    });
  }
  const { response } = await medparts.raw.POST("/customer/api/orders", { body });
  response.headers.get("X-Idempotency-Cached");
  const key = crypto.randomUUID();
  await medparts.POST("/customer/api/orders", { params: { header: { "idempotency-key": key } }, body });
  for await (const o of medparts.paginate("GET", "/customer/api/orders/search", {
    params: { query: { q: 'status:Ordered AND orderDate>="2026-12-01"', limit: 100, include: "lineItems" } },
  })) {
    console.log(o.orderNumber, o.total, o.currency);
  }
  for await (const item of medparts.paginate("POST", "/customer/api/catalog/search", {
    body: { requesterId: 50001, facilityId: 1001, filters: { query: "115-838 A" }, pagination: { limit: 50 } },
  })) {
    console.log(item.id, item.displayPartNumber);
  }
  let cursor = await loadCursor();
  for await (const event of medparts.events({ after: cursor, types: ["order.shipped", "order.delivered"], limit: 100 })) {
    await handle(event);
    cursor = event.id;
    await saveCursor(cursor);
  }
  try {
    await medparts.POST("/customer/api/orders", { body });
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      for (const { field, detail } of error.errors) showFieldError(field, detail);
    } else if (error instanceof ConflictError && error.code === "price-option-used") {
      // new options
    } else throw error;
  }
}

export const worker = {
  async fetch(request: Request, env: { MEDPARTS_WEBHOOK_SECRET: string }) {
    const body = await request.text();
    try {
      const event = await constructEvent(body, request.headers.get("Medparts-Signature"), env.MEDPARTS_WEBHOOK_SECRET);
      if (event.type === "order.shipped") console.log(event.orderNumber, event.data);
      return new Response(null, { status: 204 });
    } catch (error) {
      if (error instanceof SignatureVerificationError) return new Response("bad signature", { status: 400 });
      throw error;
    }
  },
};
