// Places a test-mode order: MEDPARTS_URL, MEDPARTS_CLIENT_ID (mpc_test_...) and MEDPARTS_CLIENT_SECRET from the environment.
// Run (after `npm run build`): npx tsx examples/place-order.ts. The ids are a local deployment's demo data (`npm start`).
import { Medparts } from "@medparts/sdk";

const { MEDPARTS_URL: baseUrl, MEDPARTS_CLIENT_ID: clientId = "", MEDPARTS_CLIENT_SECRET: clientSecret = "" } = process.env;
const medparts = new Medparts({ baseUrl, clientId, clientSecret });
const who = { requesterId: 50001, facilityId: 1001 };
const { options } = await medparts.POST("/customer/api/catalog/detail", { body: { productId: "MP-0000003", ...who } });
const { priceOptionId, price } = options.find((o) => !o.customFields.some((f) => f.isRequired))!;
const quoteItems = [{ priceOptionId, productId: "MP-0000003", quantity: 1, price }];
const body = { ...who, userId: 1, shippingAddressId: 11, billingAddressId: 13, shippingMethod: "GROUND" as const, quoteItems };
const order = await medparts.POST("/customer/api/orders", { body }); // Idempotency-Key: made, and reused by every retry
console.log(`Ordered ${order.orderNumber} (event ${order.eventId})`);
