// Compile-time checks only (npm run typecheck): the typed surface accepts what it should and refuses the rest.
import type { Medparts, MedpartsEvent, ResponseData } from "../src/index.js";

declare const medparts: Medparts;

export async function checks() {
  // The Idempotency-Key header is optional (generated), and can be given.
  await medparts.POST("/customer/api/orders/{orderNumber}/cancel", { params: { path: { orderNumber: "ORD-1" } } });
  await medparts.POST("/customer/api/orders/{orderNumber}/cancel", {
    params: { path: { orderNumber: "ORD-1" }, header: { "idempotency-key": crypto.randomUUID() } },
    body: { reason: "Ordered twice" },
  });
  const order = await medparts.GET("/customer/api/orders/{orderNumber}", {
    params: { path: { orderNumber: "ORD-1" }, query: { include: "lineItems" } },
  });
  const status: string = order.status;
  const settings = await medparts.GET("/customer/api/purchasing-settings");
  const deleted: undefined = await medparts.DELETE("/customer/api/webhook-endpoints/{id}", { params: { path: { id: "we_1" } } });
  const event: MedpartsEvent | undefined = (await medparts.events().next()).value ?? undefined;
  if (event?.type === "order.shipped") event.data.orderNumber satisfies string;
  type Created = ResponseData<"post", "/customer/api/orders">;
  const created: Created = { orderNumber: "", createdAt: "", eventId: "" };

  // @ts-expect-error the operator API is not in the SDK
  await medparts.GET("/admin/api/clients");
  // @ts-expect-error a path parameter is required
  await medparts.GET("/customer/api/orders/{orderNumber}");
  // @ts-expect-error required body fields
  await medparts.POST("/customer/api/catalog/detail", { body: { productId: "MP-0000003" } });
  await medparts.POST("/customer/api/orders", {
    body: {
      requesterId: 1,
      userId: 1,
      facilityId: 1,
      shippingAddressId: 1,
      billingAddressId: 1,
      shippingMethod: "GROUND",
      // @ts-expect-error money is a decimal string
      quoteItems: [{ priceOptionId: "po_", productId: "MP-1", quantity: 1, price: 12.5 }],
    },
  });
  // @ts-expect-error only the versions of the document
  await medparts.GET("/customer/api/events", { params: { header: { "Medparts-Version": "2020-01-01" } } });
  // @ts-expect-error not a paginated list
  medparts.paginate("GET", "/customer/api/users/lookup");
  return { status, settings, deleted, created };
}
