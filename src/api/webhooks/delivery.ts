import { and, eq, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Database, database } from "../../db/client";
import { outboxEvents, webhookDeliveries, webhookDeliveriesOwed, webhookEndpoints } from "../../db/schema";
import { appConfig, type Bindings, type ConfigVars, envWith } from "../../env";
import { readAtMost } from "../../platform/body-limit";
import { deleteOldest } from "../../platform/housekeeping";
import { logEvent } from "../../platform/logging";
import { type ApiVersion, servedVersion, VERSION_HEADER } from "../../platform/versions/calendar";
import { renderEvent } from "../../platform/versions/middleware";
import { tenantStoreDatabase } from "../../shared/tenants/store-database";
import { VERSION_CHANGES } from "../../versions";
import { beforeRetention, type EventRecord, eventColumns } from "../events/feed";
import type { EventData } from "../events/schemas";
import type { EventType } from "../events/types";
import { EVENTS_DEAD_LETTER_QUEUE } from "./queues";
import { SIGNATURE_HEADER, signatureHeader, signingSecret } from "./signing";

/**
 * Delivery of one event to one endpoint (docs/api.md, "Webhooks"): a signed POST with a timeout; its outcome is
 * recorded. The queue consumer retries failures with exponential backoff for about 3 days (attempt 16), after which
 * the queue moves the message to the dead-letter queue, whose consumer records it and disables an endpoint that has
 * failed for 3 days.
 */

export const DELIVERY_TIMEOUT_MS = 10_000;
/** The queue consumer's max_retries (wrangler.toml): the last attempt is this one. */
export const MAX_ATTEMPTS = 16;
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;
const MAX_ERROR_LENGTH = 200;
/** How much of a cXML receiver's answer is read for its Status. */
const CXML_ANSWER_BYTES = 64 * 1024;

/** Seconds before attempt `attempt + 1`: 30 s doubling, at most 12 hours (about 3.2 days over 16 attempts). */
export const backoffSeconds = (attempt: number) => Math.min(30 * 2 ** Math.max(0, attempt - 1), 12 * 3600);

/** What the consumer needs of the bindings. */
export type DeliveryEnv = Pick<
  Bindings,
  "DB" | "WEBHOOK_SECRET_KEY" | "EVENTS" | "WEBHOOK_RESEND_AFTER_SECONDS" | "TENANT_STORE" | "ADMIN"
>;

/**
 * When an owed delivery whose next step is expected at `next` counts as lost, and the sweep sends it again
 * (WEBHOOK_RESEND_AFTER_SECONDS later; src/api/webhooks/dispatch.ts).
 */
export const lostAfter = (env: ConfigVars, next: Date) =>
  new Date(next.getTime() + appConfig(env).WEBHOOK_RESEND_AFTER_SECONDS * 1000).toISOString();

export interface DeliveryMessage {
  eventId: string;
  endpointId: string;
  /** Attempts made before this message (a delivery the sweep sent again after its message was lost); default 0. */
  attempts?: number;
  /** The tenant whose store holds the event and the endpoint (docs/tenant-stores.md); absent: DB holds them. */
  storeTenantId?: number;
}

export const EVENT_ID_HEADER = "Medparts-Event-Id";
export const EVENT_TYPE_HEADER = "Medparts-Event-Type";

/** What goes over the wire: the event as the feed shows it at the endpoint's version. */
export const deliveryBody = (event: EventRecord, version: ApiVersion) => JSON.stringify(renderEvent(VERSION_CHANGES, version, event));

export interface DeliveryResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

/**
 * POSTs the event, rendered at the endpoint's version and signed with its secret. Redirects are not followed (a 3xx
 * is a failure).
 */
export async function postEvent(
  endpoint: { url: string; apiVersion: string },
  secret: string,
  event: EventRecord,
  now = new Date(),
  document?: string,
): Promise<DeliveryResult> {
  const version = servedVersion(endpoint.apiVersion);
  const body = document ?? deliveryBody(event, version);
  const started = Date.now();
  try {
    const res = await fetch(endpoint.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "Content-Type": document === undefined ? "application/json" : "text/xml; charset=UTF-8",
        "User-Agent": "Medparts-Webhooks/1",
        [EVENT_ID_HEADER]: event.id,
        [EVENT_TYPE_HEADER]: event.type,
        [VERSION_HEADER]: version,
        [SIGNATURE_HEADER]: await signatureHeader(secret, body, now),
      },
      body,
    });
    let ok = res.status >= 200 && res.status < 300;
    let error = ok ? null : `HTTP ${res.status}`;
    if (document !== undefined && ok && res.body) {
      // A cXML receiver answers with HTTP 200 and its outcome in a Status: a refusal (a 4xx or 5xx Status) is a failed
      // delivery, retried like any. Only the first CXML_ANSWER_BYTES are read; an answer without a Status goes by HTTP.
      const answer = await readAtMost(res.body, CXML_ANSWER_BYTES);
      const code = answer ? /<Status\b[^>]*\bcode="(\d{3})"/.exec(new TextDecoder().decode(answer))?.[1] : undefined;
      if (code !== undefined && !code.startsWith("2")) {
        ok = false;
        error = `cXML Status ${code}`;
      }
    } else {
      // The answer's body is not read (bounded work, whatever the endpoint sends).
      await res.body?.cancel();
    }
    return { ok, statusCode: res.status, error, latencyMs: Date.now() - started };
  } catch (error) {
    const message = error instanceof Error && error.name === "TimeoutError" ? `No answer within ${DELIVERY_TIMEOUT_MS} ms` : String(error);
    return { ok: false, statusCode: null, error: message.slice(0, MAX_ERROR_LENGTH), latencyMs: Date.now() - started };
  }
}

/** An endpoint that carries a procurement connection's cXML documents (src/operator/procurement/documents.ts). */
const DOCUMENTS_URL = "https://admin.internal/__procurement/documents";

/**
 * One attempt at the endpoint: the event as JSON, or for a procurement connection's endpoint the event's cXML document,
 * which the operator plane renders (an event that makes none counts as delivered; a failure to render, as a failed attempt).
 */
async function deliverTo(env: DeliveryEnv, endpoint: typeof webhookEndpoints.$inferSelect, event: EventRecord): Promise<DeliveryResult> {
  const secret = await signingSecret(env.WEBHOOK_SECRET_KEY, endpoint.secretSalt);
  if (endpoint.connectionId === null) return postEvent(endpoint, secret, event);
  const started = Date.now();
  const rendered = await env.ADMIN.fetch(
    new Request(`${DOCUMENTS_URL}/${endpoint.connectionId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(event),
    }),
  ).catch((error: unknown) => new Response(String(error), { status: 503 }));
  if (rendered.status === 204) return { ok: true, statusCode: null, error: null, latencyMs: Date.now() - started };
  if (!rendered.ok) {
    await rendered.body?.cancel();
    return { ok: false, statusCode: null, error: `The document could not be made (${rendered.status})`, latencyMs: Date.now() - started };
  }
  return postEvent(endpoint, secret, event, new Date(), await rendered.text());
}

/**
 * Earlier events of the same order that this endpoint should get first and has not yet got (neither delivered nor
 * given up on): events of its types, written since the endpoint exists.
 */
const earlierUndelivered = (message: DeliveryMessage) => sql<number>`(
    select count(*) from outbox_events e
      join webhook_endpoints w on w.id = ${message.endpointId}
      join outbox_events p on p.tenant_id = e.tenant_id and p.aggregate_id = e.aggregate_id and p.sequence < e.sequence
    where e.id = ${message.eventId}
      and p.created_at >= w.created_at
      and exists (select 1 from json_each(w.event_types) t where t.value in ('*', p.type))
      and not exists (select 1 from webhook_deliveries d where d.endpoint_id = w.id and d.event_id = p.id and d.outcome in ('succeeded', 'dead-lettered')))`;

async function load(db: Database, message: DeliveryMessage) {
  const [events, endpoints] = await db.batch([
    db
      .select({ ...eventColumns, tenantId: outboxEvents.tenantId })
      .from(outboxEvents)
      .where(eq(outboxEvents.id, message.eventId)),
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, message.endpointId)),
  ]);
  const event = events[0];
  const endpoint = endpoints[0];
  // Gone (deleted endpoint, purged event), disabled, or not the event's tenant: nothing to deliver.
  if (!event || !endpoint?.enabled || endpoint.tenantId !== event.tenantId) return null;
  const { tenantId: _tenant, ...record } = event;
  return { event: record as EventRecord, endpoint };
}

/** An event waits for its order's earlier events at most this long after it was written, then goes anyway. */
export const MAX_ORDER_WAIT_MS = DISABLE_AFTER_FAILING_MS;
/**
 * A held delivery is sent on by the success (or dead letter) of the event it waits for; failing that (a predecessor
 * that never settles), the sweep sends it again this long (plus WEBHOOK_RESEND_AFTER_SECONDS) after it was held.
 */
export const HOLD_RECHECK_SECONDS = 30;

/**
 * Holds the delivery behind an earlier event of its order, if one is still on its way to the endpoint: one statement,
 * so that it never misses that event's success (whose batch releases what is held, src/api/webhooks/delivery.ts
 * releaseHeld). Returns whether it was held.
 */
async function holdBehindEarlier(db: Database, env: ConfigVars, message: DeliveryMessage, attempts: number): Promise<boolean> {
  const dueAt = lostAfter(env, new Date(Date.now() + HOLD_RECHECK_SECONDS * 1000));
  const held = await db
    .insert(webhookDeliveriesOwed)
    .select(sql`select ${message.eventId}, ${message.endpointId}, ${attempts}, ${dueAt}, 1 where ${earlierUndelivered(message)} > 0`)
    .onConflictDoUpdate({
      target: [webhookDeliveriesOwed.eventId, webhookDeliveriesOwed.endpointId],
      set: { held: 1, dueAt, attempts },
    })
    .returning({ eventId: webhookDeliveriesOwed.eventId });
  return held.length > 0;
}

/**
 * The deliveries to `endpointId` held behind `eventId` (later events of its order): no longer held, due as messages
 * just sent (the caller sends them once its batch commits; a crash before that leaves them to the sweep).
 */
const releaseHeld = (db: Database, env: ConfigVars, endpointId: string, eventId: string, now: Date) =>
  db
    .update(webhookDeliveriesOwed)
    .set({ held: 0, dueAt: lostAfter(env, now) })
    .where(
      and(
        eq(webhookDeliveriesOwed.endpointId, endpointId),
        eq(webhookDeliveriesOwed.held, 1),
        sql`${webhookDeliveriesOwed.eventId} in (select s.id from outbox_events p join outbox_events s on s.tenant_id = p.tenant_id and s.aggregate_id = p.aggregate_id and s.sequence > p.sequence where p.id = ${eventId})`,
      ),
    )
    .returning({
      eventId: webhookDeliveriesOwed.eventId,
      endpointId: webhookDeliveriesOwed.endpointId,
      attempts: webhookDeliveriesOwed.attempts,
    });

/** Hands released deliveries to the queue now: the next event of the order goes right after its predecessor. */
async function sendReleased(env: Pick<DeliveryEnv, "EVENTS">, released: DeliveryMessage[], from: DeliveryMessage): Promise<void> {
  const home = from.storeTenantId === undefined ? {} : { storeTenantId: from.storeTenantId };
  if (released.length > 0) await env.EVENTS.sendBatch(released.map((body) => ({ body: { ...body, ...home } })));
}

/** The consumer's bindings with `DB` where the message's event and endpoint are: DB, or their tenant's store. */
function homeOf(env: DeliveryEnv, message: DeliveryMessage): DeliveryEnv {
  if (message.storeTenantId === undefined) return env;
  return envWith(env, { DB: tenantStoreDatabase(env, message.storeTenantId) });
}

export function recordDelivery(
  db: Database,
  endpointId: string,
  eventId: string,
  attempt: number,
  result: DeliveryResult,
  outcome?: "dead-lettered",
) {
  return db.insert(webhookDeliveries).values({
    endpointId,
    eventId,
    attempt,
    outcome: outcome ?? (result.ok ? "succeeded" : "failed"),
    statusCode: result.statusCode,
    error: result.error,
    latencyMs: result.latencyMs,
    createdAt: new Date().toISOString(),
  });
}

/** The owed delivery of `message` (migrations/0014), as every consumer step updates or ends it. */
const owedDelivery = (message: DeliveryMessage) =>
  and(eq(webhookDeliveriesOwed.eventId, message.eventId), eq(webhookDeliveriesOwed.endpointId, message.endpointId));

/** The endpoint has the event, or will never get it: nothing is owed any more. */
const settle = (db: Database, message: DeliveryMessage) => db.delete(webhookDeliveriesOwed).where(owedDelivery(message));

/** The delivery goes on: `attempts` made so far, the next step expected at `next` (lost if nothing happens by then). */
const postpone = (db: Database, env: ConfigVars, message: DeliveryMessage, attempts: number, next: Date) =>
  db
    .update(webhookDeliveriesOwed)
    .set({ attempts, dueAt: lostAfter(env, next) })
    .where(owedDelivery(message));

/**
 * The queue consumer for medparts-events. Deliveries to different endpoints run side by side, so one slow or
 * hanging endpoint delays only its own; an endpoint's messages go one after another in the batch's order (in order
 * per order), and once one of them fails, the rest of its messages in the batch wait for a later batch instead of
 * each waiting out the timeout (a hanging endpoint costs a batch one DELIVERY_TIMEOUT_MS at most).
 */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: DeliveryEnv): Promise<void> {
  const byEndpoint = new Map<string, Message<DeliveryMessage>[]>();
  for (const message of batch.messages) {
    const key = `${message.body.storeTenantId ?? ""}:${message.body.endpointId}`;
    const queued = byEndpoint.get(key);
    if (queued) queued.push(message);
    else byEndpoint.set(key, [message]);
  }
  await Promise.all(
    [...byEndpoint.values()].map(async (messages) => {
      const home = homeOf(env, messages[0]!.body);
      const db = database(home.DB);
      let failing = false;
      for (const message of messages) {
        if (failing) await waitForLaterBatch(db, home, message, ENDPOINT_FAILING_WAIT_SECONDS);
        else failing = !(await deliverOne(db, home, message));
      }
    }),
  );
}

/** A message put off without spending an attempt: sent again as a fresh message after `seconds`. */
async function waitForLaterBatch(db: Database, env: DeliveryEnv, message: Message<DeliveryMessage>, seconds: number) {
  const made = (message.body.attempts ?? 0) + message.attempts - 1;
  await env.EVENTS.send({ ...message.body, attempts: made }, { delaySeconds: seconds });
  await postpone(db, env, message.body, made, new Date(Date.now() + seconds * 1000));
  message.ack();
}

/** How long the rest of a failing endpoint's messages in a batch wait: the first backoff step. */
const ENDPOINT_FAILING_WAIT_SECONDS = 30;

/** One delivery attempt; false when the endpoint failed it. */
async function deliverOne(db: Database, env: DeliveryEnv, message: Message<DeliveryMessage>) {
  const found = await load(db, message.body);
  if (!found) {
    await settle(db, message.body);
    message.ack();
    return true;
  }
  const { event, endpoint } = found;
  const made = (message.body.attempts ?? 0) + message.attempts - 1;
  // In order per order: while an earlier event of the order is still on its way to this endpoint, this one is held
  // (spending none of its retries) until that event's success sends it on.
  if (Date.now() - Date.parse(event.createdAt) < MAX_ORDER_WAIT_MS && (await holdBehindEarlier(db, env, message.body, made))) {
    message.ack();
    return true;
  }
  const attempt = made + 1;
  const result = await deliverTo(env, endpoint, event);
  const now = new Date();
  const last = !result.ok && attempt >= MAX_ATTEMPTS;
  const recorded = [
    recordDelivery(db, endpoint.id, event.id, attempt, result),
    db
      .update(webhookEndpoints)
      .set({ failingSince: result.ok ? null : sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()})` })
      .where(eq(webhookEndpoints.id, endpoint.id)),
  ] as const;
  if (result.ok) {
    const [, , , released] = await db.batch([...recorded, settle(db, message.body), releaseHeld(db, env, endpoint.id, event.id, now)]);
    await sendReleased(env, released, message.body);
  } else {
    await db.batch([...recorded, postpone(db, env, message.body, attempt, new Date(now.getTime() + backoffSeconds(attempt) * 1000))]);
  }
  logEvent(result.ok ? "info" : "warn", {
    event: "webhook.delivery",
    endpointId: endpoint.id,
    eventId: event.id,
    attempt,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
  });
  if (result.ok) message.ack();
  // The last attempt of a delivery sent again by the sweep: dead-lettered here, as the queue would after its own.
  else if (last && message.attempts < MAX_ATTEMPTS) {
    await deadLetter(db, env, { ...message.body, attempts: 0 }, attempt, now);
    message.ack();
  }
  // On the last attempt the queue moves the retried message to the dead-letter queue.
  else message.retry({ delaySeconds: backoffSeconds(attempt) });
  return result.ok;
}

export const ENDPOINT_DISABLED_EVENT = "webhook_endpoint.disabled" satisfies EventType;

/**
 * The consumer of medparts-events-dlq: a delivery that exhausted its retries. It is recorded, and an endpoint that has
 * failed for DISABLE_AFTER_FAILING_MS is disabled, with a `webhook_endpoint.disabled` event in the tenant's feed.
 */
export async function deadLetterBatch(batch: MessageBatch<DeliveryMessage>, env: DeliveryEnv, now = new Date()): Promise<void> {
  for (const message of batch.messages) {
    const home = homeOf(env, message.body);
    await deadLetter(database(home.DB), home, message.body, (message.body.attempts ?? 0) + message.attempts, now);
    message.ack();
  }
}

/**
 * A delivery that exhausted its retries: recorded, no longer owed, what was held behind it sent on, and its endpoint
 * disabled if failing for long.
 */
async function deadLetter(db: Database, env: DeliveryEnv, body: DeliveryMessage, attempts: number, now: Date): Promise<void> {
  const { eventId, endpointId } = body;
  const failingBefore = new Date(now.getTime() - DISABLE_AFTER_FAILING_MS).toISOString();
  const reason = "Deliveries failed for 3 days.";
  const disabled = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), lt(webhookEndpoints.failingSince, failingBefore)))
    .returning({ tenantId: webhookEndpoints.tenantId, url: webhookEndpoints.url });
  const dead = { ok: false, statusCode: null, error: "Retries exhausted: moved to the dead-letter queue.", latencyMs: 0 };
  const statements: BatchItem<"sqlite">[] = [
    releaseHeld(db, env, endpointId, eventId, now),
    recordDelivery(db, endpointId, eventId, attempts, dead, "dead-lettered"),
    settle(db, body),
  ];
  const [endpoint] = disabled;
  if (endpoint) {
    statements.push(
      db.insert(outboxEvents).values({
        id: crypto.randomUUID(),
        type: ENDPOINT_DISABLED_EVENT,
        tenantId: endpoint.tenantId,
        aggregateId: endpointId,
        payload: { endpointId, url: endpoint.url, reason, disabledAt: now.toISOString() } satisfies EventData<
          typeof ENDPOINT_DISABLED_EVENT
        >,
        createdAt: now.toISOString(),
      }),
    );
  }
  const [released] = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  await sendReleased(env, released as DeliveryMessage[], body);
}

/** Deliveries older than the event retention go with their events. */
export const purgeOldDeliveries = (db: Database, now: Date, limit: number) =>
  deleteOldest(db, webhookDeliveries, webhookDeliveries.id, beforeRetention(webhookDeliveries.createdAt, now), webhookDeliveries.id, limit);

/** The queue handler: which consumer a batch is for, by its queue (wrangler.toml [[queues.consumers]]). */
export async function consumeEventBatch(batch: MessageBatch, env: DeliveryEnv): Promise<void> {
  const messages = batch as MessageBatch<DeliveryMessage>;
  if (batch.queue === EVENTS_DEAD_LETTER_QUEUE) await deadLetterBatch(messages, env);
  else await deliverBatch(messages, env);
}
