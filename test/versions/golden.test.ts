import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/api/events/types";
import { generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import { centsToText } from "../../src/platform/money";
import { API_VERSIONS, type ApiVersion } from "../../src/platform/versions/calendar";
import { VERSION_CHANGES } from "../../src/versions";
import { AT_LATEST, call, issueToken, TENANT_A, vendorTokenFor } from "../helpers/api";
import { documentedOperation, expectMatchesContract, servedDocument } from "../helpers/contract";
import { issueQuote, JSMITH, lineFor, orderBody, withoutFields } from "../helpers/orders";
import { projectionFollows, vendorOf } from "../helpers/vendors";
import { RECEIVER } from "../helpers/webhooks";

/**
 * Golden exchanges: the spec's buyer flow, the vendor flow and a webhook endpoint's life, recorded for every released
 * version in test/versions/golden/<version>.json (vitest file snapshots: `npm test` records a new version's file once,
 * CI refuses a missing one). A replay must equal the recording but for ids and times, so an answer of a released
 * version can only change on purpose (the file's diff shows it). Every version change's operations must be in the flow.
 */

const VERSION = "Medparts-Version";
/**
 * Values new at every run (ids, times, and days counted from today): normalized to their key's name. Ids of a
 * tenant's rows come from its store's range (src/shared/tenants/id-ranges.ts), shipping documents' and line items' too.
 */
const VOLATILE_KEYS =
  /^(id|agreementId|revision|correlationId|timestamp|access_token|secret|priceOptionId|orderNumber|orderId|lineId|lineIds|lineItemIds|shippingDocId|eventId|trackingNumber|promisedShipDate|expectedShipDate|dueAt|expiresAt|nextCursor|after|latencyMs|endpointId)$/;
/** A price option id inside a message (a 422 names the line's). */
const PRICE_OPTION_ID = /po_[A-Za-z0-9_-]{20,}/g;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function normalized(value: unknown, key = ""): unknown {
  if (VOLATILE_KEYS.test(key) && value !== null) return Array.isArray(value) ? value.map(() => `<${key}>`) : `<${key}>`;
  if (typeof value === "string") return TIME.test(value) ? "<time>" : value.replace(PRICE_OPTION_ID, "<priceOptionId>");
  if (Array.isArray(value)) return value.map((item) => normalized(item, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v, k)]));
  return value;
}

interface Exchange {
  operation: string;
  request?: unknown;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The operation of a concrete path, as the document names it. */
async function operationOf(method: string, path: string): Promise<string> {
  const found = documentedOperation(await servedDocument(), method, path);
  return `${found.method} ${found.path}`;
}

/** Money as a request of `version` gives it: a JSON number before 2026-12-07, a decimal string since. */
const amountAt = (version: ApiVersion, cents: number) => (version < "2026-12-07" ? cents / 100 : centsToText(cents));

async function flowAt(version: ApiVersion): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const send = async (token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await call(token, path, {
      method,
      ...(body === undefined ? {} : { json: body }),
      headers: { [VERSION]: version, ...headers },
    });
    await expectMatchesContract(res.clone(), method, path);
    const text = await res.text();
    exchanges.push({
      operation: await operationOf(method, path),
      ...(body === undefined ? {} : { request: normalized(body) }),
      status: res.status,
      headers: { "content-type": res.headers.get("Content-Type") ?? "", [VERSION.toLowerCase()]: res.headers.get(VERSION) ?? "" },
      body: text ? normalized(JSON.parse(text)) : "",
    });
    return text ? JSON.parse(text) : null;
  };

  const { token } = await issueToken(TENANT_A);
  await send(token, "GET", "/users/lookup?userId=1");
  await send(token, "POST", "/catalog/search", {
    requesterId: JSMITH.requesterContactId,
    facilityId: JSMITH.facilityId,
    filters: { query: "sensor" },
    pagination: { limit: 2 },
  });
  const quote = await issueQuote("MP-0000041", undefined, withoutFields);
  const detail = await send(token, "POST", "/catalog/detail", {
    productId: "MP-0000041",
    requesterId: JSMITH.requesterContactId,
    facilityId: JSMITH.facilityId,
  });
  expect(detail.data.options.length).toBeGreaterThan(0);
  const orderKey = crypto.randomUUID();
  const placed = await send(token, "POST", "/orders", orderBody([{ ...lineFor(quote), price: amountAt(version, quote.priceCents) }]), {
    "Idempotency-Key": orderKey,
  });
  // The error forms: an idempotency conflict (the key again, another body), a business rule (a price that is not the
  // option's), a validation failure (quantity 0).
  await send(token, "POST", "/orders", orderBody([{ ...lineFor(quote), price: amountAt(version, quote.priceCents), quantity: 2 }]), {
    "Idempotency-Key": orderKey,
  });
  const fresh = await issueQuote("MP-0000041", undefined, withoutFields);
  await send(token, "POST", "/orders", orderBody([{ ...lineFor(fresh), price: amountAt(version, fresh.priceCents + 1) }]), {
    "Idempotency-Key": crypto.randomUUID(),
  });
  await send(token, "POST", "/orders", orderBody([{ ...lineFor(fresh), price: amountAt(version, fresh.priceCents), quantity: 0 }]), {
    "Idempotency-Key": crypto.randomUUID(),
  });
  const orderNumber = placed.data.orderNumber as string;
  const order = await send(token, "GET", `/orders/${orderNumber}?include=lineItems,shippingInfo`);
  await send(token, "GET", `/orders/search?q=${encodeURIComponent(`orderNumber:"${orderNumber}"`)}`);

  const lineId = order.data.lineItems[0].lineId as number;
  const vendorToken = await vendorTokenFor(await vendorOf(lineId));
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await send(vendorToken, "POST", `/vendor/api/order-lines/${lineId}/acknowledge`, { promisedShipDate: tomorrow });
  await send(vendorToken, "POST", `/vendor/api/order-lines/${lineId}/ship`, { trackingNumber: "1ZGOLDEN" });
  await send(vendorToken, "POST", `/vendor/api/order-lines/${lineId}/deliver`, {});
  await send(token, "GET", "/events?types=order.created");

  // The vendor's other moves and lists, on lines of orders placed for them (not recorded: the order is above).
  const placeAnother = async () => {
    const another = await issueQuote("MP-0000041", undefined, (q) => q.vendorName === quote.vendorName && q.customFields.length === 0);
    const res = await call(token, "/orders", {
      method: "POST",
      json: orderBody([{ ...lineFor(another), price: centsToText(another.priceCents) }]),
      headers: { ...AT_LATEST, "Idempotency-Key": crypto.randomUUID() },
    });
    const number = (await res.json<{ data: { orderNumber: string } }>()).data.orderNumber;
    const placedOrder = await (await call(token, `/orders/${number}?include=lineItems`, { headers: AT_LATEST })).json<{
      data: { lineItems: { lineId: number }[] };
    }>();
    return { orderNumber: number, lineId: placedOrder.data.lineItems[0]!.lineId };
  };
  const later = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const backordered = await placeAnother();
  await projectionFollows(await vendorOf(backordered.lineId));
  await send(vendorToken, "GET", `/vendor/api/order-lines?orderNumber=${backordered.orderNumber}`);
  await send(vendorToken, "POST", `/vendor/api/order-lines/${backordered.lineId}/backorder`, {
    expectedShipDate: later,
    reason: "Awaiting stock",
  });
  const rejected = await placeAnother();
  await send(vendorToken, "POST", `/vendor/api/order-lines/${rejected.lineId}/reject`, { reason: "Discontinued" });
  const confirmed = await placeAnother();
  await send(vendorToken, "POST", "/vendor/api/order-confirmations", {
    type: "accept",
    lines: [{ lineId: confirmed.lineId }],
    promisedShipDate: tomorrow,
  });
  await send(vendorToken, "POST", "/vendor/api/shipments", { trackingNumber: "1ZGOLDEN2", lines: [{ lineId: confirmed.lineId }] });
  await send(vendorToken, "GET", `/vendor/api/order-lines/${confirmed.lineId}`);

  // Its offers and contract prices: an exchange offer with a core charge, of a product of this version's own.
  const index = 50 + API_VERSIONS.indexOf(version);
  const product = `MP-${String(index).padStart(7, "0")}`;
  const sku = `GOLDEN-${version}`;
  const offer = {
    productId: product,
    condition: "Refurbished",
    purchaseChoice: "Exchange",
    warranty: "6 months",
    price: amountAt(version, 120_050),
    leadTimeDays: 3,
    purchaseType: "exchange",
    exchangeTerms: { coreCharge: amountAt(version, 40_000), coreDueDays: 30 },
  };
  await send(vendorToken, "PUT", `/vendor/api/offers/${sku}`, offer);
  await send(vendorToken, "GET", `/vendor/api/offers?q=${encodeURIComponent(`sku:"${sku}"`)}`);
  await send(vendorToken, "GET", `/vendor/api/offers/${sku}`);
  await send(vendorToken, "POST", "/vendor/api/offers/batch", { offers: [{ sku, ...offer, price: amountAt(version, 119_900) }] });
  await send(token, "POST", "/catalog/resolve", {
    codes: [`(01)${generateDeviceIdentifiers(index)[0]!.deviceId}`],
    requesterId: JSMITH.requesterContactId,
    facilityId: JSMITH.facilityId,
  });
  const month = String(1 + API_VERSIONS.indexOf(version)).padStart(2, "0");
  const agreement = await send(vendorToken, "POST", "/vendor/api/agreements", {
    reference: `GOLDEN-${version}`,
    scope: { kind: "tenant", tenantId: TENANT_A },
    effectiveFrom: `2031-${month}-01T00:00:00Z`,
    prices: [{ sku, price: amountAt(version, 99_900) }],
  });
  await send(vendorToken, "GET", `/vendor/api/agreements?q=${encodeURIComponent(`reference:"GOLDEN-${version}"`)}`);
  await send(vendorToken, "GET", `/vendor/api/agreements/${agreement.data.agreementId}`);
  await send(vendorToken, "PATCH", `/vendor/api/agreements/${agreement.data.agreementId}`, { effectiveTo: `2031-${month}-20T00:00:00Z` });

  const path = `/ok/golden-${version}`;
  const endpoint = await send(token, "POST", "/webhook-endpoints", { url: `${RECEIVER}${path}`, eventTypes: ["*"] });
  await send(token, "POST", `/webhook-endpoints/${endpoint.data.id}/test`);
  // A signed sample of every event type, and each as the endpoint received it.
  for (const type of EVENT_TYPES) await send(token, "POST", `/webhook-endpoints/${endpoint.data.id}/test`, { type });
  const received = await (await fetch(`${RECEIVER}/__received?path=${encodeURIComponent(path)}`)).json<
    { headers: Record<string, string>; body: string }[]
  >();
  expect(received).toHaveLength(EVENT_TYPES.length + 1);
  for (const delivery of received) {
    exchanges.push({
      operation: "webhook delivery",
      status: 200,
      headers: {
        "content-type": delivery.headers["content-type"] ?? "",
        [VERSION.toLowerCase()]: delivery.headers[VERSION.toLowerCase()] ?? "",
      },
      body: normalized(JSON.parse(delivery.body)),
    });
  }
  await send(token, "DELETE", `/webhook-endpoints/${endpoint.data.id}`);
  return exchanges;
}

describe("golden exchanges of every released version", () => {
  const flows = new Map<string, Exchange[]>();

  for (const version of API_VERSIONS) {
    it(`${version}: the flow replays as recorded (test/versions/golden/${version}.json)`, async () => {
      const exchanges = await flowAt(version);
      flows.set(version, exchanges);
      await expect(`${JSON.stringify(exchanges, null, 2)}\n`).toMatchFileSnapshot(`./golden/${version}.json`);
    });
  }

  it("every version change's operations are in the recorded flow, answered differently before the change than after", () => {
    expect(flows.size).toBe(API_VERSIONS.length);
    for (const change of VERSION_CHANGES) {
      const before = flows.get(API_VERSIONS[API_VERSIONS.indexOf(change.version) - 1]!)!;
      const after = flows.get(change.version)!;
      for (const operation of change.operations) {
        const answers = (flow: Exchange[]) => flow.filter((e) => e.operation === operation);
        expect(answers(before).length, `${operation} has no golden exchange`).toBeGreaterThan(0);
        expect(answers(before), `${change.version} changes nothing of ${operation}`).not.toEqual(
          answers(after).map((e) => ({
            ...e,
            headers: { ...e.headers, [VERSION.toLowerCase()]: answers(before)[0]!.headers[VERSION.toLowerCase()] },
          })),
        );
      }
    }
  });
});
