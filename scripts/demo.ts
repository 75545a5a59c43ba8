import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import type { CatalogItem } from "../src/catalog/catalog";
import type { CatalogDetailSchema } from "../src/catalog/routes";
import { type CallOptions, requestInit } from "../src/client/request";
import type { UserSchema } from "../src/users/routes";

/**
 * `npm run demo`: the integrator flow of spec section 1 against a running `npm start`, printing each step.
 * Typed by the spec's shapes (2.x, 4.x); each call fails loudly with its HTTP status and body.
 *
 *   MEDPARTS_URL (default http://localhost:$PORT or :8787)
 *   MEDPARTS_CLIENT_ID / MEDPARTS_CLIENT_SECRET (default: .medparts-demo.json written by npm start)
 *   DEMO_QUERY (catalog keywords, default "SpO2 sensor"), DEMO_USER (loginUserId, default jsmith)
 */

type User = z.infer<typeof UserSchema>;

interface Envelope<T> {
  success: true;
  data: T;
  correlationId: string;
  timestamp: string;
}
interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}
type CatalogDetail = z.infer<typeof CatalogDetailSchema>;
type PriceOption = CatalogDetail["options"][number];
interface OrderCreated {
  orderNumber: string;
  createdAt: string;
  success: boolean;
  eventId: string;
}
interface OrderRecord {
  orderId: number;
  poNumber: string;
  total: number;
  orderDate: string;
  lastUpdated: string;
  status: string;
  shippingMethod: string;
  lineItems?: { lineId: number; partNumber: string; quantity: number; price: number; extendedPrice: number; statusName: string }[];
  shippingInfo?: { shippingDocId: number; carrierName: string; serviceLevel: string; city: string; state: string }[];
}

const BASE_URL = (process.env.MEDPARTS_URL ?? `http://localhost:${process.env.PORT ?? "8787"}`).replace(/\/$/, "");
const API = `${BASE_URL}/customer/api`;

class StepFailed extends Error {}

function credentials(): { clientId: string; clientSecret: string } {
  const { MEDPARTS_CLIENT_ID: clientId, MEDPARTS_CLIENT_SECRET: clientSecret } = process.env;
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (!existsSync(".medparts-demo.json")) {
    throw new StepFailed(
      "No credentials: run `npm start` first (it writes .medparts-demo.json) or set MEDPARTS_CLIENT_ID and MEDPARTS_CLIENT_SECRET.",
    );
  }
  return JSON.parse(readFileSync(".medparts-demo.json", "utf8")) as { clientId: string; clientSecret: string };
}

let stepNumber = 0;
function step(title: string): void {
  console.log(`\n${++stepNumber}. ${title}`);
}
const show = (label: string, value: unknown) =>
  console.log(`   ${label.padEnd(18)} ${typeof value === "string" ? value : JSON.stringify(value)}`);

/** One HTTP call; anything but a 2xx stops the demo with the method, URL, status and body. */
async function send<T>(method: string, url: string, options: CallOptions = {}) {
  let res: Response;
  try {
    res = await fetch(url, requestInit(method, options));
  } catch (error) {
    throw new StepFailed(`${method} ${url}: no answer (${(error as Error).message}). Is \`npm start\` running at ${BASE_URL}?`);
  }
  const text = await res.text();
  if (!res.ok) {
    const hint = res.status === 404 && text.includes("No route for") ? " (endpoint not in this build yet)" : "";
    throw new StepFailed(`${method} ${url} failed: HTTP ${res.status}${hint}\n   ${text.slice(0, 1000)}`);
  }
  show("HTTP", `${res.status} ${method} ${url.replace(BASE_URL, "")}  (X-Correlation-Id ${res.headers.get("X-Correlation-Id")})`);
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as T };
}

async function main(): Promise<void> {
  console.log(`Medparts demo against ${BASE_URL}`);

  step("Token (OAuth 2.0 client credentials)");
  const { clientId, clientSecret } = credentials();
  const token = await send<{ access_token: string; expires_in: number; scope: string }>("POST", `${BASE_URL}/auth/oauth2/token`, {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  const accessToken = token.body.access_token;
  show("expires_in", token.body.expires_in);
  show("scope", token.body.scope);

  step("Look up the buyer: contact id, facilities, addresses");
  const loginUserId = process.env.DEMO_USER ?? "jsmith";
  const lookup = await send<Envelope<User>>("GET", `${API}/users/lookup?loginUserId=${encodeURIComponent(loginUserId)}`, {
    token: accessToken,
  });
  const user = lookup.body.data;
  const company = user.companies.find((c) => c.facilities.length > 0 && c.shippingAddresses.length > 0 && c.billingAddresses.length > 0);
  if (!company) throw new StepFailed(`${loginUserId} has no company with a facility and addresses to order for.`);
  const facility = company.facilities[0]!;
  const shippingAddress = company.shippingAddresses[0]!;
  const billingAddress = company.billingAddresses[0]!;
  show("user", `${user.firstName} ${user.lastName} (userId ${user.userId}, contactId ${user.contactId})`);
  show("facility", `${facility.name} (${facility.id}) of ${company.name}`);
  show(
    "ship to / bill to",
    `address ${shippingAddress.id} (${shippingAddress.line1}, ${shippingAddress.city}) / address ${billingAddress.id}`,
  );
  const ids = { facilityId: facility.id, requesterId: user.contactId };

  step("Search the catalog");
  const query = process.env.DEMO_QUERY ?? "SpO2 sensor";
  const search = await send<Envelope<{ items: CatalogItem[]; pagination: Pagination }>>("POST", `${API}/catalog/search`, {
    token: accessToken,
    json: { filters: { query }, pagination: { limit: 5, offset: 0 }, ...ids },
  });
  const { items, pagination } = search.body.data;
  show("query", query);
  show("found", `${pagination.total} products, showing ${items.length}`);
  for (const item of items) show("", `${item.id}  ${item.displayPartNumber}  ${item.oem}: ${item.description}`);
  if (items.length === 0) throw new StepFailed(`The catalog search for "${query}" found nothing; set DEMO_QUERY.`);

  step("Catalog detail: price options (quotes valid 30 days)");
  let chosen: { item: CatalogItem; option: PriceOption } | undefined;
  for (const item of items) {
    const detail = await send<Envelope<CatalogDetail>>("POST", `${API}/catalog/detail`, {
      token: accessToken,
      json: { productId: item.id, ...ids },
    });
    for (const o of detail.body.data.options) {
      show(
        "option",
        `${o.condition}, ${o.purchaseChoice}, ${o.warranty}: ${o.price.toFixed(2)}${o.customFields.some((f) => f.isRequired) ? " (needs custom fields)" : ""}`,
      );
    }
    // The demo has no buyer to ask for custom field values (e.g. a serial number): take an option without any.
    const option = detail.body.data.options.find((o) => !o.customFields.some((f) => f.isRequired));
    if (option) {
      chosen = { item, option };
      break;
    }
  }
  if (!chosen) throw new StepFailed("No price option without required custom fields among the search results.");
  show(
    "chosen",
    `${chosen.item.id} ${chosen.option.condition} at ${chosen.option.price.toFixed(2)} (priceOptionId ${chosen.option.priceOptionId})`,
  );

  step("Create the order with an Idempotency-Key");
  const poNumber = `DEMO-${Date.now()}`;
  const idempotencyKey = crypto.randomUUID();
  const order = {
    requesterId: user.contactId,
    userId: user.userId,
    facilityId: facility.id,
    shippingAddressId: shippingAddress.id,
    billingAddressId: billingAddress.id,
    shippingMethod: "GROUND",
    quoteItems: [{ priceOptionId: chosen.option.priceOptionId, productId: chosen.item.id, quantity: 2, price: chosen.option.price }],
    payment: { paymentMethod: "PO", poNumber },
    notes: "Created by npm run demo",
  };
  const created = await send<Envelope<OrderCreated>>("POST", `${API}/orders`, {
    token: accessToken,
    json: order,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  show("Idempotency-Key", idempotencyKey);
  show("orderNumber", created.body.data.orderNumber);
  show("eventId", created.body.data.eventId);
  const replay = await send<Envelope<OrderCreated>>("POST", `${API}/orders`, {
    token: accessToken,
    json: order,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  show(
    "retry, same key",
    `X-Idempotency-Cached: ${replay.headers.get("X-Idempotency-Cached")}, orderNumber ${replay.body.data.orderNumber}`,
  );
  if (replay.body.data.orderNumber !== created.body.data.orderNumber) throw new StepFailed("The retry created a second order.");

  step("Find the order with structured search");
  const q = `poNumber:"${poNumber}"`;
  const found = await send<Envelope<{ orders: OrderRecord[]; pagination: Pagination }>>(
    "GET",
    `${API}/orders/search?q=${encodeURIComponent(q)}&include=lineItems,shippingInfo`,
    { token: accessToken },
  );
  const record = found.body.data.orders.find((o) => o.poNumber === poNumber);
  if (!record) throw new StepFailed(`The order with PO ${poNumber} was not found by q=${q}.`);
  show(
    "order",
    `orderId ${record.orderId}, PO ${record.poNumber}, ${record.shippingMethod}, total ${record.total.toFixed(2)}, ${record.orderDate}`,
  );
  for (const line of record.lineItems ?? [])
    show(
      "line",
      `${line.lineId}: ${line.quantity} x ${line.partNumber} at ${line.price.toFixed(2)} = ${line.extendedPrice.toFixed(2)} (${line.statusName})`,
    );
  for (const doc of record.shippingInfo ?? [])
    show("shipping", `${doc.shippingDocId}: ${doc.carrierName} ${doc.serviceLevel} to ${doc.city}, ${doc.state}`);
  if (!record.lineItems) throw new StepFailed("include=lineItems returned no lineItems property.");

  step("Read it back by number, from any replica, with the bookmark of the write (read-your-writes)");
  const bookmark = created.headers.get("X-Session-Bookmark") ?? "";
  show("X-Session-Bookmark", bookmark);
  const byNumber = await send<Envelope<OrderRecord>>("GET", `${API}/orders/${created.body.data.orderNumber}?include=lineItems`, {
    token: accessToken,
    headers: bookmark ? { "X-Session-Bookmark": bookmark } : {},
  });
  show("status", `${byNumber.body.data.status}, lastUpdated ${byNumber.body.data.lastUpdated}`);

  step("Cancel it (idempotent, like the order itself)");
  const cancelled = await send<Envelope<{ status: string; cancelledLineIds: number[]; eventId: string | null }>>(
    "POST",
    `${API}/orders/${created.body.data.orderNumber}/cancel`,
    { token: accessToken, json: { reason: "Demo: ordered by mistake" }, headers: { "Idempotency-Key": crypto.randomUUID() } },
  );
  show("status", cancelled.body.data.status);
  show("cancelled lines", cancelled.body.data.cancelledLineIds);
  show("eventId", cancelled.body.data.eventId);
  if (cancelled.body.data.status !== "Cancelled") throw new StepFailed("The order is not cancelled.");

  console.log("\nDemo complete.");
}

main().catch((error: unknown) => {
  console.error(`\nDEMO FAILED at step ${stepNumber}: ${error instanceof StepFailed ? error.message : String(error)}`);
  process.exit(1);
});
