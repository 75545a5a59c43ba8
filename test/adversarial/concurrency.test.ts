import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createEndpoint, MAX_ENDPOINTS_PER_TENANT } from "../../src/api/webhooks/endpoints";
import { database } from "../../src/db/client";
import { LATEST_VERSION } from "../../src/platform/versions/calendar";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { type TableCounts, tableCounts } from "../helpers/adversarial";
import { call, expectProblem, json, newClient, requestToken, TENANT_A, TENANT_B, TENANT_C, tokenFor } from "../helpers/api";
import { statementsReleasedTogether } from "../helpers/faults";
import { issueQuote, JSMITH, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { RECEIVER } from "../helpers/webhooks";

/**
 * Races, on top of test/orders/single-use.test.ts (10 orders on one quote, different keys) and
 * test/orders/idempotency.test.ts (20 identical requests, one key): here the two mixed, one key with
 * different bodies, many independent orders at once, parallel quotes and parallel token requests. After
 * each race the row counts (the tenants' own tables in their stores, the control plane's in DB) must match exactly what
 * the responses say succeeded.
 */

let nextProduct = 451;
const freshQuote = () => issueQuote(`MP-${String(nextProduct++).padStart(7, "0")}`, JSMITH, withoutFields);

async function raceCounting<T>(race: () => Promise<T>): Promise<{ result: T; added: TableCounts }> {
  const before = await tableCounts();
  const result = await race();
  const after = await tableCounts();
  const added = Object.fromEntries(
    Object.entries(after).map(([k, v]) => [k, v - before[k as keyof TableCounts]]),
  ) as unknown as TableCounts;
  return { result, added };
}

const orderRows = (orders: number, lines = orders) => ({
  orders,
  order_lines: lines,
  // Each ordered (signed) quote is recorded with its order; issuing one stores nothing.
  quotes: lines,
  used_quotes: lines,
  shipping_documents: orders,
  outbox_events: orders,
  api_clients: 0,
  order_versions: orders, // each new order at version 1, no other order changed
  webhook_endpoints: 0,
  vendor_offers: 0,
  price_agreements: 0,
  price_tiers: 0,
  catalog_imports: 0,
});

async function summarize(responses: Response[]) {
  const bodies = await Promise.all(
    responses.map(async (r) => ({ status: r.status, cached: r.headers.get("X-Idempotency-Cached"), body: await json(r) })),
  );
  const created = bodies.filter((b) => b.status === 201);
  return { bodies, created, orderNumbers: new Set(created.map((b) => b.body.data.orderNumber as string)) };
}

describe("concurrency: row counts match exactly what succeeded", () => {
  beforeAll(() => tokenFor(TENANT_A, ["orders:write"])); // its client row is not part of any race
  it("one quote, 6 retries under one key mixed with 6 requests under their own keys: exactly one order", async () => {
    const body = orderBody([lineFor(await freshQuote())]);
    const sharedKey = crypto.randomUUID();
    const { result, added } = await raceCounting(() =>
      Promise.all(Array.from({ length: 12 }, (_, i) => placeOrder(body, { key: i % 2 === 0 ? sharedKey : crypto.randomUUID() }))),
    );
    const { bodies, orderNumbers } = await summarize(result);
    expect(orderNumbers.size, JSON.stringify(bodies.map((b) => b.status))).toBe(1);
    for (const b of bodies) {
      // Losers: replay of the winner (201, cached), idempotency conflict ({ error }), or the quote already used (409 problem).
      if (b.status === 201) expect(orderNumbers).toContain(b.body.data.orderNumber);
      else expect(b.status).toBe(409);
    }
    expect(added).toEqual(orderRows(1));
  });

  it("one key, five different bodies at once: exactly one order, the others 409 { error } and their quotes stay unused", async () => {
    const key = crypto.randomUUID();
    const bodies = await Promise.all(Array.from({ length: 5 }, async () => orderBody([lineFor(await freshQuote())])));
    const { result, added } = await raceCounting(() => Promise.all(bodies.map((body) => placeOrder(body, { key }))));
    const { bodies: answers, created } = await summarize(result);
    expect(created.length).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(409);
      expect(Object.keys(answer.body)).toEqual(["error"]);
    }
    expect(added).toEqual(orderRows(1));
  });

  it("eight independent orders at once: all succeed with distinct order numbers and exactly their rows", async () => {
    const bodies = await Promise.all(
      Array.from({ length: 8 }, async () => orderBody([lineFor(await freshQuote()), lineFor(await freshQuote())])),
    );
    const { result, added } = await raceCounting(() => Promise.all(bodies.map((body) => placeOrder(body))));
    const { bodies: answers, created, orderNumbers } = await summarize(result);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(orderNumbers.size).toBe(8);
    expect(new Set(created.map((c) => c.body.data.eventId)).size).toBe(8);
    expect(added).toEqual(orderRows(8, 16));
  });

  it("parallel catalog details of one product: every call its own quotes, all distinct, nothing stored", async () => {
    const token = await tokenFor(TENANT_A, ["catalog:read"]);
    const detail = { productId: "MP-0000500", requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId };
    const { result, added } = await raceCounting(() =>
      Promise.all(Array.from({ length: 6 }, () => call(token, "/catalog/detail", { method: "POST", json: detail }))),
    );
    expect(result.map((r) => r.status)).toEqual(Array(6).fill(200));
    const ids = (
      await Promise.all(result.map(async (r) => (await json(r)).data.options.map((o: { priceOptionId: string }) => o.priceOptionId)))
    ).flat();
    expect(new Set(ids).size).toBe(ids.length);
    expect(added).toEqual(orderRows(0));
  });

  it("parallel token requests of one client: all succeed with distinct jti, each token works, no client row added", async () => {
    const creds = await newClient(TENANT_A, ["users:read"]);
    const { result, added } = await raceCounting(() => Promise.all(Array.from({ length: 8 }, () => requestToken(creds))));
    expect(result.map((r) => r.status)).toEqual(Array(8).fill(200));
    const tokens: string[] = await Promise.all(result.map(async (r) => (await json(r)).access_token));
    const jtis = tokens.map((t) => JSON.parse(atob(t.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti);
    expect(new Set(jtis).size).toBe(8);
    expect(added).toEqual(orderRows(0));
    const uses = await Promise.all(tokens.map((t) => call(t, "/users/lookup?userId=1")));
    expect(uses.map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it("24 webhook endpoint registrations of one tenant at once: exactly 16 (the limit) made, the others 409 endpoint-limit", async () => {
    const token = await tokenFor(TENANT_C);
    const register = () =>
      call(token, "/webhook-endpoints", {
        method: "POST",
        json: { url: `${RECEIVER}/ok/${crypto.randomUUID()}`, eventTypes: ["order.shipped"] },
      });
    const { result, added } = await raceCounting(() => Promise.all(Array.from({ length: 24 }, register)));
    expect(result.filter((r) => r.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_TENANT);
    for (const refused of result.filter((r) => r.status !== 201)) {
      expect((await expectProblem(refused, 409)).type).toMatch(/\/endpoint-limit$/);
    }
    expect(added).toEqual({ ...orderRows(0), webhook_endpoints: MAX_ENDPOINTS_PER_TENANT });
  });

  it("the endpoint limit holds when every registration reaches the tenant's store before any of them writes", async () => {
    const racing = database(statementsReleasedTogether(tenantStoreDatabase(env, TENANT_B), 24));
    const input = { url: `${RECEIVER}/ok/held`, eventTypes: ["*"], apiVersion: LATEST_VERSION };
    const outcomes = await Promise.allSettled(Array.from({ length: 24 }, () => createEndpoint(racing, "key", TENANT_B, input)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(MAX_ENDPOINTS_PER_TENANT);
    for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toMatchObject({ status: 409, slug: "endpoint-limit" });
    expect(await storeRows(TENANT_B, "SELECT count(*) AS n FROM webhook_endpoints WHERE tenant_id = ?1", TENANT_B)).toEqual([
      { n: MAX_ENDPOINTS_PER_TENANT },
    ]);
  });
});
