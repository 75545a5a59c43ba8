import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/api/events/types";
import { API_VERSIONS } from "../../src/platform/versions/calendar";
import { VERSION_CHANGES } from "../../src/versions";
import { call, issueToken, TENANT_A, vendorTokenFor } from "../helpers/api";
import { documentedOperation, expectMatchesContract, servedDocument } from "../helpers/contract";
import { issueQuote, JSMITH, lineFor, orderBody, withoutFields } from "../helpers/orders";
import { vendorOf } from "../helpers/vendors";
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
  /^(id|correlationId|timestamp|access_token|secret|priceOptionId|orderNumber|orderId|lineId|lineIds|lineItemIds|shippingDocId|eventId|trackingNumber|promisedShipDate|expectedShipDate|dueAt|expiresAt|nextCursor|after|latencyMs|endpointId)$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function normalized(value: unknown, key = ""): unknown {
  if (VOLATILE_KEYS.test(key) && value !== null) return Array.isArray(value) ? value.map(() => `<${key}>`) : `<${key}>`;
  if (typeof value === "string") return TIME.test(value) ? "<time>" : value;
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

async function flowAt(version: string): Promise<Exchange[]> {
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
  const placed = await send(token, "POST", "/orders", orderBody([lineFor(quote)]), { "Idempotency-Key": crypto.randomUUID() });
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
