import { and, asc, isNull, sql } from "drizzle-orm";
import { type Database, database } from "../../db/client";
import { outboxEvents, webhookDeliveriesOwed, webhookEndpoints } from "../../db/schema";
import type { Bindings } from "../../env";
import { logEvent } from "../../platform/logging";
import { type DeliveryMessage, lostAfter } from "./delivery";
import { ALL_EVENT_TYPES } from "./endpoints";

/**
 * Events reach endpoints at least once, whatever is lost on the way (docs/architecture.md, "Events"):
 * 1. The dispatcher writes what each new event owes, one row per subscribed endpoint (webhook_deliveries_owed), in the
 *    same batch that marks the event dispatched, and only then hands the messages to the queue. It runs in the alarm of
 *    the tenant's store that committed the event (armed by the write itself: src/shared/tenants/store.ts), so an event
 *    a crash left undispatched is the next alarm's.
 * 2. The consumer deletes an owed row once the endpoint has the event (or it is dead-lettered), and moves its due time
 *    on with every attempt or wait (src/api/webhooks/delivery.ts).
 * 3. The sweep sends again every owed delivery whose due time passed untouched: its message was lost by the queue, its
 *    consumer killed mid-batch, or the runtime restarted. Such a delivery may arrive twice; each carries the event id.
 */

const QUEUE_BATCH = 100;

type DispatchEnv = Pick<Bindings, "DB" | "EVENTS" | "WEBHOOK_RESEND_AFTER_SECONDS">;

/**
 * The tenant store the events and endpoints are in (`env.DB` is that store): it goes into each message, so that the
 * consumer reads and records the delivery there (docs/tenant-stores.md).
 */
type StoreTenant = number | undefined;

const stamped = (message: DeliveryMessage, storeTenantId: StoreTenant): DeliveryMessage =>
  storeTenantId === undefined ? message : { ...message, storeTenantId };

async function dispatch(
  env: DispatchEnv,
  which: ReturnType<typeof and> | undefined,
  limit: number,
  now: Date,
  storeTenantId?: StoreTenant,
): Promise<number> {
  const db = database(env.DB);
  const events = await db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(and(isNull(outboxEvents.dispatchedAt), which))
    // Per order in sequence order, so that the queue sees an order's events in order.
    .orderBy(asc(outboxEvents.aggregateId), asc(outboxEvents.sequence), asc(outboxEvents.createdAt))
    .limit(limit);
  if (events.length === 0) return 0;
  // One bound JSON array, whatever the number of events (D1 binds at most 100 values per statement).
  const ids = JSON.stringify(events.map((e) => e.id));
  const [owed] = await db.batch([
    db
      .insert(webhookDeliveriesOwed)
      .select(
        sql`select e.id, w.id, 0, ${lostAfter(env, now)}, 0
          from ${outboxEvents} e join ${webhookEndpoints} w
            on w.tenant_id = e.tenant_id and w.enabled = 1 and w.created_at <= e.created_at
          where e.id in (select value from json_each(${ids}))
            and exists (select 1 from json_each(w.event_types) t where t.value in (${ALL_EVENT_TYPES}, e.type))
          order by e.aggregate_id, e.sequence, e.created_at, w.id`,
      )
      .onConflictDoNothing()
      .returning({ eventId: webhookDeliveriesOwed.eventId, endpointId: webhookDeliveriesOwed.endpointId }),
    db
      .update(outboxEvents)
      .set({ dispatchedAt: now.toISOString() })
      .where(sql`${outboxEvents.id} in (select value from json_each(${ids}))`),
  ]);
  const messages = owed.map((body) => ({ body: stamped(body, storeTenantId) }));
  await send(env, messages);
  logEvent("info", { event: "webhook.dispatch", events: events.length, messages: messages.length });
  return events.length;
}

async function send(env: DispatchEnv, messages: { body: DeliveryMessage }[]): Promise<void> {
  for (let i = 0; i < messages.length; i += QUEUE_BATCH) await env.EVENTS.sendBatch(messages.slice(i, i + QUEUE_BATCH));
}

/**
 * The store's alarm (a Purge-shaped step): every event its store has not dispatched yet, up to `limit`. A store's
 * writes commit with their events and arm the alarm in the same output, so no request of its own is still to dispatch
 * them, whatever their time says (a step taken at a future time, in tests, too).
 */
export const sweepUndispatched = (env: DispatchEnv, storeTenantId: number) => (_db: Database, now: Date, limit: number) =>
  dispatch(env, undefined, limit, now, storeTenantId);

/**
 * The scheduled sweep's other half: owed deliveries whose due time passed untouched go to the queue again, with the
 * attempts made so far; after a start that lost the queue (`afterStart`), every owed delivery, due or not (its
 * message, a retry's delay or a wait included, went with the queue). Their due time moves on first, so a crash before
 * the send leaves them for the next sweep.
 */
export const resendLostDeliveries =
  (env: DispatchEnv, afterStart = false, storeTenantId?: number) =>
  async (db: Database, now: Date, limit: number) => {
    // After a start, "not sent by this run" (whose rows are due at lostAfter(now)): a next batch takes the rest.
    const lost = await db
      .update(webhookDeliveriesOwed)
      // A held delivery sent again is on its way (it holds itself again if it must still wait), so nothing releases it twice.
      .set({ dueAt: lostAfter(env, now), held: 0 })
      .where(
        sql`(${webhookDeliveriesOwed.eventId}, ${webhookDeliveriesOwed.endpointId}) in (select event_id, endpoint_id from ${webhookDeliveriesOwed} where ${afterStart ? sql`${webhookDeliveriesOwed.dueAt} <> ${lostAfter(env, now)}` : sql`${webhookDeliveriesOwed.dueAt} < ${now.toISOString()}`} order by ${webhookDeliveriesOwed.dueAt} limit ${limit})`,
      )
      .returning({
        eventId: webhookDeliveriesOwed.eventId,
        endpointId: webhookDeliveriesOwed.endpointId,
        attempts: webhookDeliveriesOwed.attempts,
      });
    await send(
      env,
      lost.map((body) => ({ body: stamped(body, storeTenantId) })),
    );
    if (lost.length > 0) logEvent("warn", { event: "webhook.resend_lost", deliveries: lost.length });
    return lost.length;
  };
