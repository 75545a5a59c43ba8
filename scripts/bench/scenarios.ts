import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import { centsToText, textToCents } from "../../src/platform/money";
import { FIRST_VERSION } from "../../src/platform/versions/calendar";
import type { CatalogItem } from "../../src/shared/catalog/catalog";
import type { CatalogDetailSchema } from "../../src/shared/catalog/routes";
import { API_PREFIX, authedGet, type BenchTarget, jsonPost, send, tokenRequest } from "./client";
import type { LoadRequest } from "./load";

/** Demo requester of tenant 1 (src/dev/seed/organizations.ts): contact 50001, user 1, facility 1001 (company 101). */
export const REQUESTER = { requesterId: 50001, userId: 1, facilityId: 1001, shippingAddressId: 11, billingAddressId: 13 } as const;

export interface BenchContext extends BenchTarget {
  clientId: string;
  clientSecret: string;
  /** A token of the demo vendor's client (the invoice scenario; `npm run bench` makes one). */
  vendorToken?: string;
  products: number;
  /** Single-use quotes to pre-issue for the order-creation scenario. */
  orderPool: number;
  /** CPU time the runtime's workerd process has used so far (ms), or null where it cannot be read. */
  runtimeCpuMs?: () => number | null;
}

export interface PreparedScenario {
  request: LoadRequest;
  nextRequest?: () => LoadRequest;
  amount?: number;
}

export interface Scenario {
  name: string;
  what: string;
  expectedStatus: number;
  /** Connections for this scenario whatever --connections says (its share compares with the bare Worker at as many). */
  connections?: number;
  prepare(ctx: BenchContext): Promise<PreparedScenario>;
}

const productId = (n: number) => `MP-${String(n).padStart(7, "0")}`;

/** Lines per invoice of the invoice scenario (issue 43: at most 2 sequential round trips with 50). */
export const INVOICE_LINES = 50;
const randomProductId = (products: number) => productId(1 + Math.floor(Math.random() * products));

/**
 * A catalog search. `Cache-Control: no-store` by default: the scenarios measure the search itself, neither served
 * from nor written to the edge cache (src/shared/catalog/search-cache.ts), which `search-popular` measures.
 */
export const catalogSearch = (
  ctx: BenchContext,
  filters: Record<string, unknown>,
  pagination: Record<string, unknown> = {},
  { cached = false } = {},
) =>
  jsonPost(
    `${API_PREFIX}/catalog/search`,
    ctx.token,
    { filters, pagination, facilityId: REQUESTER.facilityId, requesterId: REQUESTER.requesterId },
    cached ? {} : { "cache-control": "no-store" },
  );

/** Searches many buyers make: what the edge cache is for. */
const POPULAR_QUERIES = [
  "battery pack",
  "spo2 sensor",
  "ecg leadwire",
  "flow sensor",
  "power cord",
  "x-ray tube",
  "infusion pump door",
  "light guide cable",
  "door gasket",
  "exhalation valve",
  "touchscreen display",
  "defibrillator paddle",
  "charging station",
  "nibp cuff",
  "keypad membrane",
  "ultrasound transducer",
  "o2 cell",
  "pressure transducer",
  "camera head",
  "footswitch",
];

type PriceOption = z.infer<typeof CatalogDetailSchema>["options"][number];

/** A scanned GS1 DataMatrix label of demo product `n` (its unit GTIN, src/dev/seed/catalog.ts), with expiry and lot. */
const scanOf = (n: number) => `]d201${generateDeviceIdentifiers(n - 1)[0]!.deviceId}17301231` + `10LOT${n}`;
const resolveRequest = (ctx: BenchContext, n: number, quotes: boolean) =>
  jsonPost(`${API_PREFIX}/catalog/resolve`, ctx.token, {
    codes: [scanOf(n)],
    ...(quotes ? { facilityId: REQUESTER.facilityId, requesterId: REQUESTER.requesterId } : {}),
  });
const randomN = (products: number) => 1 + Math.floor(Math.random() * products);

/** Scan to order, without quotes (the scale table) and with them (beside catalog-detail). */
export const resolveScenario = (quotes: boolean): Scenario => ({
  name: quotes ? "catalog-resolve-quotes" : "catalog-resolve",
  what: `POST /catalog/resolve, a random product's GS1 DataMatrix label${quotes ? ", with its price options (quotes)" : ""}`,
  expectedStatus: 200,
  prepare: async (ctx) => ({
    request: resolveRequest(ctx, 1, quotes),
    nextRequest: () => resolveRequest(ctx, randomN(ctx.products), quotes),
  }),
});

export const detailRequest = (ctx: BenchContext, id: string) =>
  jsonPost(`${API_PREFIX}/catalog/detail`, ctx.token, {
    productId: id,
    facilityId: REQUESTER.facilityId,
    requesterId: REQUESTER.requesterId,
  });

export function orderRequest(
  ctx: Pick<BenchContext, "token">,
  line: { priceOptionId: string; productId: string; price: string },
  key: string,
): LoadRequest {
  return jsonPost(
    `${API_PREFIX}/orders`,
    ctx.token,
    {
      ...REQUESTER,
      shippingMethod: "GROUND",
      payment: { paymentMethod: "PO", poNumber: "BENCH-PO" },
      quoteItems: [{ ...line, quantity: 1 }],
    },
    { "idempotency-key": key },
  );
}

interface InvoicedOrder {
  orderNumber: string;
  lines: { lineId: number; price: string }[];
}

/**
 * `count` orders of INVOICE_LINES lines each, every line the demo vendor's new OEM offer of another demo product (each
 * line needs a quote of its own: one per product).
 */
async function invoicedOrders(ctx: BenchContext, count: number): Promise<InvoicedOrder[]> {
  const orders: InvoicedOrder[] = [];
  for (let o = 0; o < count; o++) {
    const products = Array.from({ length: INVOICE_LINES }, (_, i) => productId(1 + ((o * INVOICE_LINES + i) % ctx.products)));
    const details = await Promise.all(
      products.map((id) => send<{ data: { options: PriceOption[] } }>(ctx.baseUrl, detailRequest(ctx, id))),
    );
    const quoteItems = details.map((detail, i) => {
      const option = detail.data.options.find((opt) => opt.condition === "New OEM" && opt.customFields.length === 0);
      if (!option) throw new Error(`${products[i]} has no new OEM offer without fields`);
      return { priceOptionId: option.priceOptionId, productId: products[i]!, price: option.price, quantity: 1 };
    });
    const placed = await send<{ data: { orderNumber: string } }>(
      ctx.baseUrl,
      jsonPost(
        `${API_PREFIX}/orders`,
        ctx.token,
        { ...REQUESTER, shippingMethod: "GROUND", payment: { paymentMethod: "PO", poNumber: "BENCH-INV" }, quoteItems },
        { "idempotency-key": randomUUID() },
      ),
      201,
    );
    const order = await send<{ data: { lineItems: { lineId: number; price: string }[] } }>(
      ctx.baseUrl,
      authedGet(`${API_PREFIX}/orders/${placed.data.orderNumber}?include=lineItems`, ctx.token),
    );
    orders.push({ orderNumber: placed.data.orderNumber, lines: order.data.lineItems.map(({ lineId, price }) => ({ lineId, price })) });
  }
  return orders;
}

/** An invoice of every line of the order, one unit each at the order's price (nothing shipped: a quantity variance each). */
function invoiceRequest(ctx: BenchContext, order: InvoicedOrder, invoiceNumber: string): LoadRequest {
  const cents = order.lines.map((line) => textToCents(line.price)!);
  const text = centsToText;
  const total = text(cents.reduce((sum, c) => sum + c, 0));
  if (!ctx.vendorToken) throw new Error("the invoice scenario needs a vendor token (ctx.vendorToken)");
  return jsonPost("/vendor/api/invoices", ctx.vendorToken, {
    invoiceNumber,
    orderNumber: order.orderNumber,
    invoiceDate: new Date().toISOString().slice(0, 10),
    currency: "USD",
    lines: order.lines.map((line, i) => ({ lineId: line.lineId, quantity: 1, unitPrice: text(cents[i]!), amount: text(cents[i]!) })),
    summary: { subtotal: total, tax: "0.00", freight: "0.00", total },
  });
}

/** Lines shipped by the ship scenario at most (each acknowledged one at a time first: at rtt 50 that takes a while). */
const SHIP_POOL = 100;

/**
 * Ship requests of `count` new lines of the demo vendor, one order of up to INVOICE_LINES lines after another, each
 * line acknowledged first (shipping takes an acknowledged line): each request ships its line's one unit with the unit's
 * UDI (GTIN, expiry, lot), the tracking number its order's parcel, as an X12 856's item becomes one
 * (src/operator/edi/mapping/ship-notice.ts).
 */
async function shipRequests(ctx: BenchContext, count: number): Promise<LoadRequest[]> {
  if (!ctx.vendorToken) throw new Error("the ship scenario needs a vendor token (ctx.vendorToken)");
  const vendorToken = ctx.vendorToken;
  const requests: LoadRequest[] = [];
  const promisedShipDate = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  for (let o = 0; requests.length < count; o++) {
    const size = Math.min(INVOICE_LINES, count - requests.length);
    const products = Array.from({ length: size }, (_, i) => 1 + ((o * INVOICE_LINES + i) % ctx.products));
    const details = await Promise.all(
      products.map((n) => send<{ data: { options: PriceOption[] } }>(ctx.baseUrl, detailRequest(ctx, productId(n)))),
    );
    const quoteItems = details.map((detail, i) => {
      const option = detail.data.options.find((opt) => opt.condition === "New OEM" && opt.customFields.length === 0);
      if (!option) throw new Error(`${productId(products[i]!)} has no new OEM offer without fields`);
      return { priceOptionId: option.priceOptionId, productId: productId(products[i]!), price: option.price, quantity: 1 };
    });
    const placed = await send<{ data: { orderNumber: string } }>(
      ctx.baseUrl,
      jsonPost(
        `${API_PREFIX}/orders`,
        ctx.token,
        { ...REQUESTER, shippingMethod: "GROUND", payment: { paymentMethod: "PO", poNumber: "BENCH-SHIP" }, quoteItems },
        { "idempotency-key": randomUUID() },
      ),
      201,
    );
    const order = await send<{ data: { lineItems: { lineId: number }[] } }>(
      ctx.baseUrl,
      authedGet(`${API_PREFIX}/orders/${placed.data.orderNumber}?include=lineItems`, ctx.token),
    );
    const tracking = `1ZBENCH${randomUUID().slice(0, 10).toUpperCase()}`;
    const shippedAt = new Date().toISOString();
    for (const [i, { lineId }] of order.data.lineItems.entries()) {
      // One at a time: moves of one order's lines side by side race for the order (409 order-changed).
      await send(ctx.baseUrl, jsonPost(`/vendor/api/order-lines/${lineId}/acknowledge`, vendorToken, { promisedShipDate }));
      const gtin = generateDeviceIdentifiers(products[i]! - 1)[0]!.deviceId;
      requests.push(
        jsonPost(`/vendor/api/order-lines/${lineId}/ship`, vendorToken, {
          trackingNumber: tracking,
          carrierName: "UPS GROUND",
          quantity: 1,
          shippedAt,
          units: [`(01)${gtin}(17)301231(10)LOT${lineId}`],
        }),
      );
    }
  }
  return requests;
}

/** Quotes without custom fields, issued through /catalog/detail a few at a time; each is good for one order. */
export async function issueQuotePool(ctx: BenchContext, size: number) {
  const pool: { priceOptionId: string; productId: string; price: string }[] = [];
  let next = 1;
  while (pool.length < size) {
    const batch = Array.from({ length: 8 }, () => productId(1 + (next++ % ctx.products)));
    const details = await Promise.all(
      batch.map((id) => send<{ data: { options: PriceOption[] } }>(ctx.baseUrl, detailRequest(ctx, id)).then((r) => ({ id, r }))),
    );
    for (const { id, r } of details) {
      for (const option of r.data.options) {
        if (option.customFields.every((field) => !field.isRequired))
          pool.push({ priceOptionId: option.priceOptionId, productId: id, price: option.price });
      }
    }
  }
  return pool.slice(0, size);
}

async function sampleItem(ctx: BenchContext): Promise<CatalogItem> {
  const middle = Math.floor(ctx.products / 2);
  const res = await send<{ data: { items: CatalogItem[] } }>(ctx.baseUrl, catalogSearch(ctx, {}, { limit: 1, offset: middle }));
  const item = res.data.items[0];
  if (!item) throw new Error("the catalog is empty: seed it first");
  return item;
}

/** Requests sent one at a time before each load run to count its sequential round trips. */
export const ROUND_TRIP_SAMPLES = 10;

export const CORE_SCENARIOS: Scenario[] = [
  {
    name: "health-live",
    what: "GET /health/live (the app's cheapest route: routing, middleware, logging)",
    expectedStatus: 200,
    prepare: async () => ({ request: { method: "GET", path: "/health/live" } }),
  },
  {
    name: "token",
    what: "POST /auth/oauth2/token (client credentials)",
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: tokenRequest(ctx.clientId, ctx.clientSecret) }),
  },
  {
    name: "users-lookup",
    what: "GET /users/lookup?userId=1",
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: authedGet(`${API_PREFIX}/users/lookup?userId=${REQUESTER.userId}`, ctx.token) }),
  },
  {
    name: "users-lookup-first-version",
    what: `GET /users/lookup?userId=1 with Medparts-Version: ${FIRST_VERSION} (answered at the latest, walked back through every version change)`,
    expectedStatus: 200,
    prepare: async (ctx) => {
      const request = authedGet(`${API_PREFIX}/users/lookup?userId=${REQUESTER.userId}`, ctx.token);
      return { request: { ...request, headers: { ...request.headers, "medparts-version": FIRST_VERSION } } };
    },
  },
  {
    name: "users-search",
    what: 'GET /users/search?q=lastName~"smi"',
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: authedGet(`${API_PREFIX}/users/search?q=${encodeURIComponent('lastName~"smi"')}`, ctx.token) }),
  },
  {
    name: "users-search-post",
    what: 'POST /users/search, filters { lastNameContains: "smi" }',
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: jsonPost(`${API_PREFIX}/users/search`, ctx.token, { filters: { lastNameContains: "smi" } }) }),
  },
  {
    name: "manufacturers-search",
    what: 'GET /manufacturers/search?q=name~"med"',
    expectedStatus: 200,
    prepare: async (ctx) => ({
      request: authedGet(`${API_PREFIX}/manufacturers/search?q=${encodeURIComponent('name~"med"')}`, ctx.token),
    }),
  },
];

export const CATALOG_SEARCH_SCENARIOS: Scenario[] = [
  resolveScenario(false),
  {
    name: "search-keyword",
    what: 'POST /catalog/search, keywords "battery pack" (relevance)',
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: catalogSearch(ctx, { query: "battery pack" }) }),
  },
  {
    name: "search-part-number",
    what: "POST /catalog/search, a display part number typed with different punctuation/case",
    expectedStatus: 200,
    prepare: async (ctx) => {
      const item = await sampleItem(ctx);
      return { request: catalogSearch(ctx, { query: item.displayPartNumber.toLowerCase().replace(/-/g, " ") }) };
    },
  },
  {
    name: "search-facet",
    what: "POST /catalog/search, keyword + manufacturer facet, sorted by PartNumber",
    expectedStatus: 200,
    prepare: async (ctx) => {
      const item = await sampleItem(ctx);
      return {
        request: catalogSearch(
          ctx,
          { query: "valve", facets: [{ field: "manufacturer", values: [item.oem] }] },
          { sortBy: "PartNumber", sortDirection: "Asc" },
        ),
      };
    },
  },
  {
    name: "search-deep-offset",
    what: "POST /catalog/search, all products by PartNumber at offset = 90% of the catalog",
    expectedStatus: 200,
    prepare: async (ctx) => ({
      request: catalogSearch(ctx, {}, { limit: 50, offset: Math.floor(ctx.products * 0.9), sortBy: "PartNumber", sortDirection: "Asc" }),
    }),
  },
];

/** Repeated popular searches at 10 connections: after the first round, answered from the edge cache. */
export const POPULAR_SEARCH_SCENARIO: Scenario = {
  name: "search-popular",
  what: `POST /catalog/search, ${POPULAR_QUERIES.length} popular keyword searches in turn, 10 connections, edge cache on`,
  expectedStatus: 200,
  connections: 10,
  prepare: async (ctx) => {
    const requests = POPULAR_QUERIES.map((query) => catalogSearch(ctx, { query }, {}, { cached: true }));
    for (const request of requests) await send(ctx.baseUrl, request); // the first round fills the cache
    let next = 0;
    return { request: requests[0]!, nextRequest: () => requests[next++ % requests.length]! };
  },
};

export const ORDER_SCENARIOS: Scenario[] = [
  resolveScenario(true),
  {
    name: "catalog-detail",
    what: "POST /catalog/detail, random product (2-4 signed quotes at the eligible price: nothing written)",
    expectedStatus: 200,
    prepare: async (ctx) => ({
      request: detailRequest(ctx, productId(1)),
      nextRequest: () => detailRequest(ctx, randomProductId(ctx.products)),
    }),
  },
  {
    name: "order-create",
    what: "POST /orders, one line, unique Idempotency-Key and quote each",
    expectedStatus: 201,
    prepare: async (ctx) => {
      // The round-trip samples take the first quotes; the load run gets exactly the rest.
      const pool = await issueQuotePool(ctx, ctx.orderPool + ROUND_TRIP_SAMPLES + 1);
      let next = 0;
      const nextOrder = () => orderRequest(ctx, pool[next++ % pool.length]!, randomUUID());
      return { request: nextOrder(), nextRequest: nextOrder, amount: ctx.orderPool };
    },
  },
  {
    name: "order-replay",
    what: "POST /orders, the same Idempotency-Key and body again (cached replay)",
    expectedStatus: 201,
    prepare: async (ctx) => {
      const [line] = await issueQuotePool(ctx, 1);
      const request = orderRequest(ctx, line!, randomUUID());
      await send(ctx.baseUrl, request, 201);
      return { request };
    },
  },
  {
    name: "invoice-submit",
    what: `POST /vendor/api/invoices, ${INVOICE_LINES} lines of one order matched (three-way) against the order and its earlier invoices`,
    expectedStatus: 201,
    prepare: async (ctx) => {
      const orders = await invoicedOrders(ctx, ctx.orderPool >= 100 ? 10 : 2);
      let next = 0;
      const nextInvoice = () => {
        const order = orders[next++ % orders.length]!;
        return invoiceRequest(ctx, order, `BENCH-${randomUUID().slice(0, 23)}`);
      };
      // A few invoices per order: each is matched with the order's earlier ones, as an order's invoices are.
      return { request: nextInvoice(), nextRequest: nextInvoice, amount: orders.length * 3 };
    },
  },
  {
    name: "vendor-ship",
    what: "POST /vendor/api/order-lines/{lineId}/ship, a new acknowledged line's one unit with its UDI (an X12 856's item, issue 67)",
    expectedStatus: 200,
    // One request at a time: ship requests of one order's lines side by side race for the order (409 order-changed).
    connections: 1,
    prepare: async (ctx) => {
      // The round-trip samples take the first lines; the load run gets exactly the rest, each line shipped once.
      const amount = Math.min(ctx.orderPool, SHIP_POOL);
      const requests = await shipRequests(ctx, amount + ROUND_TRIP_SAMPLES + 1);
      let next = 0;
      // Past the last (should the load generator ask for one more than it sends): the last again, which changes nothing.
      const nextShip = () => requests[Math.min(next++, requests.length - 1)]!;
      return { request: nextShip(), nextRequest: nextShip, amount };
    },
  },
  {
    name: "orders-search",
    what: "GET /orders/search?limit=50",
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: authedGet(`${API_PREFIX}/orders/search?limit=50`, ctx.token) }),
  },
  {
    name: "orders-search-include",
    what: "GET /orders/search?limit=50&include=lineItems,shippingInfo",
    expectedStatus: 200,
    prepare: async (ctx) => ({ request: authedGet(`${API_PREFIX}/orders/search?limit=50&include=lineItems,shippingInfo`, ctx.token) }),
  },
];
