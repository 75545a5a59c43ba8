import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_RETENTION_DAYS } from "../../src/api/events/types";
import worker from "../../src/api/index";
import { storeOfId } from "../../src/shared/tenants/id-ranges";
import { call, expectProblem, json, TENANT_A, testModeTokenFor, tokenFor } from "../helpers/api";
import { freshOrder, issueQuotes, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";
import { eventually } from "../helpers/platform";
import { testOrder } from "../helpers/sandbox";
import { storeRows } from "../helpers/stores";
import { receivedAt, receiverPath, registerEndpoint } from "../helpers/webhooks";

/**
 * A tenant served from its stores writes there: a cancel commits in the store with its idempotent result and its event,
 * and the store's alarm hands the event to the delivery queue, whose consumer reads and records it in the store.
 */

/** Tenant A's store. */
const inStore = (sql: string, ...params: (string | number)[]) => storeRows(TENANT_A, sql, ...params);

describe("a tenant served from its stores: orders, their changes, events and webhooks", () => {
  const path = receiverPath("ok");
  let orderNumber: string;
  beforeAll(async () => {
    await registerEndpoint(`https://receiver.example.com${path}`, ["order.cancelled"]);
    ({ orderNumber } = await freshOrder(2));
  });

  it("a cancel commits in the store and its result replays from there", async () => {
    const key = crypto.randomUUID();
    const token = await tokenFor(TENANT_A);
    const send = () =>
      call(token, `/orders/${orderNumber}/cancel`, {
        method: "POST",
        json: { reason: "in the store" },
        headers: { "Idempotency-Key": key },
      });
    const first = await send();
    expect(first.status, await first.clone().text()).toBe(200);
    const { data } = await json(first);
    expect(data).toMatchObject({ orderNumber, status: "Cancelled" });
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get("X-Idempotency-Cached")).toBe("true");
    expect((await json(again)).data).toEqual(data);

    expect(await inStore("SELECT status FROM orders WHERE order_number = ?", orderNumber)).toEqual([{ status: "Cancelled" }]);
    expect(await inStore("SELECT count(*) AS n FROM idempotency_results WHERE idempotency_key = ?", key.toLowerCase())).toEqual([{ n: 1 }]);
    const read = await json(await call(token, `/orders/${orderNumber}`));
    expect(read.data.status).toBe("Cancelled");
  });

  it("the store's alarm dispatches the event: the endpoint receives it, and the delivery is recorded in the store", async () => {
    const [delivery] = await eventually(
      () => receivedAt(path),
      (received) => received.length > 0,
      10_000,
    );
    expect(delivery!.headers["medparts-event-type"]).toBe("order.cancelled");
    expect(JSON.parse(delivery!.body).orderNumber).toBe(orderNumber);
    const eventId = delivery!.headers["medparts-event-id"]!;
    const recorded = await eventually(
      () => inStore("SELECT outcome FROM webhook_deliveries WHERE event_id = ?", eventId),
      (rows) => rows.length > 0,
      10_000,
    );
    expect(recorded).toEqual([{ outcome: "succeeded" }]);
    expect(await inStore("SELECT count(*) AS n FROM webhook_deliveries_owed WHERE event_id = ?", eventId)).toEqual([{ n: 0 }]);
    expect(await inStore("SELECT dispatched_at IS NOT NULL AS dispatched FROM outbox_events WHERE id = ?", eventId)).toEqual([
      { dispatched: 1 },
    ]);
    // Once, although the API Worker did not dispatch it and the alarm may run again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await receivedAt(path)).toHaveLength(1);
  });

  it("an order placed by the tenant commits in its store, with ids of the store's range, its event dispatched", async () => {
    const { orderNumber: placed, lineIds } = await freshOrder(2);
    const [order] = await inStore("SELECT id, tenant_id FROM orders WHERE order_number = ?", placed);
    expect(order).toMatchObject({ tenant_id: TENANT_A });
    expect(storeOfId(order!.id as number)).toBe(TENANT_A);
    expect(lineIds.map(storeOfId)).toEqual([TENANT_A, TENANT_A]);
    const [event] = await eventually(
      () => inStore("SELECT dispatched_at FROM outbox_events WHERE aggregate_id = ? AND type = 'order.created'", placed),
      (rows) => rows[0]?.dispatched_at != null,
      10_000,
    );
    expect(event!.dispatched_at).toEqual(expect.any(String));
  });

  it("a retried order replays its stored result; a quote ordered twice is a 409 naming the order", async () => {
    const quote = (await issueQuotes("MP-0000007")).find(withoutFields)!;
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(quote)]);
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    const created = (await json(first)).data;
    const again = await placeOrder(body, { key });
    expect(again.status).toBe(201);
    expect(again.headers.get("X-Idempotency-Cached")).toBe("true");
    expect((await json(again)).data).toEqual(created);
    const problem = await expectProblem(await placeOrder(body), 409);
    expect(JSON.stringify(problem)).toContain(created.orderNumber);
  });

  it("the idempotency lock of a key is in the store: one order under concurrent retries, a changed body refused, no key object", async () => {
    const quote = (await issueQuotes("MP-0000009")).find(withoutFields)!;
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(quote)]);
    const answers = await Promise.all(Array.from({ length: 4 }, () => placeOrder(body, { key })));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const numbers = new Set(
      await Promise.all(answers.filter((res) => res.status === 201).map(async (res) => (await json(res)).data.orderNumber)),
    );
    expect(numbers.size).toBe(1);
    const lower = key.toLowerCase();
    expect(await inStore("SELECT count(*) AS n FROM orders WHERE order_number = ?", [...numbers][0]!)).toEqual([{ n: 1 }]);
    expect(await inStore("SELECT count(*) AS n FROM idempotency_attempts WHERE idempotency_key = ?", lower)).toEqual([{ n: 1 }]);
    // Another body under the key: 409, nothing written.
    const other = (await issueQuotes("MP-0000011")).find(withoutFields)!;
    const mismatch = await placeOrder(orderBody([lineFor(other)]), { key });
    expect(mismatch.status).toBe(409);
    expect(
      await inStore("SELECT count(*) AS n FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.quote_id = ?", other.priceOptionId),
    ).toEqual([{ n: 0 }]);
  });

  it("a marker left by an attempt that died after its commit does not hold the key: the committed result answers", async () => {
    const quote = (await issueQuotes("MP-0000013")).find(withoutFields)!;
    const key = crypto.randomUUID();
    const body = orderBody([lineFor(quote)]);
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    const { orderNumber } = (await json(first)).data;
    // As if the Worker died between the store's commit and recording the answer: the processing marker stays.
    await inStore(
      "UPDATE idempotency_attempts SET attempt_id = 'dead', response = NULL, expires_at = ? WHERE idempotency_key = ?",
      Date.now() + 60_000,
      key.toLowerCase(),
    );
    const retry = await placeOrder(body, { key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("X-Idempotency-Cached")).toBe("true");
    expect((await json(retry)).data.orderNumber).toBe(orderNumber);
  });

  it("the housekeeping cron purges the store: events past retention, expired results", async () => {
    const old = new Date(Date.now() - (EVENT_RETENTION_DAYS + 2) * 86_400_000).toISOString();
    const recent = new Date().toISOString();
    const insertEvent = (id: string, at: string) =>
      inStore(
        "INSERT INTO outbox_events (id, type, tenant_id, aggregate_id, payload, created_at, sequence, dispatched_at) VALUES (?, 'order.created', ?, 'ORD-PURGE', '{}', ?, 1, ?)",
        id,
        TENANT_A,
        at,
        at,
      );
    await insertEvent("evt_purge_old", old);
    await insertEvent("evt_purge_recent", recent);
    await inStore(
      "INSERT INTO idempotency_results (tenant_id, idempotency_key, fingerprint, response, created_at, expires_at) VALUES (?, 'purge-expired', 'f', '{}', ?, ?)",
      TENANT_A,
      old,
      old,
    );
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await inStore("SELECT id FROM outbox_events WHERE id LIKE 'evt_purge_%' ORDER BY id")).toEqual([{ id: "evt_purge_recent" }]);
    expect(await inStore("SELECT count(*) AS n FROM idempotency_results WHERE idempotency_key = 'purge-expired'")).toEqual([{ n: 0 }]);
  });

  it("webhook endpoints are created, tested and deleted in the store", async () => {
    const token = await tokenFor(TENANT_A);
    const created = await call(token, "/webhook-endpoints", {
      method: "POST",
      json: { url: `https://receiver.example.com${receiverPath("ok")}`, eventTypes: ["*"] },
    });
    expect(created.status).toBe(201);
    const { id } = (await json(created)).data;
    expect(await inStore("SELECT count(*) AS n FROM webhook_endpoints WHERE id = ?", id)).toEqual([{ n: 1 }]);
    const tested = await call(token, `/webhook-endpoints/${id}/test`, { method: "POST", json: {} });
    expect((await json(tested)).data.delivered).toBe(true);
    expect(await inStore("SELECT outcome FROM webhook_deliveries WHERE endpoint_id = ?", id)).toEqual([{ outcome: "succeeded" }]);
    expect((await call(token, `/webhook-endpoints/${id}`, { method: "DELETE" })).status).toBe(204);
    expect(await inStore("SELECT count(*) AS n FROM webhook_endpoints WHERE id = ?", id)).toEqual([{ n: 0 }]);
  });

  it("the sandbox's simulated vendor moves the test orders of the twin's store, on its schedule and on demand", async () => {
    const testToken = await testModeTokenFor(TENANT_A);
    const scheduled = await testOrder(1);
    const status = async (number: string) =>
      (await storeRows(-TENANT_A, "SELECT status FROM orders WHERE order_number = ?", number))[0]?.status;
    expect(
      await eventually(
        () => status(scheduled.orderNumber),
        (value) => value === "Delivered",
        10_000,
      ),
    ).toBe("Delivered");
    const byHand = await testOrder(1);
    const res = await call(testToken, `/test-helpers/orders/${byHand.orderNumber}/simulate`, {
      method: "POST",
      json: { scenario: "backorder" },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await status(byHand.orderNumber)).toBe("Backordered");
  });
});
