import {
  type AmountPaths,
  amountAsNumber,
  amountPaths,
  amountsAsTextOrRefused,
  rewriteAmounts,
  someAmount,
  under,
} from "../../platform/amount-paths";
import { amountText, MARKET_CURRENCY } from "../../platform/money";
import type { OpenApiDocument } from "../../platform/openapi/document";
import type { SchemaNode, VersionChange } from "../../platform/versions/change";

const PRICE_OPTION = amountPaths("price", "listPrice", "purchaseTerms.coreCharge", "purchaseTerms.lateFeePerDay");
const ORDER = amountPaths("total", "lineItems[].price", "lineItems[].extendedPrice", "lineItems[].contractPrice");
const VENDOR_LINE = amountPaths("price", "extendedPrice", "contractPrice");
/** An offer's own prices, in its input and in its answer. */
const OFFER_PRICES = ["price", "futurePrice.price"];
const OFFER = amountPaths(...OFFER_PRICES, "purchaseTerms.coreCharge", "purchaseTerms.lateFeePerDay");
const AGREEMENT = amountPaths("prices[].price");
const ORDER_CREATED = amountPaths("data.total", "data.lines[].price", "data.lines[].extendedPrice");

/** The amounts an offer's input gives: the price files read them too (src/operator/offers/price-files.ts). */
export const OFFER_INPUT_AMOUNTS = amountPaths(...OFFER_PRICES, "exchangeTerms.coreCharge", "loanTerms.lateFeePerDay");

const LINE_MOVES = ["acknowledge", "backorder", "ship", "deliver", "reject"].map((move) => `post /vendor/api/order-lines/{lineId}/${move}`);

/** Where each answer that had JSON numbers has its amounts. */
const ANSWERS: Record<string, AmountPaths> = {
  "post /customer/api/catalog/detail": under("data.options[]", PRICE_OPTION),
  "post /customer/api/catalog/resolve": under("data.results[].priceOptions[]", PRICE_OPTION),
  "get /customer/api/orders/search": under("data.orders[]", ORDER),
  "get /customer/api/orders/{orderNumber}": under("data", ORDER),
  "get /vendor/api/order-lines": under("data.lines[]", VENDOR_LINE),
  "get /vendor/api/order-lines/{lineId}": under("data", VENDOR_LINE),
  ...Object.fromEntries(LINE_MOVES.map((operation) => [operation, under("data.line", VENDOR_LINE)])),
  "post /vendor/api/order-confirmations": under("data.lines[]", VENDOR_LINE),
  "post /vendor/api/shipments": under("data.lines[].line", VENDOR_LINE),
  "get /vendor/api/offers": under("data.offers[]", OFFER),
  "get /vendor/api/offers/{sku}": under("data", OFFER),
  "put /vendor/api/offers/{sku}": under("data", OFFER),
  "post /vendor/api/offers/batch": under("data.results[].offer", OFFER),
  "get /vendor/api/agreements": under("data.agreements[]", AGREEMENT),
  "get /vendor/api/agreements/{agreementId}": under("data", AGREEMENT),
  "post /vendor/api/agreements": under("data", AGREEMENT),
  "patch /vendor/api/agreements/{agreementId}": under("data", AGREEMENT),
};

/** Where each request that took JSON numbers has its amounts. */
const REQUESTS: Record<string, AmountPaths> = {
  "post /customer/api/orders": amountPaths("quoteItems[].price"),
  "put /vendor/api/offers/{sku}": OFFER_INPUT_AMOUNTS,
  "post /vendor/api/offers/batch": under("offers[]", OFFER_INPUT_AMOUNTS),
  "post /vendor/api/agreements": AGREEMENT,
};

/** The amounts of each event type that had JSON numbers. */
const EVENTS: Record<string, AmountPaths> = {
  "order.created": ORDER_CREATED,
};

/** An amount of before this version as this version writes it in an answer: two places ("240.00"). */
const twoPlaces = (amount: unknown) => (typeof amount === "number" ? amountText(amount) : amount);

/**
 * An event stored before this version as this version writes it: its JSON-number amounts as decimal strings, and the
 * `currency` beside them that events of this version have (an order's, a return's, a confirmed line's prices').
 */
function storedEventNow<E extends object>(event: E): E {
  const { type, data } = event as { type?: string; data?: Record<string, unknown> };
  if (!data || typeof data !== "object") return event;
  const paths = EVENTS[type ?? ""];
  const numbers = paths !== undefined && someAmount(event, paths, (amount) => typeof amount === "number");
  const lines = Array.isArray(data.lines) ? (data.lines as Record<string, unknown>[]) : [];
  const confirmedWithout = lines.some((line) => line && line.unitPrice !== undefined && line.currency === undefined);
  const ownsAmounts = type === "order.created" || data.returnId !== undefined;
  if (!numbers && !confirmedWithout && !(ownsAmounts && data.currency === undefined)) return event;
  const upgraded = structuredClone(event) as E & { data: Record<string, unknown> };
  if (paths) rewriteAmounts(upgraded, paths, twoPlaces);
  if (ownsAmounts && upgraded.data.currency === undefined) upgraded.data.currency = MARKET_CURRENCY;
  for (const line of Array.isArray(upgraded.data.lines) ? (upgraded.data.lines as Record<string, unknown>[]) : []) {
    if (line && line.unitPrice !== undefined && line.currency === undefined) line.currency = MARKET_CURRENCY;
  }
  return upgraded;
}

/** The schemas of the document where amounts are: a component, and the members to an amount inside it. */
const DOCUMENT_AMOUNTS: [component: string, answer: boolean, paths: AmountPaths][] = [
  ["PriceOption", true, amountPaths("price", "listPrice")],
  ["PurchaseTerms", true, amountPaths("coreCharge", "lateFeePerDay")],
  ["OrderSearchRecord", true, amountPaths("total")],
  ["OrderLine", true, VENDOR_LINE],
  ["VendorOrderLine", true, VENDOR_LINE],
  ["Offer", true, amountPaths(...OFFER_PRICES)],
  ["Agreement", true, AGREEMENT],
  ["OrderCreatedEvent", true, ORDER_CREATED],
  ["CreateOrderRequest", false, amountPaths("quoteItems[].price")],
  ["OfferInput", false, amountPaths(...OFFER_PRICES)],
  ["OfferBatchRow", false, amountPaths(...OFFER_PRICES)],
  ["ExchangeTerms", false, amountPaths("coreCharge")],
  ["LoanTerms", false, amountPaths("lateFeePerDay")],
  ["AgreementInput", false, AGREEMENT], // its example; its lines are AgreementPriceLine
  ["AgreementPriceLine", false, amountPaths("price")],
];

/** The schema of an amount as the versions before this one described it: a JSON number. */
function formerAmount(schema: SchemaNode, answer: boolean): SchemaNode {
  const nullable = Array.isArray(schema.type) && schema.type.includes("null");
  if (answer) return { type: nullable ? ["number", "null"] : "number" };
  const said = typeof schema.description === "string" ? schema.description.replace(/: a decimal string with at most two.*$/, "") : "";
  return {
    type: "number",
    exclusiveMinimum: 0,
    description: `${said}: a decimal with at most two decimal places (more is a 400, never rounded)`,
    example: 123.45,
  };
}

/** Every amount schema at `steps` inside `schema` (through properties, array items, each variant of a oneOf or anyOf), to replace. */
function amountsAt(
  schema: SchemaNode | undefined,
  steps: AmountPaths[number],
  at = 0,
): { schema: SchemaNode; replace: (by: SchemaNode) => void }[] {
  if (!schema || typeof schema !== "object") return [];
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return variants.flatMap((variant) => amountsAt(variant, steps, at));
  const { member, each } = steps[at]!;
  const properties = schema.properties;
  const property = properties?.[member];
  if (!properties || !property) return [];
  if (at < steps.length - 1) return amountsAt(each ? property.items : property, steps, at + 1);
  if (!each) return [{ schema: property, replace: (by) => (properties[member] = by) }];
  const items = property.items;
  return items ? [{ schema: items, replace: (by) => (property.items = by) }] : [];
}

function formerDocument(document: OpenApiDocument): void {
  const schemas = document.components?.schemas as Record<string, SchemaNode> | undefined;
  if (!schemas) return;
  for (const [component, answer, paths] of DOCUMENT_AMOUNTS) {
    const schema = schemas[component];
    for (const steps of paths) for (const found of amountsAt(schema, steps)) found.replace(formerAmount(found.schema, answer));
    if (schema?.example !== undefined) rewriteAmounts(schema.example, paths, amountAsNumber);
  }
  // The webhooks' examples (a sample event each), as the events themselves are rendered.
  const webhooks = (
    document as { webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { example?: unknown }> } } }> }
  ).webhooks;
  for (const [type, paths] of Object.entries(EVENTS)) {
    for (const content of Object.values(webhooks?.[type]?.post?.requestBody?.content ?? {})) {
      if (content.example !== undefined) rewriteAmounts(content.example, paths, amountAsNumber);
    }
  }
}

/**
 * Every amount of money is a decimal string with its currency beside it: the amounts that were JSON numbers (price
 * options, orders and their lines, vendors' lines, offers, agreements, `order.created`) became strings, in answers,
 * requests and events. Clients pinned before get numbers and send them (12.5 is read as "12.5").
 */
export const moneyAsDecimalStrings: VersionChange = {
  version: "2026-12-07",
  description:
    'Every amount of money is a decimal string with two places (`"1249.50"`) with its ISO 4217 `currency` beside it: price ' +
    "options, orders and their lines, vendors' order lines, offers, agreements and `order.created` gave JSON numbers (`1249.5`), " +
    "and orders, offers and agreements take strings.",
  operations: [...new Set([...Object.keys(ANSWERS), ...Object.keys(REQUESTS)])],
  request: (body, { operation }) => {
    const paths = REQUESTS[operation];
    if (paths) amountsAsTextOrRefused(body, paths);
    return body;
  },
  response: async (response, { operation }) => {
    const paths = ANSWERS[operation];
    if (!paths || !response.headers.get("Content-Type")?.startsWith("application/json")) return response;
    const body = await response.json();
    rewriteAmounts(body, paths, amountAsNumber);
    const headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return new Response(JSON.stringify(body), { status: response.status, headers });
  },
  event: (event) => {
    const paths = EVENTS[event.type as string];
    if (paths) rewriteAmounts(event, paths, amountAsNumber);
    return event;
  },
  document: formerDocument,
  storedEvent: storedEventNow,
};
