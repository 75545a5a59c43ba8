import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  runInDurableObject,
} from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../src/api/index";
import {
  backoffSeconds,
  DELIVERY_TIMEOUT_MS,
  type DeliveryMessage,
  DISABLE_AFTER_FAILING_MS,
  MAX_ATTEMPTS,
} from "../../src/api/webhooks/delivery";
import { resendLostDeliveries } from "../../src/api/webhooks/dispatch";
import { EVENTS_DEAD_LETTER_QUEUE, EVENTS_QUEUE, WEBHOOK_SWEEP_CRON } from "../../src/api/webhooks/queues";
import { SIGNATURE_HEADER, verifySignature } from "../../src/api/webhooks/signing";
import { database } from "../../src/db/client";
import { envWith } from "../../src/env";
import { webhookUrlProblem } from "../../src/platform/outbound-urls";
import type { StoreStatementData } from "../../src/shared/tenants/statements";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { tenantStore } from "../../src/shared/tenants/stub";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { namespaceAround, withMethods } from "../helpers/faults";
import { eventsOf, freshOrder, KJOHNSON, writeLineEvent } from "../helpers/orders";
import { eventually, testVars } from "../helpers/platform";
import { runStoreAlarm, storeRows, storeRowsUnarmed } from "../helpers/stores";
import { RECEIVER, receivedAt, receiverPath, registerEndpoint, releaseHanging } from "../helpers/webhooks";

/**
 * Tenants A and B live in their stores (docs/tenant-stores.md): their events, endpoints and deliveries are there, each
 * store's alarm dispatches its events and sends again what is overdue, and each delivery message names the store.
 */

// Each test's endpoints stop receiving when it ends: the real queue would otherwise keep delivering (and retrying)
// later tests' events to them after the file is done.
afterEach(async () => {
  // Deleted rather than disabled: disabled ones still count against the tenant's 16.
  for (const tenantId of [TENANT_A, TENANT_B]) await storeRows(tenantId, "DELETE FROM webhook_endpoints");
});

/** The delivery message of an event of tenant `tenantId` (default A) to one of its endpoints: it names their store. */
const deliveryOf = (eventId: string, endpointId: string, tenantId = TENANT_A): DeliveryMessage => ({
  eventId,
  endpointId,
  storeTenantId: tenantId,
});

const deliveriesOf = async (endpointId: string) =>
  (await json(await contractCall(await tokenFor(TENANT_A), `/webhook-endpoints/${endpointId}/deliveries`))).data.deliveries as {
    eventId: string;
    attempt: number;
    outcome: string;
    statusCode: number | null;
  }[];

/**
 * The queue consumer, as the queue calls it, with one message of `attempts` attempts. The retry delay the consumer
 * asks for is read off the message (the test batch's result does not report it).
 */
async function consume(queue: string, message: DeliveryMessage, attempts = 1) {
  const batch = createMessageBatch(queue, [{ id: crypto.randomUUID(), timestamp: new Date(), attempts, body: message }]);
  const [sent] = batch.messages;
  let retryDelaySeconds: number | undefined;
  const retry = sent!.retry.bind(sent);
  sent!.retry = (options?: QueueRetryOptions) => {
    retryDelaySeconds = options?.delaySeconds;
    retry(options);
  };
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return { ...(await getQueueResult(batch, ctx)), retryDelaySeconds };
}

/** What tenant A's store still owes of an event: to which endpoint, attempts so far, when it counts as lost, whether it is held. */
const owed = async (eventId: string) =>
  (await storeRows(
    TENANT_A,
    "SELECT endpoint_id AS endpointId, attempts, due_at AS dueAt, held FROM webhook_deliveries_owed WHERE event_id = ?",
    eventId,
  )) as { endpointId: string; attempts: number; dueAt: string; held: number }[];

/**
 * What the store's alarm finds once the delivery owed of `eventId` is past its due time, as if that time had come: its
 * due time moved back to a second ago (without arming the alarm), then the alarm run; its messages go to the real queue.
 */
async function alarmOnceOverdue(eventId: string) {
  await storeRowsUnarmed(
    TENANT_A,
    "UPDATE webhook_deliveries_owed SET due_at = ? WHERE event_id = ?",
    new Date(Date.now() - 1000).toISOString(),
    eventId,
  );
  await runStoreAlarm(TENANT_A);
}

/** An order whose events were dispatched before any endpoint existed: events that a test then delivers by hand. */
async function quietOrder() {
  const { orderNumber, lineIds } = await freshOrder();
  const [created] = await eventsOf(orderNumber);
  await eventually(
    () => storeRows(TENANT_A, "SELECT dispatched_at AS d FROM outbox_events WHERE id = ?", created!.id),
    (rows) => rows[0]?.d != null,
  );
  return { orderNumber, lineIds, eventId: created!.id };
}

describe("webhook URLs", () => {
  it("only https to a public host in production; http://localhost only where local webhooks are allowed", () => {
    expect(webhookUrlProblem("https://erp.example-hospital.org/hooks", false)).toBeNull();
    for (const url of [
      "http://erp.example.org/hooks",
      "https://localhost/hooks",
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://192.168.0.10/x",
      "https://172.16.5.5/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://intranet/x",
      "https://printer.local/x",
      "https://user:pw@erp.example.org/x",
      "https://erp.example.org:8443/x",
      "ftp://erp.example.org/x",
      "not a url",
    ]) {
      expect(webhookUrlProblem(url, false), url).not.toBeNull();
    }
    expect(webhookUrlProblem("http://localhost:9000/hooks", true)).toBeNull();
    expect(webhookUrlProblem("http://10.0.0.1/hooks", true)).not.toBeNull();
  });

  it("refuses every special-purpose address in any notation the URL parser reads, special-use names and names with a trailing dot", () => {
    for (const url of [
      // A trailing dot is the same name, fully qualified (and %2e is a dot).
      "https://localhost./",
      "https://foo.localhost./",
      "https://metadata.google.internal./",
      "https://intranet./",
      "https://localhost%2e/",
      "https://router.home.arpa/",
      "https://1.0.0.127.in-addr.arpa/",
      "https://hooks.test/",
      "https://erp.example/",
      "https://erp.invalid/",
      "https://abcdefghijklmnop.onion/",
      "https://erp.alt/",
      "https://erp..example-hospital.org/",
      // IPv4 the way WHATWG URL normalizes it: 0x7f.1, 2130706433, 0177.0.0.1 and 127.1 are all 127.0.0.1.
      "https://0x7f.1/",
      "https://2130706433/",
      "https://0177.0.0.1/",
      "https://127.1/",
      "https://0/",
      "https://192.0.2.10/",
      "https://198.51.100.10/",
      "https://203.0.113.10/",
      "https://100.64.0.1/",
      "https://198.18.0.1/",
      "https://192.0.0.170/",
      "https://239.1.2.3/",
      "https://255.255.255.255/",
      // IPv6 parsed, whatever its spelling: NAT64, IPv4-compatible, IPv4-mapped (dotted or hex tail), 6to4, Teredo.
      "https://[64:ff9b::7f00:1]/",
      "https://[64:ff9b::127.0.0.1]/",
      "https://[::127.0.0.1]/",
      "https://[::ffff:7f00:1]/",
      "https://[0:0:0:0:0:FFFF:127.0.0.1]/",
      "https://[::ffff:8.8.8.8]/",
      "https://[2002:7f00:1::]/",
      "https://[2001::1]/",
      "https://[fec0::1]/",
      "https://[febf::1]/",
      "https://[2001:db8::1]/",
      "https://[2001:0DB8:0:0:0:0:0:1]/",
      "https://[3fff::1]/",
      "https://[::]/",
      "https://[ff02::1]/",
      "https://[4000::1]/",
    ]) {
      expect(webhookUrlProblem(url, false), url).not.toBeNull();
    }
    expect(webhookUrlProblem("https://0x7f.1/", false)).toBe("Must not point to a special-purpose address (loopback, 127.0.0.0/8).");
    expect(webhookUrlProblem("https://[::ffff:7f00:1]/", false)).toBe(
      "Must not point to a special-purpose address (IPv4-mapped, ::ffff:0:0/96).",
    );
    // Just outside the blocks, public names with a trailing dot, and the tests' receiver are public.
    for (const url of [
      "https://8.8.8.8/hooks",
      "https://172.15.255.255/hooks",
      "https://172.32.0.1/hooks",
      "https://100.128.0.1/hooks",
      "https://[2606:4700:4700::1111]/hooks",
      "https://[2001:200::1]/hooks",
      "https://erp.example-hospital.org./hooks",
      `${RECEIVER}/ok/x`,
    ]) {
      expect(webhookUrlProblem(url, false), url).toBeNull();
    }
  });

  it("refuses credentials in the URL in every mode; none are stored or listed back", async () => {
    for (const [url, allowLocal] of [
      ["http://user:pass@localhost/hooks", true],
      ["http://user@127.0.0.1:9000/hooks", true],
      ["https://:secret@erp.example-hospital.org/hooks", false],
    ] as const) {
      expect(webhookUrlProblem(url, allowLocal), url).toBe("Must not contain credentials.");
    }
    const token = await tokenFor(TENANT_A);
    const refused = await expectProblem(
      await call(token, "/webhook-endpoints", {
        method: "POST",
        headers: testVars({ ALLOW_LOCAL_WEBHOOKS: "true" }),
        json: { url: "http://user:pass@localhost:9000/hooks", eventTypes: ["*"] },
      }),
      400,
    );
    expect(refused.errors).toEqual({ url: ["Must not contain credentials."] });
    expect(await (await contractCall(token, "/webhook-endpoints")).text()).not.toContain("user:pass");
  });

  it("the API refuses a bad URL with a 400 naming url, and unknown event types", async () => {
    const token = await tokenFor(TENANT_A);
    const bad = await expectProblem(
      await call(token, "/webhook-endpoints", { method: "POST", json: { url: "http://169.254.169.254/", eventTypes: ["*"] } }),
      400,
    );
    expect(Object.keys(bad.errors)).toEqual(["url"]);
    await expectProblem(
      await call(token, "/webhook-endpoints", { method: "POST", json: { url: `${RECEIVER}/ok/x`, eventTypes: ["order.lost"] } }),
      400,
    );
  });

  it("refuses an unknown field with a 400 naming it and the field meant; nothing is registered", async () => {
    const token = await tokenFor(TENANT_A);
    const endpoints = async () => (await storeRows(TENANT_A, "SELECT count(*) AS n FROM webhook_endpoints"))[0]!.n;
    const before = await endpoints();
    for (const [body, errors] of [
      [
        { url: `${RECEIVER}/ok/typo`, eventTypes: ["*"], eventType: ["order.shipped"] },
        { eventType: ["Unknown field; did you mean eventTypes?"] },
      ],
      [
        { url: `${RECEIVER}/ok/typo`, eventTypes: ["*"], secret: "whsec_mine" },
        { secret: ["Unknown field; expected one of: url, eventTypes, apiVersion."] },
      ],
    ] as const) {
      const problem = await expectProblem(await contractCall(token, "/webhook-endpoints", { method: "POST", json: body }), 400);
      expect(problem.errors).toEqual(errors);
    }
    expect(await endpoints()).toBe(before);
  });
});

describe("webhook endpoints", () => {
  it("the signing secret is in the creation answer only; list, get and delete (204, no body) are the tenant's own", async () => {
    const created = await registerEndpoint(`${RECEIVER}${receiverPath("ok")}`, ["order.shipped"]);
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const token = await tokenFor(TENANT_A);
    const listed = (await json(await contractCall(token, "/webhook-endpoints"))).data.endpoints;
    expect(listed.find((e: { id: string }) => e.id === created.id)).toMatchObject({
      url: created.url,
      eventTypes: ["order.shipped"],
      enabled: true,
    });
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const [row] = await storeRows(TENANT_A, "SELECT * FROM webhook_endpoints WHERE id = ?", created.id);
    expect(row).toMatchObject({ id: created.id, url: created.url });
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    await expectProblem(await call(await tokenFor(TENANT_B), `/webhook-endpoints/${created.id}`), 404);
    await expectProblem(await call(await tokenFor(TENANT_B), `/webhook-endpoints/${created.id}`, { method: "DELETE" }), 404);
    const deleted = await contractCall(token, `/webhook-endpoints/${created.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    await expectProblem(await call(token, `/webhook-endpoints/${created.id}`), 404);
    await expectProblem(await call(token, `/webhook-endpoints/${created.id}`, { method: "DELETE" }), 404);
  });

  it("test sends a signed test event now and reports the endpoint's answer", async () => {
    const token = await tokenFor(TENANT_A);
    const okPath = receiverPath("ok");
    const ok = await registerEndpoint(`${RECEIVER}${okPath}`);
    const answer = (await json(await contractCall(token, `/webhook-endpoints/${ok.id}/test`, { method: "POST" }))).data;
    expect(answer).toMatchObject({ delivered: true, statusCode: 200, error: null });
    const [received] = await receivedAt(okPath);
    expect(JSON.parse(received!.body)).toMatchObject({ id: answer.eventId, type: "webhook_endpoint.test" });
    expect(await verifySignature(ok.secret, received!.headers[SIGNATURE_HEADER.toLowerCase()]!, received!.body)).toBe(true);
    const failing = await registerEndpoint(`${RECEIVER}${receiverPath("fail")}`);
    const refused = (await json(await contractCall(token, `/webhook-endpoints/${failing.id}/test`, { method: "POST" }))).data;
    expect(refused).toMatchObject({ delivered: false, statusCode: 500, error: "HTTP 500" });
    expect((await deliveriesOf(failing.id)).map((d) => d.outcome)).toEqual(["failed"]);
  });

  it("test with {} sends the test event as no body does; the body is checked only once the endpoint is found", async () => {
    const token = await tokenFor(TENANT_A);
    const path = receiverPath("ok");
    const endpoint = await registerEndpoint(`${RECEIVER}${path}`);
    const answer = (await json(await contractCall(token, `/webhook-endpoints/${endpoint.id}/test`, { method: "POST", json: {} }))).data;
    expect(answer).toMatchObject({ delivered: true, statusCode: 200 });
    const [received] = await receivedAt(path);
    expect(JSON.parse(received!.body)).toMatchObject({ id: answer.eventId, type: "webhook_endpoint.test" });
    const exploded = { method: "POST", json: { type: "order.exploded" } };
    const refused = await expectProblem(await call(token, `/webhook-endpoints/${endpoint.id}/test`, exploded), 400);
    expect(Object.keys(refused.errors)).toEqual(["type"]);
    // Another tenant's endpoint is unknown whatever the body: 404, not the 400 its owner gets.
    await expectProblem(await call(await tokenFor(TENANT_B), `/webhook-endpoints/${endpoint.id}/test`, exploded), 404);
    await expectProblem(await call(await tokenFor(TENANT_B), `/webhook-endpoints/${endpoint.id}/test`, { method: "POST", json: {} }), 404);
    expect(await receivedAt(path)).toHaveLength(1);
    // A byte order mark before {} is no empty object: the body is refused, nothing is sent.
    const bom = await call(token, `/webhook-endpoints/${endpoint.id}/test`, {
      method: "POST",
      body: "\uFEFF{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(Object.keys((await expectProblem(bom, 400)).errors)).toEqual(["body"]);
    expect(await receivedAt(path)).toHaveLength(1);
  });
});

/** An endpoint gets the events written since it exists: this one as if it had existed before the test's order. */
async function subscribedBefore<T extends { id: string }>(endpoint: T): Promise<T> {
  await storeRows(TENANT_A, "UPDATE webhook_endpoints SET created_at = ? WHERE id = ?", "2000-01-01T00:00:00.000Z", endpoint.id);
  return endpoint;
}

describe("delivery through the queue", () => {
  it("an order's events reach a subscribed endpoint, signed, with the event id, through the real queue", async () => {
    const path = receiverPath("ok");
    const endpoint = await registerEndpoint(`${RECEIVER}${path}`, ["order.created"]);
    const { orderNumber } = await freshOrder();
    const [event] = await eventsOf(orderNumber);
    const [received] = await eventually(
      () => receivedAt(path),
      (r) => r.length > 0,
      15_000,
    );
    const body = JSON.parse(received!.body);
    expect(body).toMatchObject({ id: event!.id, type: "order.created", orderNumber, sequence: 1 });
    expect(received!.headers["medparts-event-id"]).toBe(event!.id);
    expect(await verifySignature(endpoint.secret, received!.headers[SIGNATURE_HEADER.toLowerCase()]!, received!.body)).toBe(true);
    expect(await verifySignature(endpoint.secret, received!.headers[SIGNATURE_HEADER.toLowerCase()]!, `${received!.body} `)).toBe(false);
    expect(await verifySignature("whsec_other", received!.headers[SIGNATURE_HEADER.toLowerCase()]!, received!.body)).toBe(false);
    const delivered = await eventually(
      () => deliveriesOf(endpoint.id),
      (d) => d.length > 0,
    );
    expect(delivered[0]).toMatchObject({ eventId: event!.id, outcome: "succeeded", statusCode: 200, attempt: 1 });
  });

  it("a failed delivery is retried with backoff, then succeeds; a duplicate carries the same event id", async () => {
    const { eventId } = await quietOrder();
    const path = receiverPath("flaky");
    const endpoint = await registerEndpoint(`${RECEIVER}${path}`);
    const first = await consume(EVENTS_QUEUE, deliveryOf(eventId, endpoint.id), 1);
    expect(first.retryMessages).toHaveLength(1);
    expect(first.retryDelaySeconds).toBe(backoffSeconds(1));
    const second = await consume(EVENTS_QUEUE, deliveryOf(eventId, endpoint.id), 2);
    expect(second.retryMessages).toEqual([]);
    expect(second.explicitAcks).toHaveLength(1);
    const again = await consume(EVENTS_QUEUE, deliveryOf(eventId, endpoint.id), 1);
    expect(again.explicitAcks).toHaveLength(1);
    const received = await receivedAt(path);
    expect(received.map((r) => r.status)).toEqual([503, 200, 200]);
    expect(new Set(received.map((r) => r.headers["medparts-event-id"]))).toEqual(new Set([eventId]));
    expect(new Set(received.map((r) => JSON.parse(r.body).id))).toEqual(new Set([eventId]));
    expect((await deliveriesOf(endpoint.id)).map((d) => [d.attempt, d.outcome])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
      [1, "failed"],
    ]);
  });

  it("backoff doubles from 30 s up to 12 hours: the 16 attempts span about 3 days", () => {
    expect([1, 2, 3].map(backoffSeconds)).toEqual([30, 60, 120]);
    expect(backoffSeconds(MAX_ATTEMPTS)).toBe(12 * 3600);
    const total = Array.from({ length: MAX_ATTEMPTS }, (_, i) => backoffSeconds(i + 1)).reduce((a, b) => a + b, 0);
    expect(total / 86_400).toBeGreaterThan(3);
    expect(total / 86_400).toBeLessThan(3.5);
  });

  it("exhausted retries go to the dead-letter queue; an endpoint failing for 3 days is then disabled, with a notice event", async () => {
    const { eventId } = await quietOrder();
    const endpoint = await registerEndpoint(`${RECEIVER}${receiverPath("fail")}`);
    const last = await consume(EVENTS_QUEUE, deliveryOf(eventId, endpoint.id), MAX_ATTEMPTS);
    // Retried on its last attempt: the queue (max_retries = MAX_ATTEMPTS) moves it to the dead-letter queue.
    expect(last.retryMessages).toHaveLength(1);
    const since = new Date(Date.now() - DISABLE_AFTER_FAILING_MS - 60_000).toISOString();
    await storeRows(TENANT_A, "UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?", since, endpoint.id);
    const dead = await consume(EVENTS_DEAD_LETTER_QUEUE, deliveryOf(eventId, endpoint.id), MAX_ATTEMPTS);
    expect(dead.explicitAcks).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.outcome)).toEqual(["dead-lettered", "failed"]);
    const token = await tokenFor(TENANT_A);
    const after = (await json(await contractCall(token, `/webhook-endpoints/${endpoint.id}`))).data;
    expect(after).toMatchObject({ enabled: false, disabledReason: expect.stringContaining("3 days") });
    const feed = (await json(await contractCall(token, "/events?types=webhook_endpoint.disabled&limit=100"))).data.events;
    expect(feed.some((e: { data: { endpointId: string } }) => e.data.endpointId === endpoint.id)).toBe(true);
    // A disabled endpoint gets nothing more.
    const skipped = await consume(EVENTS_QUEUE, deliveryOf(eventId, endpoint.id), 1);
    expect(skipped.explicitAcks).toHaveLength(1);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2);
  });

  it("a crash between the write and the dispatch loses nothing: the store's alarm, armed with the write, dispatches the event", async () => {
    const { orderNumber, eventId } = await quietOrder();
    const path = receiverPath("ok");
    await subscribedBefore(await registerEndpoint(`${RECEIVER}${path}`));
    // A write that leaves the event undispatched, and no Worker that hands it to the queue (as if the one that wrote
    // died right after the commit): the store armed its alarm in the write's own output, and the alarm dispatches it.
    await storeRows(TENANT_A, "UPDATE outbox_events SET dispatched_at = NULL WHERE id = ?", eventId);
    const received = await eventually(
      () => receivedAt(path),
      (r) => r.length > 0,
      15_000,
    );
    expect(JSON.parse(received[0]!.body)).toMatchObject({ id: eventId, orderNumber });
  });

  it("the store's alarm hands an order's events to the queue in sequence order, once each, each message naming the store", async () => {
    const { orderNumber, lineIds } = await quietOrder();
    await subscribedBefore(await registerEndpoint(`${RECEIVER}${receiverPath("ok")}`));
    // The preconditions are written without arming the alarm: the alarm below is the one that finds them.
    await storeRowsUnarmed(TENANT_A, "UPDATE order_lines SET status_name = 'Acknowledged' WHERE id = ?", lineIds[0]!);
    // Three undispatched events of the order, written out of order.
    await writeLineEvent(orderNumber, lineIds[0]!, "order.delivered", 3);
    await writeLineEvent(orderNumber, lineIds[0]!, "order.shipped", 2);
    const events = await eventsOf(orderNumber);
    await storeRowsUnarmed(TENANT_A, "UPDATE outbox_events SET dispatched_at = NULL WHERE aggregate_id = ?", orderNumber);
    const sent: DeliveryMessage[] = [];
    const recording = withMethods(env.EVENTS, {
      sendBatch: () => async (messages: Iterable<MessageSendRequest<DeliveryMessage>>) => {
        for (const m of messages) sent.push(m.body);
      },
    });
    await runStoreAlarm(TENANT_A, recording);
    const ours = sent.filter((m) => events.some((e) => e.id === m.eventId));
    expect(ours.map((m) => events.find((e) => e.id === m.eventId)!.sequence)).toEqual([1, 2, 3]);
    expect(new Set(ours.map((m) => m.storeTenantId))).toEqual(new Set([TENANT_A]));
    expect(
      await storeRows(TENANT_A, "SELECT count(*) AS n FROM outbox_events WHERE aggregate_id = ? AND dispatched_at IS NULL", orderNumber),
    ).toEqual([{ n: 0 }]);
    // Dispatched events are not dispatched again.
    await runStoreAlarm(TENANT_A, recording);
    expect(sent.filter((m) => events.some((e) => e.id === m.eventId))).toHaveLength(3);
  });
});

describe("at least once, whatever is lost between the outbox and the receiver", () => {
  /** A queue that takes messages and loses them (a restart of a local queue, or a message lost in production). */
  const losingQueue = withMethods(env.EVENTS, { sendBatch: () => async () => {}, send: () => async () => {} });

  /** An order's first event, dispatched now by its store's alarm to one new endpoint at `path` through a queue that loses the message. */
  async function lostOnTheWay(path: string) {
    const { eventId } = await quietOrder();
    const endpoint = await subscribedBefore(await registerEndpoint(`${RECEIVER}${path}`));
    await storeRowsUnarmed(TENANT_A, "UPDATE outbox_events SET dispatched_at = NULL WHERE id = ?", eventId);
    await runStoreAlarm(TENANT_A, losingQueue);
    expect(await storeRows(TENANT_A, "SELECT dispatched_at IS NOT NULL AS dispatched FROM outbox_events WHERE id = ?", eventId)).toEqual([
      { dispatched: 1 },
    ]);
    return { eventId, endpoint };
  }

  it("a message the queue loses stays owed, and the store's alarm sends it again once overdue: delivered, then no longer owed", async () => {
    const path = receiverPath("ok");
    const { eventId, endpoint } = await lostOnTheWay(path);
    const [row] = await owed(eventId);
    expect(row).toMatchObject({ endpointId: endpoint.id, attempts: 0 });
    // The store's alarm sleeps until the next owed delivery is due, which is not before this one's.
    const alarm = await runInDurableObject(tenantStore(env, TENANT_A) as unknown as DurableObjectStub, (_, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(Date.parse(row!.dueAt));
    // Not yet overdue: the alarm leaves it alone (a message may still be on its way).
    await runStoreAlarm(TENANT_A);
    expect(await owed(eventId)).toEqual([row]);
    await alarmOnceOverdue(eventId);
    // (Look for ours only: the receiver's path is this test's, but a resend may carry others.)
    const ours = (r: { body: string }) => JSON.parse(r.body).id === eventId;
    const received = await eventually(
      () => receivedAt(path),
      (r) => r.some(ours),
      15_000,
    );
    expect(received.filter(ours)).toHaveLength(1);
    expect(
      await eventually(
        () => owed(eventId),
        (rows) => rows.length === 0,
      ),
    ).toEqual([]);
    expect((await deliveriesOf(endpoint.id)).filter((d) => d.eventId === eventId).map((d) => [d.attempt, d.outcome])).toEqual([
      [1, "succeeded"],
    ]);
  });

  it("a runtime whose queues died with it (QUEUES_PERSISTED false): its first sweep, the minute one, has each store send every owed delivery at once, due or not", async () => {
    const path = receiverPath("ok");
    const { eventId } = await lostOnTheWay(path);
    const [row] = await owed(eventId);
    expect(Date.parse(row!.dueAt)).toBeGreaterThan(Date.now() + 60_000);
    const restarted = { ...env, QUEUES_PERSISTED: "false" };
    const sweep = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: WEBHOOK_SWEEP_CRON }), restarted, ctx);
      await getQueueResult(createMessageBatch(EVENTS_QUEUE, []), ctx);
    };
    await sweep();
    const ours = (r: { body: string }) => JSON.parse(r.body).id === eventId;
    expect(
      (
        await eventually(
          () => receivedAt(path),
          (r) => r.some(ours),
          15_000,
        )
      ).filter(ours),
    ).toHaveLength(1);
    // Its arrival within eventually's 15 s is the sweep's doing: the delivery was due more than 60 s later (above).
    // Only the first sweep after the start does so: later ones send again only what is overdue.
    const laterPath = receiverPath("ok");
    const { eventId: later } = await lostOnTheWay(laterPath);
    await sweep();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await receivedAt(laterPath)).filter((r) => JSON.parse(r.body).id === later)).toEqual([]);
    expect((await owed(later)).length).toBeGreaterThan(0);
  });

  it("resending after a start goes through every owed row of a store once, in bounded batches, whatever their due times", async () => {
    const { eventId } = await lostOnTheWay(receiverPath("ok"));
    const sent: DeliveryMessage[] = [];
    const store = tenantStoreDatabase(env, TENANT_A);
    // The store's resend as its alarm runs it (src/api/stores/tenant-store.ts), in batches of 1.
    const recording = envWith(env, {
      DB: store,
      EVENTS: withMethods(env.EVENTS, {
        sendBatch: () => async (messages) => void sent.push(...[...messages].map((m) => m.body as DeliveryMessage)),
      }),
    });
    const now = new Date();
    const db = database(store);
    const counts: number[] = [];
    for (let sentNow = 1; sentNow > 0; counts.push(sentNow)) sentNow = await resendLostDeliveries(recording, true, TENANT_A)(db, now, 1);
    expect(sent.filter((m) => m.eventId === eventId)).toEqual([expect.objectContaining({ eventId, storeTenantId: TENANT_A })]);
    expect(counts.every((n) => n <= 1)).toBe(true);
    expect(counts.at(-1)).toBe(0);
  });

  it("a consumer killed mid-batch (after its POST, before recording it): sent again by the store's alarm, the same event id twice", async () => {
    const path = receiverPath("ok");
    const { eventId, endpoint } = await lostOnTheWay(path);
    // Its record (one batch of writes to the store) never answers: the runtime died between the POST and the record.
    const dying = {
      ...env,
      TENANT_STORE: namespaceAround(env.TENANT_STORE, {
        execute: (execute) => (statements: StoreStatementData[]) =>
          statements.length > 1 && statements.some((s) => /^\s*(insert|update|delete)\b/i.test(s.sql))
            ? Promise.reject(new Error("Network connection lost."))
            : execute(statements),
      }),
    };
    const batch = createMessageBatch<DeliveryMessage>(EVENTS_QUEUE, [
      { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: deliveryOf(eventId, endpoint.id) },
    ]);
    const ctx = createExecutionContext();
    await expect(worker.queue(batch, dying, ctx)).rejects.toThrow("Network connection lost.");
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([]);
    expect(await receivedAt(path)).toHaveLength(1);
    const [row] = await owed(eventId);
    expect(row).toMatchObject({ attempts: 0 });
    await alarmOnceOverdue(eventId);
    expect(
      await eventually(
        () => owed(eventId),
        (rows) => rows.length === 0,
        15_000,
      ),
    ).toEqual([]);
    expect((await receivedAt(path)).map((r) => JSON.parse(r.body).id).filter((id) => id === eventId)).toEqual([eventId, eventId]);
  });

  it("a delivery sent again continues its attempts and backoff; its last failure is dead-lettered at once", async () => {
    const { eventId } = await quietOrder();
    const endpoint = await registerEndpoint(`${RECEIVER}${receiverPath("fail")}`);
    const retried = await consume(EVENTS_QUEUE, { ...deliveryOf(eventId, endpoint.id), attempts: 4 }, 1);
    expect(retried.retryDelaySeconds).toBe(backoffSeconds(5));
    const last = await consume(EVENTS_QUEUE, { ...deliveryOf(eventId, endpoint.id), attempts: MAX_ATTEMPTS - 1 }, 1);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id)).map((d) => [d.attempt, d.outcome])).toEqual([
      [MAX_ATTEMPTS, "dead-lettered"],
      [MAX_ATTEMPTS, "failed"],
      [5, "failed"],
    ]);
  });
});

describe("one endpoint's trouble is its own", () => {
  it("an endpoint that hangs delays only its own deliveries: another tenant's in the same batch arrives meanwhile", async () => {
    const hangPath = receiverPath("hang");
    const okPath = receiverPath("ok");
    const [hung] = await eventsOf((await freshOrder(1, { who: KJOHNSON })).orderNumber);
    const { eventId } = await quietOrder();
    const slow = await registerEndpoint(`${RECEIVER}${hangPath}`, ["*"], TENANT_B);
    const fast = await registerEndpoint(`${RECEIVER}${okPath}`);
    const batch = createMessageBatch<DeliveryMessage>(EVENTS_QUEUE, [
      { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: deliveryOf(hung!.id, slow.id, TENANT_B) },
      { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: deliveryOf(eventId, fast.id) },
    ]);
    const ctx = createExecutionContext();
    const consuming = worker.queue(batch, env, ctx);
    // Looked for only while the hanging delivery cannot have timed out yet: one after the other, it would not be here.
    const arrived = await eventually(
      () => receivedAt(okPath),
      (r) => r.length > 0,
      DELIVERY_TIMEOUT_MS / 2,
    );
    expect(arrived).toHaveLength(1);
    // The hanging request is still open: it arrived, and has not been answered.
    expect(await receivedAt(hangPath)).toHaveLength(1);
    expect((await deliveriesOf(fast.id)).map((d) => d.outcome)).toEqual(["succeeded"]);
    await releaseHanging(hangPath);
    await consuming;
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(2);
  });

  it("once an endpoint fails in a batch, its other messages there wait for a later batch without an attempt", async () => {
    const path = receiverPath("fail");
    const first = await quietOrder();
    const second = await quietOrder();
    // Registered once both orders' events went out (so the queue brings it none of them), as if it existed before them.
    const endpoint = await subscribedBefore(await registerEndpoint(`${RECEIVER}${path}`));
    const batch = createMessageBatch<DeliveryMessage>(
      EVENTS_QUEUE,
      [first, second].map(({ eventId }) => ({
        id: crypto.randomUUID(),
        timestamp: new Date(),
        attempts: 1,
        body: deliveryOf(eventId, endpoint.id),
      })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual([batch.messages[0]!.id]);
    expect(result.explicitAcks).toEqual([batch.messages[1]!.id]);
    expect((await receivedAt(path)).map((r) => JSON.parse(r.body).id)).toEqual([first.eventId]);
  });
});

describe("in order per order", () => {
  /** An order's created event (delivered by hand) and its acknowledged event, for one new endpoint at `path`. */
  async function twoEvents(path: string) {
    const { orderNumber, lineIds, eventId: createdId } = await quietOrder();
    // The endpoint exists before the order's events it is to get: register it, then move the line (event 2).
    const endpoint = await subscribedBefore(await registerEndpoint(`${RECEIVER}${path}`));
    await storeRows(TENANT_A, "UPDATE order_lines SET status_name = 'Acknowledged' WHERE id = ?", lineIds[0]!);
    const acknowledgedId = await writeLineEvent(orderNumber, lineIds[0]!, "order.acknowledged", 2, new Date().toISOString());
    return { first: deliveryOf(createdId, endpoint.id), second: deliveryOf(acknowledgedId, endpoint.id) };
  }

  const sequencesAt = async (path: string) => (await receivedAt(path)).map((r) => [JSON.parse(r.body).sequence, r.status]);

  it("an event is held while an earlier event of its order is on its way, and goes out right after that event's success", async () => {
    const path = receiverPath("flaky");
    const { first, second } = await twoEvents(path);
    // The receiver refuses the predecessor once (503) and takes the successor at once: it has seen the successor's id.
    await fetch(`${RECEIVER}${receiverPath("flaky")}`, { method: "POST", headers: { "Medparts-Event-Id": second.eventId } });
    expect((await consume(EVENTS_QUEUE, first)).retryMessages).toHaveLength(1);
    // Event 2 is held: nothing posted, no attempt spent, and no message of its own waiting in the queue.
    expect((await consume(EVENTS_QUEUE, second)).explicitAcks).toHaveLength(1);
    expect(await owed(second.eventId)).toEqual([expect.objectContaining({ endpointId: second.endpointId, attempts: 0, held: 1 })]);
    expect(await sequencesAt(path)).toEqual([[1, 503]]);
    // Event 1's retry succeeds: its batch sends event 2 on, which arrives within seconds, not after a sweep or a poll.
    expect((await consume(EVENTS_QUEUE, first, 2)).explicitAcks).toHaveLength(1);
    const arrived = await eventually(
      () => sequencesAt(path),
      (r) => r.length === 3,
      15_000,
    );
    // Within eventually's 15 s, on any machine: the store's alarm sends again only what is overdue (minutes later), and
    // a held delivery's recheck is later still.
    expect(arrived).toEqual([
      [1, 503],
      [1, 200],
      [2, 200],
    ]);
    expect(
      await eventually(
        () => owed(second.eventId),
        (rows) => rows.length === 0,
      ),
    ).toEqual([]);
  });

  it("a dead-lettered predecessor sends on what was held behind it", async () => {
    const path = receiverPath("ok");
    const { first, second } = await twoEvents(path);
    expect((await consume(EVENTS_QUEUE, second)).explicitAcks).toHaveLength(1);
    expect(await receivedAt(path)).toEqual([]);
    expect((await consume(EVENTS_DEAD_LETTER_QUEUE, first, MAX_ATTEMPTS)).explicitAcks).toHaveLength(1);
    expect(
      await eventually(
        () => sequencesAt(path),
        (r) => r.length > 0,
        15_000,
      ),
    ).toEqual([[2, 200]]);
    // Within eventually's 15 s, long before the store's alarm would send it again: the dead letter's own batch sent it on.
  });

  it("a held delivery the release never reaches is the store alarm's: sent again once overdue, it goes when its turn has come", async () => {
    const path = receiverPath("ok");
    const { first, second } = await twoEvents(path);
    expect((await consume(EVENTS_QUEUE, second)).explicitAcks).toHaveLength(1);
    const [held] = await owed(second.eventId);
    // The predecessor succeeds without this code's release (a crash between its commit and the send).
    expect(held).toMatchObject({ held: 1 });
    await storeRows(
      TENANT_A,
      "INSERT INTO webhook_deliveries (endpoint_id, event_id, attempt, outcome, status_code, error, latency_ms, created_at) VALUES (?, ?, 1, 'succeeded', 200, NULL, 1, ?)",
      first.endpointId,
      first.eventId,
      new Date().toISOString(),
    );
    await alarmOnceOverdue(second.eventId);
    const ours = (r: { body: string }) => JSON.parse(r.body).id === second.eventId;
    expect(
      (
        await eventually(
          () => receivedAt(path),
          (r) => r.some(ours),
          15_000,
        )
      ).filter(ours),
    ).toHaveLength(1);
  });
});

describe("the events feed", () => {
  it("pages the tenant's events oldest first with a cursor, filters by type, and shows each by id", async () => {
    const token = await tokenFor(TENANT_A);
    const { orderNumber } = await freshOrder();
    const all: { id: string; orderNumber: string }[] = [];
    let after: string | null = null;
    for (let page = 0; page < 50; page++) {
      const query = `/events?limit=7${after ? `&after=${after}` : ""}`;
      const body: { data: { events: { id: string; orderNumber: string }[]; hasMore: boolean; nextCursor: string | null } } = await json(
        await contractCall(token, query),
      );
      all.push(...body.data.events);
      after = body.data.nextCursor;
      if (!body.data.hasMore) break;
    }
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const [created] = await eventsOf(orderNumber);
    expect(ids.at(-1)).toBe(created!.id);
    const [{ n: tenantTotal }] = (await storeRows(TENANT_A, "SELECT count(*) AS n FROM outbox_events WHERE tenant_id = ?", TENANT_A)) as [
      { n: number },
    ];
    expect(ids).toHaveLength(tenantTotal);
    const latest = (await json(await contractCall(token, `/events?after=${created!.id}`))).data;
    expect(latest).toMatchObject({ events: [], hasMore: false, nextCursor: created!.id });
    const onlyCreated = (await json(await contractCall(token, "/events?types=order.created&limit=100"))).data.events;
    expect(onlyCreated.every((e: { type: string }) => e.type === "order.created")).toBe(true);
    expect((await json(await contractCall(token, `/events/${created!.id}`))).data).toMatchObject({
      id: created!.id,
      orderNumber,
      sequence: 1,
    });
    await expectProblem(await call(token, "/events?types=order.lost"), 400);
  });

  it("another tenant's events are unknown ids: 404 by id, 400 as a cursor, exactly like ids that never existed", async () => {
    const { orderNumber } = await freshOrder();
    const [event] = await eventsOf(orderNumber);
    const other = await tokenFor(TENANT_B);
    const theirs = await expectProblem(await call(other, `/events/${event!.id}`), 404);
    const unknown = await expectProblem(await call(other, `/events/${crypto.randomUUID()}`), 404);
    expect(theirs.detail).toBe(unknown.detail);
    const asCursor = await expectProblem(await call(other, `/events?after=${event!.id}`), 400);
    expect(Object.keys(asCursor.errors)).toEqual(["after"]);
    const feed = (await json(await call(other, "/events?limit=100"))).data.events;
    expect(feed.some((e: { orderNumber: string }) => e.orderNumber === orderNumber)).toBe(false);
  });
});
