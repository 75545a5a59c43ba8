import { env } from "cloudflare:test";
import type { EventData } from "../../src/api/events/schemas";
import { productId } from "../../src/dev/seed/catalog";
import { DEFAULT_PRODUCT_COUNT } from "../../src/dev/seed/seed";
import { readPriceOption, signPriceOption } from "../../src/shared/catalog/price-option-ids";
import { priceOptionKeys, QUOTE_VALIDITY_SECONDS, quoteKvKey } from "../../src/shared/catalog/quotes";
import { json, TENANT_A, TENANT_B, tokenFor } from "./api";
import { contractCall } from "./contract";
import { countsInEveryStore, rowsOfEveryStore, storeRows, storeRowsById, storeRowsUnarmed } from "./stores";

/** Demo ordering scopes (src/dev/seed): jsmith at Main Campus ORs, kjohnson at Lakeside. */
export const JSMITH = {
  tenantId: TENANT_A,
  requesterContactId: 50001,
  userId: 1,
  facilityId: 1001,
  shippingAddressId: 11,
  billingAddressId: 13,
};
export const KJOHNSON = {
  tenantId: TENANT_B,
  requesterContactId: 60001,
  userId: 6,
  facilityId: 2001,
  shippingAddressId: 41,
  billingAddressId: 43,
};
export type Orderer = typeof JSMITH;

const ordersToken = (tenantId: number) => tokenFor(tenantId, ["orders:write"]);
const catalogToken = (tenantId: number) => tokenFor(tenantId, ["catalog:read"]);

/** Values that satisfy the demo custom fields (src/dev/seed/catalog.ts). */
const VALID_FIELD_VALUES: Record<string, string> = {
  coreSerialNumber: "SN-123456",
  loanReturnDate: "2030-01-31",
  costCenter: "4410",
};

/** A price option as POST /catalog/detail returns it, with the product it was asked for and its price in cents. */
export interface Quote {
  priceOptionId: string;
  productId: string;
  price: number;
  priceCents: number;
  vendorName: string;
  customFields: { fieldId: string; isRequired: boolean }[];
  expiresAt: string;
}

/** Quotes as an integrator gets them: POST /catalog/detail for the orderer's requester and facility. */
export async function issueQuotes(product: string, who: Orderer = JSMITH): Promise<Quote[]> {
  const res = await contractCall(await catalogToken(who.tenantId), "/catalog/detail", {
    method: "POST",
    json: { productId: product, requesterId: who.requesterContactId, facilityId: who.facilityId },
  });
  const body = await json(res);
  if (res.status !== 200) throw new Error(`catalog detail of ${product} failed: ${res.status} ${JSON.stringify(body)}`);
  return (body.data.options as Omit<Quote, "productId" | "priceCents">[]).map((option) => ({
    ...option,
    productId: product,
    priceCents: Math.round(option.price * 100),
  }));
}

export async function issueQuote(product: string, who: Orderer = JSMITH, pick: (q: Quote) => boolean = () => true): Promise<Quote> {
  const quote = (await issueQuotes(product, who)).find(pick);
  if (!quote) throw new Error(`no matching quote for ${product}`);
  return quote;
}

/** The first quote matching `pick` among the demo products' options. */
export async function findQuote(pick: (q: Quote) => boolean, who: Orderer = JSMITH): Promise<Quote> {
  for (let index = 0; index < 60; index++) {
    const quote = (await issueQuotes(productId(index), who)).find(pick);
    if (quote) return quote;
  }
  throw new Error("no demo product has a matching option");
}

/**
 * As if `ms` had gone by since the quote was issued: its id is signed again with an issue time `ms` earlier (the
 * same terms otherwise), and the quote object takes the new id and expiry.
 */
export async function ageQuote(quote: Quote, ms: number): Promise<void> {
  const keys = priceOptionKeys(env);
  const terms = (await readPriceOption(keys, quote.priceOptionId))!;
  const issuedAt = terms.issuedAt - Math.round(ms / 1000);
  quote.priceOptionId = await signPriceOption(keys, { ...terms, issuedAt });
  quote.expiresAt = new Date((issuedAt + QUOTE_VALIDITY_SECONDS) * 1000).toISOString();
}

/**
 * A quote stored as they were before signed ids (migrations/0002: a random id, its record in KV and in the tenant's
 * database, its store) with the terms of `quote`, issued `ageMs` ago: orders still honour such quotes until they expire.
 */
export async function storedQuoteLike(quote: Quote, ageMs = 0): Promise<Quote> {
  const keys = priceOptionKeys(env);
  const terms = (await readPriceOption(keys, quote.priceOptionId))!;
  const offer = (await env.DB.prepare("SELECT * FROM vendor_offers WHERE id = ?").bind(terms.offerId).first<Record<string, unknown>>())!;
  const vendor = (await env.DB.prepare("SELECT name, return_policy FROM vendors WHERE id = ?")
    .bind(offer.vendor_id)
    .first<{ name: string; return_policy: string }>())!;
  const createdAt = new Date(Date.now() - ageMs).toISOString();
  const expiresAt = new Date(Date.now() - ageMs + QUOTE_VALIDITY_SECONDS * 1000).toISOString();
  const id = `po_${crypto.randomUUID().replaceAll("-", "")}`;
  const record = {
    priceOptionId: id,
    tenantId: terms.tenantId,
    requesterContactId: terms.requesterContactId,
    facilityId: terms.facilityId,
    productId: offer.product_id as string,
    offerId: terms.offerId,
    vendorId: offer.vendor_id as number,
    vendorName: vendor.name,
    priceCents: terms.priceCents,
    condition: offer.condition as string,
    warranty: offer.warranty as string,
    purchaseChoice: offer.purchase_choice as string,
    leadTimeDays: offer.lead_time_days as number,
    customFields: JSON.parse(offer.custom_fields as string),
    createdAt,
    expiresAt,
  };
  await storeRows(
    record.tenantId,
    "INSERT INTO quotes (id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition, warranty, " +
      "purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    id,
    record.tenantId,
    record.requesterContactId,
    record.facilityId,
    record.productId,
    record.offerId,
    record.vendorId,
    record.priceCents,
    record.condition,
    record.warranty,
    record.purchaseChoice,
    record.leadTimeDays,
    vendor.return_policy,
    JSON.stringify(record.customFields),
    createdAt,
    expiresAt,
  );
  await env.QUOTES.put(quoteKvKey(id), JSON.stringify(record));
  return { ...quote, priceOptionId: id, expiresAt };
}

export const hasField = (fieldId: string) => (q: Quote) => q.customFields.some((f) => f.fieldId === fieldId);
export const withoutFields = (q: Quote) => q.customFields.length === 0;

export interface QuoteItem {
  priceOptionId: string;
  productId: string;
  quantity: number;
  /** A JSON number for a client pinned before 2026-12-07 (the helpers' clients), a decimal string since. */
  price: number | string;
  requiredFields?: { fieldId: string; value: string }[];
  repair?: { serialNumber: string; reason: string; description?: string };
}

/** A line that passes every rule: the quote's product and price, its required fields filled in. */
export function lineFor(quote: Quote, quantity = 1): QuoteItem {
  const requiredFields = quote.customFields
    .filter((f) => f.isRequired)
    .map((f) => ({ fieldId: f.fieldId, value: VALID_FIELD_VALUES[f.fieldId]! }));
  return {
    priceOptionId: quote.priceOptionId,
    productId: quote.productId,
    quantity,
    price: quote.price,
    ...(requiredFields.length ? { requiredFields } : {}),
  };
}

export function orderBody(items: QuoteItem[], who: Orderer = JSMITH, extra: Record<string, unknown> = {}) {
  return {
    requesterId: who.requesterContactId,
    userId: who.userId,
    facilityId: who.facilityId,
    shippingAddressId: who.shippingAddressId,
    billingAddressId: who.billingAddressId,
    shippingMethod: "GROUND",
    quoteItems: items,
    poNumber: "PO-2024-0001",
    ...extra,
  };
}

/** POST /orders as an integrator does it: orders:write token of the orderer's tenant, a fresh key unless given. */
export async function placeOrder(
  body: unknown,
  options: { key?: string | null; tenantId?: number; token?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? crypto.randomUUID() : options.key;
  if (key !== null) headers["Idempotency-Key"] = key;
  const token = options.token ?? (await ordersToken(options.tenantId ?? TENANT_A));
  return contractCall(token, "/orders", { method: "POST", json: body, headers });
}

export interface RowCounts {
  orders: number;
  orderLines: number;
  shippingDocuments: number;
  shippingDocumentLines: number;
  events: number;
}

/** The rows of each order table in every tenant's stores (each tenant of the registry, and its sandbox twin). */
export const rowCounts = (): Promise<RowCounts> =>
  countsInEveryStore({
    orders: "SELECT count(*) AS n FROM orders",
    orderLines: "SELECT count(*) AS n FROM order_lines",
    shippingDocuments: "SELECT count(*) AS n FROM shipping_documents",
    shippingDocumentLines: "SELECT count(*) AS n FROM shipping_document_lines",
    events: "SELECT count(*) AS n FROM outbox_events",
  });

/** Runs `action` and returns its result and how many rows of each order table it added. */
export async function rowsWrittenBy<T>(action: () => Promise<T>): Promise<{ result: T; written: RowCounts }> {
  const before = await rowCounts();
  const result = await action();
  const after = await rowCounts();
  const written = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof RowCounts]])) as unknown as RowCounts;
  return { result, written };
}

export const NOTHING_WRITTEN: RowCounts = {
  orders: 0,
  orderLines: 0,
  shippingDocuments: 0,
  shippingDocumentLines: 0,
  events: 0,
};

/** Makes a stored quote look as if KV had never seen it (eventual consistency, or its TTL ran out). */
export const dropFromKv = (quote: Quote) => env.QUOTES.delete(quoteKvKey(quote.priceOptionId));

let nextProduct = 300;

/**
 * A fresh order of the orderer placed through the API, one line per product (the next demo products in turn), each
 * from the quote `pick` chooses, with `quantity` of each. Returns its number and line ids in line order.
 */
export async function freshOrder(
  lines = 1,
  { who = JSMITH, pick = withoutFields, quantity = 1 }: { who?: Orderer; pick?: (q: Quote) => boolean; quantity?: number } = {},
): Promise<{ orderNumber: string; lineIds: number[] }> {
  const quotes: Quote[] = [];
  for (let tried = 0; quotes.length < lines; tried++) {
    if (tried === DEFAULT_PRODUCT_COUNT) throw new Error("no demo product has an option `pick` accepts");
    // The test catalog has DEFAULT_PRODUCT_COUNT products (test/setup); around again after the last.
    nextProduct = (nextProduct % DEFAULT_PRODUCT_COUNT) + 1;
    const quote = (await issueQuotes(`MP-${String(nextProduct).padStart(7, "0")}`, who)).find(pick);
    if (quote) quotes.push(quote);
  }
  const res = await placeOrder(
    orderBody(
      quotes.map((q) => lineFor(q, quantity)),
      who,
    ),
    { tenantId: who.tenantId },
  );
  if (res.status !== 201) throw new Error(`order failed: ${res.status} ${await res.text()}`);
  const { orderNumber } = (await json(res)).data;
  const record = await readOrder(orderNumber, who.tenantId);
  return { orderNumber, lineIds: record.lineItems.map((l: { lineId: number }) => l.lineId) };
}

/** GET /orders/{orderNumber} with lines and shipping info, checked against the contract. */
export async function readOrder(orderNumber: string, tenantId = TENANT_A) {
  return (await json(await contractCall(await tokenFor(tenantId), `/orders/${orderNumber}?include=lineItems,shippingInfo`))).data;
}

/** The order's outbox events, in order (in the store that holds the order). */
export const eventsOf = async (orderNumber: string) =>
  (await rowsOfEveryStore(
    "SELECT id, type, payload, sequence FROM outbox_events WHERE aggregate_id = ?1 ORDER BY sequence, created_at",
    orderNumber,
  )) as { id: string; type: string; payload: string; sequence: number | null }[];

type LineEventType = "order.acknowledged" | "order.shipped" | "order.delivered";

/**
 * Writes an event of a line of one of tenant A's orders straight into the outbox of its store, as a test's precondition
 * (events out of order, or not yet dispatched: the write leaves the store's alarm unarmed, so such an event waits for
 * the store's next alarm); its data is valid against the document, since the feed shows it. Returns its id.
 */
export async function writeLineEvent(orderNumber: string, lineId: number, type: LineEventType, sequence: number, dispatchedAt?: string) {
  const at = new Date().toISOString();
  const line = { orderNumber, lineId, at };
  const data: { [T in LineEventType]: EventData<T> } = {
    "order.acknowledged": { ...line, status: "Acknowledged", lineStatus: "Acknowledged", promisedShipDate: at.slice(0, 10) },
    "order.shipped": {
      ...line,
      status: "Shipped",
      lineStatus: "Shipped",
      trackingNumber: "1ZTEST0001",
      carrierName: "UPS",
      serviceLevel: "Ground",
      quantity: 1,
      shippedQuantity: 1,
      shippedAt: at,
    },
    "order.delivered": { ...line, status: "Delivered", lineStatus: "Delivered", deliveredAt: at },
  };
  const id = crypto.randomUUID();
  await storeRowsUnarmed(
    TENANT_A,
    "INSERT INTO outbox_events (id, type, tenant_id, aggregate_id, payload, created_at, sequence, dispatched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    type,
    TENANT_A,
    orderNumber,
    JSON.stringify(data[type]),
    at,
    sequence,
    dispatchedAt ?? null,
  );
  return id;
}

/**
 * Puts an order line in a status directly (in the store that holds it), as the start of a transition under test (a state an integrator reaches
 * through several calls); a Shipped or Delivered line has shipped in full, any other nothing.
 */
export const putLineIn = (lineId: number, status: string) =>
  storeRowsById(
    lineId,
    "UPDATE order_lines SET status_name = ?2, shipped_quantity = CASE WHEN ?2 IN ('Shipped', 'Delivered') THEN quantity ELSE 0 END WHERE id = ?1",
    lineId,
    status,
  );
