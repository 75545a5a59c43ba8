import { createMessageBatch, env } from "cloudflare:test";
import { type Schema, Validator } from "@cfworker/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import apiDoc from "../../docs/api.md?raw";
import { DELIVERED_EVENT_TYPES, TEST_EVENT_TYPE } from "../../src/api/events/types";
import { STEPS } from "../../src/api/returns/steps";
import { type DeliveryMessage, DISABLE_AFTER_FAILING_MS, deadLetterBatch, MAX_ATTEMPTS } from "../../src/api/webhooks/delivery";
import { EVENTS_DEAD_LETTER_QUEUE } from "../../src/api/webhooks/queues";
import type { OpenApiDocument } from "../../src/platform/openapi/document";
import { AT_LATEST, json, TENANT_A, tokenFor } from "../helpers/api";
import { contractCall, servedDocument, validateAgainst } from "../helpers/contract";
import { eventsOf, freshOrder } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { BODIES, move, vendorCall, vendorOf } from "../helpers/vendors";
import { RECEIVER, receivedAt, receiverPath, registerEndpoint } from "../helpers/webhooks";

/**
 * Every event the API produces, as the feed and a webhook receiver get it, against the document: the `webhooks`
 * entry of its type (what a generated receiver validates) and the `Event` union of the feed. One order goes through
 * every vendor move and a buyer's cancel, an endpoint is disabled after 3 days of failures, and an endpoint is sent
 * the test delivery.
 */

interface EventBody {
  id: string;
  type: string;
  orderNumber: string;
  sequence: number | null;
  data: Record<string, unknown>;
}

interface HeaderParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

let document: OpenApiDocument;

/** The types of an order's money side: confirmations, the buyer's answers, invoices and credit memos. */
const MONEY_SIDE_TYPES = [
  "order.confirmed",
  "order.change_accepted",
  "order.change_declined",
  "invoice.received",
  "invoice.matched",
  "invoice.exception",
  "invoice.disputed",
  "invoice.accepted",
  "credit_memo.received",
] as const;

const webhookOf = (type: string) => (document.webhooks as Record<string, { post: any }>)[type]?.post;
/** The body a receiver of `type` deliveries validates against (`/` in a JSON pointer segment is `~1`). */
const webhookBody = (type: string) => `#/webhooks/${type}/post/requestBody/content/application~1json/schema`;

function expectValidFor(type: string, event: unknown): void {
  expect(webhookOf(type), `the document has no webhook ${type}`).toBeDefined();
  const asWebhook = validateAgainst(document, webhookBody(type), event);
  expect(asWebhook.errors, `${type} against webhooks.${type}`).toEqual([]);
  const asEvent = validateAgainst(document, "#/components/schemas/Event", event);
  expect(asEvent.errors, `${type} against Event`).toEqual([]);
}

/** The tenant's whole feed, oldest first, every page checked against the document. */
async function wholeFeed(token: string): Promise<EventBody[]> {
  const events: EventBody[] = [];
  let after = "";
  for (;;) {
    const page = (await json(await contractCall(token, `/events?limit=100${after && `&after=${after}`}`, { headers: AT_LATEST }))).data;
    events.push(...page.events);
    if (!page.hasMore) return events;
    after = page.nextCursor;
  }
}

/** An endpoint disabled the way the dead-letter consumer does it: its deliveries failed for more than 3 days. */
async function disabledEndpoint(eventId: string): Promise<string> {
  const endpoint = await registerEndpoint(`${RECEIVER}${receiverPath("fail")}`, ["webhook_endpoint.disabled"]);
  const since = new Date(Date.now() - DISABLE_AFTER_FAILING_MS - 60_000).toISOString();
  await storeRows(TENANT_A, "UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?", since, endpoint.id);
  // Tenant A lives in its store: the message names it, as its store's alarm does (docs/tenant-stores.md).
  const message: DeliveryMessage = { eventId, endpointId: endpoint.id, storeTenantId: TENANT_A };
  const batch = createMessageBatch<DeliveryMessage>(EVENTS_DEAD_LETTER_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: MAX_ATTEMPTS, body: message },
  ]);
  await deadLetterBatch(batch, env);
  return endpoint.id;
}

beforeAll(async () => {
  // The events are read at the latest version (AT_LATEST), the document's.
  document = await servedDocument();
});

describe("events against the document", () => {
  it("the document has a webhook for every event type, each with its own body schema, and Event is their union on type", () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
    const schemas = document.components!.schemas as Record<string, any>;
    const mapping = schemas.Event.discriminator.mapping as Record<string, string>;
    expect(schemas.Event.discriminator.propertyName).toBe("type");
    expect(Object.keys(mapping).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
    for (const type of DELIVERED_EVENT_TYPES) {
      expect(webhookOf(type).requestBody.content["application/json"].schema).toEqual({ $ref: mapping[type] });
      const schema = schemas[mapping[type]!.split("/").pop()!];
      expect(schema.properties.type.enum, type).toEqual([type]);
      expect(schema.properties.data.required?.length, `${type}: data has required fields`).toBeGreaterThan(0);
    }
  });

  it("docs/api.md's event table lists each type with exactly the data fields of its schema", () => {
    const section = apiDoc.slice(apiDoc.indexOf("### Event types and payloads"), apiDoc.indexOf("### The feed"));
    const rows = section.split("\n").filter((line) => line.startsWith("| `"));
    const documented = Object.fromEntries(
      rows.map((row) => {
        const [, type, , data] = row.split("|").map((cell) => cell.trim());
        return [type!.replaceAll("`", ""), [...new Set([...data!.matchAll(/`(\w+)`/g)].map((m) => m[1]))].sort()];
      }),
    );
    const schemas = document.components!.schemas as Record<string, any>;
    const fieldsOf = (schema: any): string[] =>
      Object.entries(schema.properties as Record<string, any>).flatMap(([name, property]) => [
        name,
        ...(property.items?.properties ? fieldsOf(property.items) : []),
      ]);
    const mapping = schemas.Event.discriminator.mapping as Record<string, string>;
    const described = Object.fromEntries(
      Object.entries(mapping).map(([type, ref]) => [type, [...new Set(fieldsOf(schemas[ref.split("/").pop()!].properties.data))].sort()]),
    );
    expect(documented).toEqual(described);
  });

  it("every event of an order's life, an endpoint's disabling and the test delivery match the document for their type", async () => {
    const token = await tokenFor(TENANT_A);
    const { orderNumber, lineIds } = await freshOrder(4, { quantity: 2 });
    const [whole, backordered, rejected] = lineIds as [number, number, number, number];
    // Every move: one line acknowledged, shipped in two parcels and delivered; one backordered, one rejected.
    for (const [lineId, action, body] of [
      [whole, "acknowledge", BODIES.acknowledge()],
      [whole, "ship", { ...(BODIES.ship() as object), quantity: 1 }],
      [whole, "ship", BODIES.ship()],
      [whole, "deliver", BODIES.deliver()],
      [backordered, "backorder", BODIES.backorder()],
      [rejected, "reject", BODIES.reject()],
    ] as const) {
      const res = await move(lineId, action, body);
      expect(res.status, `${action} ${lineId}: ${await res.clone().text()}`).toBe(200);
    }
    // The buyer cancels what is left: the backordered line and the untouched one.
    const cancelled = await contractCall(token, `/orders/${orderNumber}/cancel`, {
      method: "POST",
      headers: { "Idempotency-Key": crypto.randomUUID() },
      json: { partial: true, reason: "No longer needed" },
    });
    expect(cancelled.status).toBe(200);
    const [created] = await eventsOf(orderNumber);
    const endpointId = await disabledEndpoint(created!.id);

    const feed = (await wholeFeed(token)).filter((e) => e.orderNumber === orderNumber || e.orderNumber === endpointId);
    expect(feed.map((e) => e.type)).toEqual([
      "order.created",
      "order.acknowledged",
      "order.shipped",
      "order.shipped",
      "order.delivered",
      "order.backordered",
      "order.rejected",
      "order.cancelled",
      "webhook_endpoint.disabled",
    ]);
    for (const event of feed) {
      expectValidFor(event.type, event);
      expect((await json(await contractCall(token, `/events/${event.id}`, { headers: AT_LATEST }))).data).toEqual(event);
    }
    // docs/api.md: order.created lists the lines' vendors; the tenant is the receiver's own, so it is not repeated.
    expect(feed[0]!.data).not.toHaveProperty("tenantId");
    expect((feed[0]!.data.lines as { vendorId: number }[]).every((l) => Number.isInteger(l.vendorId))).toBe(true);

    // The test delivery, as the receiver got it: body and every documented header.
    const path = receiverPath("ok");
    const pinged = await registerEndpoint(`${RECEIVER}${path}`, ["webhook_endpoint.disabled"]);
    const answer = await contractCall(token, `/webhook-endpoints/${pinged.id}/test`, { method: "POST" });
    expect((await json(answer)).data).toMatchObject({ delivered: true });
    const [received] = await receivedAt(path);
    const ping = JSON.parse(received!.body);
    expect(ping.type).toBe(TEST_EVENT_TYPE);
    expectValidFor(TEST_EVENT_TYPE, ping);
    const parameters = webhookOf(TEST_EVENT_TYPE).parameters as HeaderParameter[];
    expect(parameters.filter((p) => p.in === "header").length).toBeGreaterThan(0);
    for (const parameter of parameters) {
      expect(parameter.in).toBe("header");
      const value = received!.headers[parameter.name.toLowerCase()];
      if (value === undefined) {
        expect(parameter.required, `required header ${parameter.name} missing`).not.toBe(true);
        continue;
      }
      expect(new Validator(parameter.schema, "2020-12").validate(value).errors, `${parameter.name}: ${value}`).toEqual([]);
    }

    // The types produced are the types documented: each type above, the test delivery, the money side's (below), the
    // returns' (test/returns/returns.test.ts checks each against the document) and the recalls' (test/recalls/routes.test.ts).
    const returnTypes = Object.values(STEPS).flatMap((steps) => Object.values(steps).map((rule) => rule.event));
    const recallTypes = ["recall.affects_you", "recall.updated", "recall.closed"];
    expect(new Set([...feed.map((e) => e.type), ping.type, ...MONEY_SIDE_TYPES, ...returnTypes, ...recallTypes])).toEqual(
      new Set(DELIVERED_EVENT_TYPES),
    );
  });

  it("every event of an order's money side (confirmation, the buyer's answers, invoices, credit memo) matches the document", async () => {
    const token = await tokenFor(TENANT_A);
    const { orderNumber, lineIds } = await freshOrder(2, { quantity: 2 });
    const [priced, substituted] = lineIds as [number, number];
    const send = async (vendorId: number, path: string, body: unknown) => {
      const res = await vendorCall(vendorId, path, { method: "POST", json: body });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
      return (await json(res)).data;
    };
    const buyer = async (path: string, body: unknown) => {
      const res = await contractCall(token, path, { method: "POST", json: body });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    };
    const order = (await json(await contractCall(token, `/orders/${orderNumber}?include=lineItems`))).data;
    const priceOf = (lineId: number) => Math.round(order.lineItems.find((l: { lineId: number }) => l.lineId === lineId).price * 100);
    const money = (cents: number) => (cents / 100).toFixed(2);
    const vendor = await vendorOf(priced);
    await send(vendor, "/order-confirmations", {
      type: "detail",
      lines: [{ lineId: priced, code: "IP", unitPrice: money(priceOf(priced) + 100) }],
    });
    await buyer(`/orders/${orderNumber}/lines/${priced}/change-decision`, { decision: "accept" });
    await send(await vendorOf(substituted), "/order-confirmations", {
      type: "detail",
      lines: [{ lineId: substituted, code: "substituted", substitute: { partNumber: "ALT-9", description: "Equivalent" } }],
    });
    await buyer(`/orders/${orderNumber}/lines/${substituted}/change-decision`, { decision: "decline", reason: "Not approved" });
    expect((await move(priced, "ship", BODIES.ship())).status).toBe(200);
    const price = priceOf(priced) + 100;
    const invoice = (lines: { lineId?: number; description?: string; quantity: number; cents: number }[]) => {
      const total = lines.reduce((sum, line) => sum + line.cents * line.quantity, 0);
      return {
        invoiceNumber: `INV-${crypto.randomUUID().slice(0, 8)}`,
        orderNumber,
        invoiceDate: new Date().toISOString().slice(0, 10),
        currency: "USD",
        lines: lines.map(({ cents, ...line }) => ({ ...line, unitPrice: money(cents), amount: money(cents * line.quantity) })),
        summary: { subtotal: money(total), tax: "0.00", freight: "0.00", total: money(total) },
      };
    };
    const matched = await send(vendor, "/invoices", invoice([{ lineId: priced, quantity: 2, cents: price }]));
    expect(matched.status).toBe("matched");
    const surcharge = await send(
      vendor,
      "/invoices",
      invoice([
        { lineId: priced, quantity: 1, cents: price },
        { description: "Fuel", quantity: 1, cents: 995 },
      ]),
    );
    expect(surcharge.status).toBe("exception");
    await buyer(`/invoices/${surcharge.invoiceId}/dispute`, { reason: "Not agreed" });
    await send(vendor, "/credit-memos", {
      creditMemoNumber: `CM-${crypto.randomUUID().slice(0, 8)}`,
      invoiceId: surcharge.invoiceId,
      creditDate: new Date().toISOString().slice(0, 10),
      currency: "USD",
    });
    await buyer(`/invoices/${surcharge.invoiceId}/accept`, {});

    const feed = (await wholeFeed(token)).filter((e) => e.orderNumber === orderNumber);
    const types = new Set(feed.map((e) => e.type));
    for (const type of MONEY_SIDE_TYPES) expect(types, type).toContain(type);
    // One gap-free sequence per order, the money side's events included.
    expect(feed.map((e) => e.sequence)).toEqual(feed.map((_, i) => i + 1));
    for (const event of feed) expectValidFor(event.type, event);
    const exception = feed.find((e) => e.type === "invoice.exception")!;
    expect(exception.data).toMatchObject({
      invoiceId: surcharge.invoiceId,
      exceptions: expect.arrayContaining([expect.objectContaining({ matchStatus: "not_on_po" })]),
    });
  });

  it("data is typed by type: a payload missing a field of its type, or under another type, is refused", async () => {
    const { orderNumber } = await freshOrder();
    const [created] = await eventsOf(orderNumber);
    const event = (await json(await contractCall(await tokenFor(TENANT_A), `/events/${created!.id}`, { headers: AT_LATEST }))).data;
    expectValidFor("order.created", event);
    const { lines: _lines, ...withoutLines } = event.data;
    for (const wrong of [
      { ...event, data: withoutLines },
      { ...event, type: "order.shipped" },
      { ...event, type: "order.lost" },
    ]) {
      expect(validateAgainst(document, "#/components/schemas/Event", wrong).valid, JSON.stringify(wrong).slice(0, 80)).toBe(false);
    }
    expect(validateAgainst(document, webhookBody("order.shipped"), { ...event, type: "order.shipped" }).valid).toBe(false);
  });
});
