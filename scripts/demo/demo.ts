import type { z } from "zod";
import { DELIVERED_EVENT_TYPES } from "../../src/api/events/types";
import type { InvoiceRecordSchema } from "../../src/api/invoices/schemas";
import type { ReturnRecordSchema } from "../../src/api/returns/schemas";
import type { VendorOrderLineSchema } from "../../src/api/vendors/routes";
import { type CallOptions, requestInit } from "../../src/dev/client/request";
import { VENDORS } from "../../src/dev/seed/catalog";
import { centsToText, textToCents } from "../../src/platform/money";
import type { CatalogItem } from "../../src/shared/catalog/catalog";
import type { CatalogDetailSchema } from "../../src/shared/catalog/routes";
import type { UserSchema } from "../../src/shared/users/lookup-routes";
import { cliArgs, describeFailure, listenPortOf } from "../cli";
import { demoClientOf, savedDemoClients } from "../dev/local-platform";
import { type Listener, type ReceivedEvent, startWebhookListener } from "../tools/webhook-listener";

/**
 * `npm run demo`: the integrator flow of spec section 1 against a running `npm start`, printing each step.
 * Typed by the spec's shapes (2.x, 4.x); each call fails loudly with its HTTP status and body.
 *
 *   MEDPARTS_URL (default http://localhost:$PORT or :8787)
 *   MEDPARTS_CLIENT_ID / MEDPARTS_CLIENT_SECRET (default: .medparts-demo.json written by npm start)
 *   MEDPARTS_VENDOR_CLIENT_ID / MEDPARTS_VENDOR_CLIENT_SECRET (the demo vendor; default: the same file)
 *   DEMO_QUERY (catalog keywords, default "SpO2 sensor"), DEMO_USER (loginUserId, default jsmith)
 *   MEDPARTS_OPERATOR_CLIENT_ID / _SECRET (the operator, for --punchout; default: the same file)
 *
 * `npm run demo -- --sandbox`: the sandbox (docs/api.md, "Sandbox") with the demo test-mode client (`testMode` in
 * .medparts-demo.json, or MEDPARTS_TEST_CLIENT_ID / _SECRET): a sample of every event type to its webhook endpoint,
 * then test orders driven through every scenario of the simulated vendor, while the listener prints each event.
 *
 * `npm run demo -- --punchout`: Medparts from inside a hospital's procurement suite over cXML (scripts/demo/punchout.ts).
 *
 * `npm run demo -- --edi`: the demo vendor trading over X12 through the HTTPS mailbox: the 850 out, the partner's 997,
 * an 855 price change the buyer approves, the 856 with lots and serials, the 810 matched, our 997s (scripts/demo/edi.ts).
 *
 * `npm run demo -- --recall`: an FDA recall answered in minutes: units shipped with their codes, a recall import, the
 * hospital's recall with its units, the scan-to-order warning, a return of the recalled units (scripts/demo/recall.ts).
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
type UnitReturn = z.infer<typeof ReturnRecordSchema>;
type PriceOption = CatalogDetail["options"][number];
interface OrderCreated {
  orderNumber: string;
  createdAt: string;
  eventId: string;
}
interface OrderRecord {
  orderId: number;
  poNumber: string;
  total: string;
  currency: string;
  orderDate: string;
  lastUpdated: string;
  status: string;
  shippingMethod: string;
  lineItems?: {
    lineId: number;
    partNumber: string;
    quantity: number;
    shippedQuantity: number;
    price: string;
    extendedPrice: string;
    statusName: string;
  }[];
  shippingInfo?: {
    shippingDocId: number;
    carrierName: string;
    serviceLevel: string;
    city: string;
    state: string;
    trackingNumber: string | null;
  }[];
}
type VendorLine = z.infer<typeof VendorOrderLineSchema>;
type InvoiceRecord = z.infer<typeof InvoiceRecordSchema>;

/** Cents as the money strings of invoices and confirmations: 1250 -> "12.50". */
const money = centsToText;

function showInvoice(record: InvoiceRecord) {
  show("invoice", `${record.invoiceNumber} (id ${record.invoiceId}): total ${record.total}, ${record.status}`);
  for (const line of record.lines) show(`  line ${line.lineNumber}`, `${line.matchStatus}: ${line.matchExplanation}`);
}

const { values: demoOptions, url: demoUrl } = cliArgs(
  "demo",
  "Runs the integrator flow against a running npm start, printing each step: a token, the user lookup, a catalog search, price options, an order with an Idempotency-Key (and its replay), the vendor's fulfilment and the webhooks it sends.",
  {
    sandbox: { type: "boolean", help: "the sandbox instead: a test-mode client's orders, fulfilled by the simulated vendor" },
    punchout: { type: "boolean", help: "a procurement suite's cXML PunchOut session and OrderRequest instead" },
    edi: { type: "boolean", help: "the demo vendor over X12 EDI instead: 850, 997, 855 with a price change, 856, 810" },
    recall: {
      type: "boolean",
      help: "an FDA recall instead: units shipped with their codes, a recall import, the hospital's recall and returns",
    },
    "webhook-port": { type: "string", help: "port of the demo's own webhook receiver (default: a free port)", value: "<n>" },
    "suite-port": { type: "string", help: "with --punchout: port of the suite's receiver (default: a free port)", value: "<n>" },
  },
  { url: true },
);
// Imported once the command line is sound: the API's routes take seconds to load, --help none.
const { DEMO_VENDOR_ID } = await import("../../src/api/vendors/routes");
const BASE_URL = demoUrl;
const WEBHOOK_PORT = listenPortOf(demoOptions["webhook-port"], "--webhook-port");
const SUITE_PORT = listenPortOf(demoOptions["suite-port"], "--suite-port");
const API = `${BASE_URL}/customer/api`;
const VENDOR_API = `${BASE_URL}/vendor/api`;
const DEMO_VENDOR_NAME = VENDORS.find((v) => v.id === DEMO_VENDOR_ID)!.name;

class StepFailed extends Error {}

type Credentials = { clientId: string; clientSecret: string };

/** The demo vendor's client: MEDPARTS_VENDOR_CLIENT_ID / _SECRET, else the `vendor` entry npm start wrote. */
function vendorCredentials(): Credentials {
  const vendor = demoClientOf("MEDPARTS_VENDOR", savedDemoClients()?.vendor);
  if (!vendor) {
    throw new StepFailed(
      "No vendor credentials: restart `npm start` (it adds the demo vendor client) or set MEDPARTS_VENDOR_CLIENT_ID/_SECRET.",
    );
  }
  return vendor;
}

async function tokenOf({ clientId, clientSecret }: Credentials) {
  return send<{ access_token: string; expires_in: number; scope: string }>("POST", `${BASE_URL}/auth/oauth2/token`, {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
}

function credentials(): Credentials {
  const saved = savedDemoClients();
  const buyer = demoClientOf("MEDPARTS", saved && { clientId: saved.clientId, clientSecret: saved.clientSecret });
  if (!buyer) {
    throw new StepFailed(
      "No credentials: run `npm start` first (it writes .medparts-demo.json) or set MEDPARTS_CLIENT_ID and MEDPARTS_CLIENT_SECRET.",
    );
  }
  return buyer;
}

let stepNumber = 0;
function step(title: string): void {
  console.log(`\n${++stepNumber}. ${title}`);
}
const show = (label: string, value: unknown) =>
  console.log(`   ${label.padEnd(18)} ${typeof value === "string" ? value : JSON.stringify(value)}`);

/** What a step waits for: an event of this type, of this order, with this id (each only where given). */
interface ExpectedWebhook {
  type?: string;
  orderNumber?: string;
  id?: string;
}

/** The events printed so far, by id: each under the step that caused it, once. */
const shownWebhooks = new Set<string>();

/**
 * Prints under the current step the webhooks it caused: waits (up to 20 s) until an event not yet shown has arrived
 * for each expected one, then prints those and any other arrived event of the same orders, in each order's sequence.
 * Deliveries are asynchronous: printed as they arrive, they would fall under whatever step runs then.
 */
async function stepWebhooks(listener: Listener, expected: ExpectedWebhook[]): Promise<void> {
  const fits = (event: ReceivedEvent, want: ExpectedWebhook) =>
    (want.type === undefined || event.type === want.type) &&
    (want.orderNumber === undefined || event.orderNumber === want.orderNumber) &&
    (want.id === undefined || event.id === want.id);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const claimed = new Set<string>();
    for (const want of expected) {
      const event = listener.received.find((e) => !shownWebhooks.has(e.id) && !claimed.has(e.id) && fits(e, want));
      if (event) claimed.add(event.id);
    }
    if (claimed.size === expected.length) break;
    if (Date.now() > deadline) {
      const label = (want: ExpectedWebhook) => want.type ?? want.id ?? "an event";
      throw new StepFailed(`Expected the webhooks ${expected.map(label).join(", ")}; ${claimed.size} of them arrived.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const orders = new Set(expected.map((want) => want.orderNumber).filter(Boolean));
  const arrived = listener.received.filter(
    (e) => !shownWebhooks.has(e.id) && (orders.has(e.orderNumber) || expected.some((want) => fits(e, want))),
  );
  arrived.sort((a, b) => a.orderNumber.localeCompare(b.orderNumber) || (a.sequence ?? 0) - (b.sequence ?? 0));
  for (const event of arrived) {
    shownWebhooks.add(event.id);
    show("webhook", `${event.type} #${event.sequence ?? "-"} ${event.orderNumber} (signature verified)`);
  }
}

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
  const token = await tokenOf(credentials());

  const accessToken = token.body.access_token;
  show("expires_in", token.body.expires_in);
  show("scope", token.body.scope);

  step("Listen for order events: a local webhook endpoint (npm run webhook-listener does the same on its own)");
  const listener = await startWebhookListener({
    baseUrl: BASE_URL,
    credentials: credentials(),
    port: WEBHOOK_PORT,
  });
  show("endpoint", `${listener.endpointId} -> ${listener.url}, every event type; each step below shows the webhooks it caused`);

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
  let chosen: { item: CatalogItem; option: PriceOption; gtin: string | undefined } | undefined;
  for (const item of items) {
    const detail = await send<Envelope<CatalogDetail>>("POST", `${API}/catalog/detail`, {
      token: accessToken,
      json: { productId: item.id, ...ids },
    });
    for (const o of detail.body.data.options) {
      show(
        "option",
        `${o.condition}, ${o.purchaseChoice}, ${o.warranty}: ${o.price}${o.customFields.some((f) => f.isRequired) ? " (needs custom fields)" : ""}`,
      );
    }
    // The demo has no buyer to ask for custom field values (e.g. a serial number): take an option without any, from the
    // demo vendor, whose client plays the vendor's side below.
    const option = detail.body.data.options.find((o) => !o.customFields.some((f) => f.isRequired) && o.vendorName === DEMO_VENDOR_NAME);
    if (option) {
      const gtin = detail.body.data.product.deviceIdentifiers.find((d) => d.agency === "GS1" && d.containsDeviceId === null)?.deviceId;
      chosen = { item, option, gtin };
      break;
    }
  }
  if (!chosen) throw new StepFailed(`No price option of ${DEMO_VENDOR_NAME} without required custom fields among the search results.`);
  show("chosen", `${chosen.item.id} ${chosen.option.condition} at ${chosen.option.price} (priceOptionId ${chosen.option.priceOptionId})`);

  // The label a scanner reads off the part: GS1 DataMatrix (]d2), GTIN, expiry, lot, serial, GS after the lot.
  const label = chosen.gtin ? `]d201${chosen.gtin}1730123110DEMO-LOT-7\u001d21SN-0001\r\n` : undefined;
  if (label) {
    step("Scan to order: the part's UDI label, as the scanner sends it, resolves to the product and its quotes");
    interface Scanned {
      reading: string;
      form: string;
      udi: { deviceId: string; lot: string | null; serial: string | null; expiry: string | null };
      product: { id: string; title: string } | null;
      priceOptions: unknown[] | null;
    }
    const resolved = await send<Envelope<{ results: Scanned[] }>>("POST", `${API}/catalog/resolve`, {
      token: accessToken,
      json: { codes: [label], ...ids },
    });
    const [scan] = resolved.body.data.results;
    show("scanned", JSON.stringify(label));
    show(
      "read as",
      `${scan!.reading} (${scan!.form}): GTIN ${scan!.udi.deviceId}, lot ${scan!.udi.lot}, serial ${scan!.udi.serial}, expires ${scan!.udi.expiry}`,
    );
    show("product", `${scan!.product?.id} ${scan!.product?.title}`);
    show("quotes", `${scan!.priceOptions?.length ?? 0} price options issued in the same call`);
    if (scan!.product?.id !== chosen.item.id) throw new StepFailed(`The scan resolved to ${scan!.product?.id}, not ${chosen.item.id}.`);
  }

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
  await stepWebhooks(listener, [{ type: "order.created", orderNumber: created.body.data.orderNumber }]);

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
    `orderId ${record.orderId}, PO ${record.poNumber}, ${record.shippingMethod}, total ${record.total} ${record.currency}, ${record.orderDate}`,
  );
  for (const line of record.lineItems ?? [])
    show("line", `${line.lineId}: ${line.quantity} x ${line.partNumber} at ${line.price} = ${line.extendedPrice} (${line.statusName})`);
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

  const orderNumber = created.body.data.orderNumber;
  const readOrder = async () => {
    const read = await send<Envelope<OrderRecord>>("GET", `${API}/orders/${orderNumber}?include=lineItems,shippingInfo`, {
      token: accessToken,
    });
    const order = read.body.data;
    show("buyer sees", `order ${order.status}, lastUpdated ${order.lastUpdated}`);
    for (const line of order.lineItems ?? [])
      show("line", `${line.lineId}: ${line.statusName}, ${line.shippedQuantity} of ${line.quantity} shipped`);
    for (const doc of order.shippingInfo ?? [])
      show("parcel", `${doc.trackingNumber ?? "(to ship)"} ${doc.carrierName} ${doc.serviceLevel}`);
    return order;
  };

  step(`The vendor (${DEMO_VENDOR_NAME}) signs in and sees the line to fulfil`);
  const vendorToken = (await tokenOf(vendorCredentials())).body.access_token;
  const vendorLines = await send<Envelope<{ lines: VendorLine[] }>>("GET", `${VENDOR_API}/order-lines?orderNumber=${orderNumber}`, {
    token: vendorToken,
  });
  const line = vendorLines.body.data.lines[0];
  if (!line) throw new StepFailed(`The vendor sees no line of ${orderNumber}.`);
  show(
    "line",
    `${line.lineId}: ${line.quantity} x ${line.partNumber}, ${line.statusName}, ship to ${line.shipTo.city}, ${line.shipTo.state}`,
  );
  const moveLine = (action: string, body: unknown) =>
    send<Envelope<{ line: VendorLine; orderStatus: string; eventId: string | null }>>(
      "POST",
      `${VENDOR_API}/order-lines/${line.lineId}/${action}`,
      { token: vendorToken, json: body },
    );

  step("The vendor confirms with a price change (X12 855 code IP): it waits for the buyer's answer");
  const promisedShipDate = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const newPriceCents = textToCents(line.price)! + 500;
  const newPrice = money(newPriceCents);
  const confirmed = await send<Envelope<{ lines: VendorLine[]; eventId: string | null }>>("POST", `${VENDOR_API}/order-confirmations`, {
    token: vendorToken,
    json: {
      type: "detail",
      lines: [{ lineId: line.lineId, code: "IP", unitPrice: newPrice, promisedShipDate, reason: "Manufacturer price increase" }],
    },
  });
  const proposed = confirmed.body.data.lines[0]!;
  show("line", `${proposed.statusName}, pending change ${JSON.stringify(proposed.pendingChange)}`);
  if (!proposed.pendingChange) throw new StepFailed("The price increase did not wait for the buyer.");
  await stepWebhooks(listener, [{ type: "order.confirmed", orderNumber }]);

  step("The buyer accepts the change: the line takes the new price, the order's total follows, the history says who did what");
  const decided = await send<Envelope<{ lineStatus: string; orderStatus: string }>>(
    "POST",
    `${API}/orders/${orderNumber}/lines/${line.lineId}/change-decision`,
    { token: accessToken, json: { decision: "accept" } },
  );
  show("line", `${decided.body.data.lineStatus}, order ${decided.body.data.orderStatus}`);
  const afterChange = await send<Envelope<OrderRecord & { history: { actor: string; code: string; changes: unknown[] }[] }>>(
    "GET",
    `${API}/orders/${orderNumber}?include=lineItems,history`,
    { token: accessToken },
  );
  show("total", afterChange.body.data.total);
  for (const revision of afterChange.body.data.history)
    show("revision", `${revision.actor} ${revision.code}: ${JSON.stringify(revision.changes)}`);
  if (textToCents(afterChange.body.data.lineItems![0]!.price) !== newPriceCents)
    throw new StepFailed("The accepted price was not applied.");
  await stepWebhooks(listener, [{ type: "order.change_accepted", orderNumber }]);

  step("The vendor ships 1 of 2 with a tracking number; the buyer follows it by order number");
  const firstParcel = `1ZDEMO${Date.now().toString().slice(-10)}`;
  // With the shipped unit's UDI (its label scanned at packing): its lot and serial go into order.shipped and order search.
  await moveLine("ship", { trackingNumber: firstParcel, quantity: 1, ...(label ? { units: [label] } : {}) });
  const partly = await readOrder();
  if (partly.status !== "PartiallyShipped") throw new StepFailed(`Expected PartiallyShipped, the buyer sees ${partly.status}.`);
  await stepWebhooks(listener, [{ type: "order.shipped", orderNumber }]);

  step("The buyer tries to cancel (partial): what has shipped stays, and is listed");
  const cancel = await send<
    Envelope<{ status: string; cancelledLineIds: number[]; notCancelled: { lineId: number; statusName: string }[] }>
  >("POST", `${API}/orders/${orderNumber}/cancel`, {
    token: accessToken,
    json: { reason: "Demo: too late", partial: true },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  show("cancelled lines", cancel.body.data.cancelledLineIds);
  show("not cancelled", cancel.body.data.notCancelled);

  step("The vendor ships the rest in a second parcel, then marks the line delivered");
  await moveLine("ship", { trackingNumber: `${firstParcel}B` });
  const delivered = await moveLine("deliver", {});
  show("order status", delivered.body.data.orderStatus);
  const final = await readOrder();
  if (final.status !== "Delivered" || (final.shippingInfo ?? []).filter((d) => d.trackingNumber).length !== 2) {
    throw new StepFailed(`Expected a delivered order with two parcels; the buyer sees ${final.status}.`);
  }
  await stepWebhooks(listener, [
    { type: "order.shipped", orderNumber },
    { type: "order.delivered", orderNumber },
  ]);

  step("The vendor invoices one unit at the agreed price: three-way matched against the order and what shipped");
  const invoice = (number: string, lines: { lineId?: number; description?: string; quantity: number; cents: number }[]) => {
    const total = money(lines.reduce((sum, l) => sum + l.cents * l.quantity, 0));
    return {
      invoiceNumber: number,
      orderNumber,
      invoiceDate: new Date().toISOString().slice(0, 10),
      currency: "USD",
      lines: lines.map(({ cents, ...l }) => ({ ...l, unitPrice: money(cents), amount: money(cents * l.quantity) })),
      summary: { subtotal: total, tax: "0.00", freight: "0.00", total },
    };
  };
  const matched = await send<Envelope<InvoiceRecord>>("POST", `${VENDOR_API}/invoices`, {
    token: vendorToken,
    json: invoice(`INV-${poNumber}`, [{ lineId: line.lineId, quantity: 1, cents: newPriceCents }]),
  });
  showInvoice(matched.body.data);
  if (matched.body.data.status !== "matched") throw new StepFailed(`Expected a matched invoice, got ${matched.body.data.status}.`);
  await stepWebhooks(listener, [
    { type: "invoice.received", orderNumber },
    { type: "invoice.matched", orderNumber },
  ]);

  step("The second unit's invoice adds a fuel surcharge the order never had: an exception, explained; the buyer disputes it");
  const surcharge = await send<Envelope<InvoiceRecord>>("POST", `${VENDOR_API}/invoices`, {
    token: vendorToken,
    json: invoice(`INV-${poNumber}-2`, [
      { lineId: line.lineId, quantity: 1, cents: newPriceCents },
      { description: "Fuel surcharge", quantity: 1, cents: 995 },
    ]),
  });
  showInvoice(surcharge.body.data);
  if (surcharge.body.data.status !== "exception") throw new StepFailed(`Expected an exception, got ${surcharge.body.data.status}.`);
  const disputed = await send<Envelope<{ invoice: InvoiceRecord }>>("POST", `${API}/invoices/${surcharge.body.data.invoiceId}/dispute`, {
    token: accessToken,
    json: { reason: "Surcharge not in our agreement" },
  });
  show("buyer", `${disputed.body.data.invoice.status}: ${disputed.body.data.invoice.statusReason}`);
  await stepWebhooks(listener, [
    { type: "invoice.received", orderNumber },
    { type: "invoice.exception", orderNumber },
    { type: "invoice.disputed", orderNumber },
  ]);

  step("Exchange: the vendor offers the part on exchange, with a core charge if the failed part is not back within 30 days");
  const exchangeSku = `EXCH-${poNumber}`;
  const optionCents = textToCents(chosen.option.price)!;
  const coreCharge = centsToText(Math.max(100, Math.round(optionCents / 200) * 100));
  await send("PUT", `${VENDOR_API}/offers/${exchangeSku}`, {
    token: vendorToken,
    json: {
      productId: chosen.item.id,
      condition: "Refurbished",
      purchaseChoice: "Exchange",
      warranty: "6 months",
      price: centsToText(Math.max(100, Math.round((optionCents * 0.6) / 100) * 100)),
      leadTimeDays: 2,
      purchaseType: "exchange",
      exchangeTerms: { coreCharge, coreDueDays: 30, coreConditions: ["Complete, not disassembled"] },
    },
  });
  const exchangeDetail = await send<Envelope<CatalogDetail>>("POST", `${API}/catalog/detail`, {
    token: accessToken,
    json: { productId: chosen.item.id, ...ids },
  });
  const exchangeOption = exchangeDetail.body.data.options.find((o) => o.vendorSku === exchangeSku);
  if (exchangeOption?.purchaseTerms?.type !== "exchange") throw new StepFailed("The exchange offer is not among the price options.");
  show(
    "option",
    `${exchangeOption.purchaseChoice} at ${exchangeOption.price}, core charge ${exchangeOption.purchaseTerms.coreCharge}, core due ${exchangeOption.purchaseTerms.coreDueDays} days after shipment`,
  );
  const exchangeOrder = await send<Envelope<OrderCreated>>("POST", `${API}/orders`, {
    token: accessToken,
    json: {
      ...order,
      quoteItems: [{ priceOptionId: exchangeOption.priceOptionId, productId: chosen.item.id, quantity: 1, price: exchangeOption.price }],
      payment: { paymentMethod: "PO", poNumber: `${poNumber}-X` },
    },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  const exchangeNumber = exchangeOrder.body.data.orderNumber;
  show("orderNumber", exchangeNumber);
  await stepWebhooks(listener, [{ type: "order.created", orderNumber: exchangeNumber }]);

  step("The vendor ships the exchange part: its parcel opens a core return (RMA number, due date, the charge if late)");
  const exchangeLine = (
    await send<Envelope<{ lines: VendorLine[] }>>("GET", `${VENDOR_API}/order-lines?orderNumber=${exchangeNumber}`, { token: vendorToken })
  ).body.data.lines[0];
  if (!exchangeLine) throw new StepFailed(`The vendor sees no line of ${exchangeNumber}.`);
  const moveExchange = (action: string, body: unknown) =>
    send("POST", `${VENDOR_API}/order-lines/${exchangeLine.lineId}/${action}`, { token: vendorToken, json: body });
  await moveExchange("acknowledge", { promisedShipDate });
  await moveExchange("ship", { trackingNumber: `${firstParcel}X` });
  const cores = await send<Envelope<{ returns: UnitReturn[] }>>(
    "GET",
    `${API}/returns?q=${encodeURIComponent(`kind:core AND orderNumber:"${exchangeNumber}"`)}`,
    { token: accessToken },
  );
  const core = cores.body.data.returns[0];
  if (!core) throw new StepFailed(`No core return opened for ${exchangeNumber}.`);
  show(
    "core",
    `${core.rmaNumber}: ${core.status}, due ${core.dueAt}, charge ${core.coreCharge} if late; back to: ${core.returnTo ?? "the vendor"}`,
  );
  await stepWebhooks(listener, [
    { type: "order.shipped", orderNumber: exchangeNumber },
    { type: "core.opened", orderNumber: exchangeNumber },
  ]);

  step("The buyer ships the failed part back, scanning its UDI label; the vendor receives the core and accepts it");
  const coreLabel = chosen.gtin ? `]d201${chosen.gtin}21CORE-${Date.now().toString().slice(-8)}\r\n` : undefined;
  const shippedCore = await send<Envelope<{ return: UnitReturn }>>("POST", `${API}/returns/${core.returnId}/ship`, {
    token: accessToken,
    json: { carrierName: "UPS", trackingNumber: `1ZCORE${Date.now()}`.slice(0, 20), ...(coreLabel ? { udi: coreLabel } : {}) },
  });
  show("shipped", `${shippedCore.body.data.return.status}, serial ${shippedCore.body.data.return.serialNumber ?? "(no label)"}`);
  const receivedCore = await send<Envelope<{ return: UnitReturn }>>("POST", `${VENDOR_API}/returns/${core.returnId}/receive`, {
    token: vendorToken,
    json: { outcome: "accepted" },
  });
  show("core", `${receivedCore.body.data.return.status}: nothing is charged`);
  if (receivedCore.body.data.return.status !== "accepted")
    throw new StepFailed(`Expected an accepted core, got ${receivedCore.body.data.return.status}.`);
  await stepWebhooks(listener, [
    { type: "core.shipped", orderNumber: exchangeNumber },
    { type: "core.received", orderNumber: exchangeNumber },
  ]);

  step("The webhooks: every event of the order arrived, signed, in order");
  const expected = [
    "order.created",
    "order.confirmed",
    "order.change_accepted",
    "order.shipped",
    "order.shipped",
    "order.delivered",
    "invoice.received",
    "invoice.matched",
    "invoice.received",
    "invoice.exception",
    "invoice.disputed",
  ];
  const deadline = Date.now() + 20_000;
  const ofOrder = () => listener.received.filter((e) => e.orderNumber === orderNumber);
  const ofExchange = () => listener.received.filter((e) => e.orderNumber === exchangeNumber && e.type.startsWith("core."));
  while ((ofOrder().length < expected.length || ofExchange().length < 3) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 250));
  await listener.stop();
  const types = ofOrder()
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0))
    .map((e) => e.type);
  show("received", types.join(", "));
  if (types.join() !== expected.join())
    throw new StepFailed(`Expected webhooks ${expected.join(", ")}; received ${types.join(", ") || "none"}.`);
  const coreTypes = listener.received
    .filter((e) => e.orderNumber === exchangeNumber)
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0))
    .map((e) => e.type)
    .filter((type) => type.startsWith("core."));
  show("exchange", coreTypes.join(", "));
  if (coreTypes.join() !== "core.opened,core.shipped,core.received")
    throw new StepFailed(
      `Expected the core's webhooks core.opened, core.shipped, core.received; received ${coreTypes.join(", ") || "none"}.`,
    );

  console.log("\nDemo complete.");
  console.log(
    `Vendors who write no code work these lines in a browser: the order desk at ${BASE_URL}/desk (open the invitation link npm start printed for the demo vendor's admin; docs/desk.md).`,
  );
}

/** The demo test-mode client: MEDPARTS_TEST_CLIENT_ID / _SECRET, else the `testMode` entry npm start wrote. */
function testModeCredentials(): Credentials {
  const testMode = demoClientOf("MEDPARTS_TEST", savedDemoClients()?.testMode);
  if (!testMode) throw new StepFailed("No test-mode credentials: restart `npm start` (it adds the demo test-mode client).");
  return testMode;
}

async function sandboxMain(): Promise<void> {
  console.log(`Medparts sandbox demo against ${BASE_URL}`);
  step("Token of a test-mode client (its id starts with mpc_test_)");
  const credentials = testModeCredentials();
  const token = (await tokenOf(credentials)).body.access_token;
  show("client_id", credentials.clientId);

  step("Listen for its events: a webhook endpoint of the test mode");
  const listener = await startWebhookListener({
    baseUrl: BASE_URL,
    credentials,
    port: WEBHOOK_PORT,
  });
  show("endpoint", `${listener.endpointId} -> ${listener.url}; each step below shows the webhooks it caused`);

  step("A signed sample of every event type (POST /webhook-endpoints/{id}/test with a type)");
  const types = DELIVERED_EVENT_TYPES;
  for (const type of types) {
    const sent = await send<Envelope<{ delivered: boolean }>>("POST", `${API}/webhook-endpoints/${listener.endpointId}/test`, {
      token,
      json: { type },
    });
    if (!sent.body.data.delivered) throw new StepFailed(`The sample ${type} was not delivered.`);
  }
  await stepWebhooks(
    listener,
    types.map((type) => ({ type })),
  );

  step("Test orders: the catalog and quotes work as live; the answers say Medparts-Mode: test");
  const lookup = await send<Envelope<User>>(
    "GET",
    `${API}/users/lookup?loginUserId=${encodeURIComponent(process.env.DEMO_USER ?? "jsmith")}`,
    { token },
  );
  show("Medparts-Mode", lookup.headers.get("Medparts-Mode"));
  const user = lookup.body.data;
  const company = user.companies.find((c) => c.facilities.length > 0 && c.shippingAddresses.length > 0 && c.billingAddresses.length > 0)!;
  const placeTestOrder = async (productId: string) => {
    const detail = await send<Envelope<CatalogDetail>>("POST", `${API}/catalog/detail`, {
      token,
      json: { productId, requesterId: user.contactId, facilityId: company.facilities[0]!.id },
    });
    const option = detail.body.data.options.find((o) => !o.customFields.some((f) => f.isRequired));
    if (!option) throw new StepFailed(`No price option of ${productId} without required fields.`);
    const created = await send<Envelope<OrderCreated>>("POST", `${API}/orders`, {
      token,
      json: {
        requesterId: user.contactId,
        userId: user.userId,
        facilityId: company.facilities[0]!.id,
        shippingAddressId: company.shippingAddresses[0]!.id,
        billingAddressId: company.billingAddresses[0]!.id,
        shippingMethod: "GROUND",
        quoteItems: [{ priceOptionId: option.priceOptionId, productId, quantity: 4, price: option.price }],
        payment: { paymentMethod: "PO", poNumber: `SANDBOX-${Date.now()}` },
      },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    show("test order", created.body.data.orderNumber);
    await stepWebhooks(listener, [{ type: "order.created", orderNumber: created.body.data.orderNumber }]);
    return created.body.data.orderNumber;
  };
  const simulate = async (orderNumber: string, scenario: string, extra: Record<string, unknown> = {}) => {
    const started = performance.now();
    const run = await send<Envelope<{ orderStatus: string; eventIds: string[] }>>(
      "POST",
      `${API}/test-helpers/orders/${orderNumber}/simulate`,
      {
        token,
        json: { scenario, ...extra },
      },
    );
    show(
      scenario,
      `order ${run.body.data.orderStatus}, ${run.body.data.eventIds.length} event(s), ${Math.round(performance.now() - started)} ms`,
    );
    await stepWebhooks(
      listener,
      run.body.data.eventIds.map((id) => ({ id, orderNumber })),
    );
  };

  step("The simulated vendor, on demand: acknowledge, ship part in a parcel, ship the rest, deliver");
  const fulfilled = await placeTestOrder("MP-0000002");
  for (const scenario of ["acknowledge", "ship_partial", "ship", "deliver"]) await simulate(fulfilled, scenario);
  step("Backorder with a date; reject a line with a reason; the buyer cancels one");
  const backordered = await placeTestOrder("MP-0000003");
  await simulate(backordered, "backorder", {
    expectedShipDate: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
    reason: "Awaiting stock",
  });
  const rejected = await placeTestOrder("MP-0000004");
  await simulate(rejected, "reject_line", { reason: "Discontinued by the manufacturer" });
  const cancelled = await placeTestOrder("MP-0000005");
  await send("POST", `${API}/orders/${cancelled}/cancel`, {
    token,
    json: { reason: "Sandbox: not needed" },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  await stepWebhooks(listener, [{ type: "order.cancelled", orderNumber: cancelled }]);

  step("The webhooks of the test orders: every order event type, signed");
  const wanted = new Set([
    "order.created",
    "order.acknowledged",
    "order.shipped",
    "order.delivered",
    "order.backordered",
    "order.rejected",
    "order.cancelled",
  ]);
  const orders = new Set([fulfilled, backordered, rejected, cancelled]);
  const seen = () => new Set(listener.received.filter((e) => orders.has(e.orderNumber)).map((e) => e.type));
  const deadline = Date.now() + 20_000;
  while ([...wanted].some((type) => !seen().has(type)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  await listener.stop();
  const missing = [...wanted].filter((type) => !seen().has(type));
  if (missing.length > 0) throw new StepFailed(`No webhook of ${missing.join(", ")} for the test orders.`);
  show("received", [...seen()].join(", "));
  console.log("\nSandbox demo complete: no live order, event or vendor was touched.");
}

const which = demoOptions.sandbox
  ? sandboxMain
  : demoOptions.punchout
    ? async () => (await import("./punchout")).punchoutMain(BASE_URL, SUITE_PORT)
    : demoOptions.edi
      ? async () => (await import("./edi")).ediMain(BASE_URL)
      : demoOptions.recall
        ? async () => (await import("./recall")).recallMain(BASE_URL)
        : main;
which().catch((error: unknown) => {
  const why = error instanceof StepFailed ? error.message : describeFailure(error, "", BASE_URL).message;
  console.error(`\nDEMO FAILED at step ${stepNumber}: ${why}`);
  process.exit(1);
});
