import { and, asc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Context } from "hono";
import { type Database, database } from "../db/client";
import { outboxEvents, webhookEndpoints } from "../db/schema";
import type { AppEnv, Bindings } from "../env";
import { inBackground } from "../platform/background";
import { logEvent } from "../platform/logging";
import type { DeliveryMessage } from "./delivery";
import { ALL_EVENT_TYPES } from "./endpoints";

/**
 * The dispatcher moves undelivered outbox events to the delivery queue: one message per event and subscribed
 * endpoint, then marks the events dispatched. It runs right after a write (in the background) and from the scheduled
 * sweep for anything a crash left behind, so an event committed with its change is never lost. A crash between the
 * send and the mark sends again: delivery is at least once, and every delivery carries the event id.
 */

/** Events older than this and still undispatched are the sweep's: younger ones belong to a request still running. */
export const SWEEP_AFTER_MS = 60_000;
const QUEUE_BATCH = 100;

type DispatchEnv = Pick<Bindings, "DB" | "EVENTS">;

async function dispatch(env: DispatchEnv, which: ReturnType<typeof and>, limit: number, now: Date): Promise<number> {
  const db = database(env.DB);
  const events = await db
    .select({ id: outboxEvents.id, tenantId: outboxEvents.tenantId, type: outboxEvents.type })
    .from(outboxEvents)
    .where(and(isNull(outboxEvents.dispatchedAt), which))
    // Per order in sequence order, so that the queue sees an order's events in order.
    .orderBy(asc(outboxEvents.aggregateId), asc(outboxEvents.sequence), asc(outboxEvents.createdAt))
    .limit(limit);
  if (events.length === 0) return 0;
  const endpoints = await subscribedEndpoints(db, [...new Set(events.map((e) => e.tenantId))]);
  const messages: { body: DeliveryMessage }[] = events.flatMap((event) =>
    endpoints
      .filter((w) => w.tenantId === event.tenantId && (w.eventTypes.includes(ALL_EVENT_TYPES) || w.eventTypes.includes(event.type)))
      .map((w) => ({ body: { eventId: event.id, endpointId: w.id } })),
  );
  for (let i = 0; i < messages.length; i += QUEUE_BATCH) await env.EVENTS.sendBatch(messages.slice(i, i + QUEUE_BATCH));
  await db
    .update(outboxEvents)
    .set({ dispatchedAt: now.toISOString() })
    .where(
      inArray(
        outboxEvents.id,
        events.map((e) => e.id),
      ),
    );
  logEvent("info", { event: "webhook.dispatch", events: events.length, messages: messages.length });
  return events.length;
}

function subscribedEndpoints(db: Database, tenantIds: number[]) {
  return db
    .select({ id: webhookEndpoints.id, tenantId: webhookEndpoints.tenantId, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.tenantId, tenantIds), eq(webhookEndpoints.enabled, true)));
}

/** Right after a write: these events (ids from the request that wrote them). */
export const dispatchEvents = (env: DispatchEnv, eventIds: string[], now = new Date()) =>
  eventIds.length === 0 ? Promise.resolve(0) : dispatch(env, inArray(outboxEvents.id, eventIds), eventIds.length, now);

/** The scheduled sweep (a Purge-shaped step of housekeeping): undispatched events older than SWEEP_AFTER_MS. */
export const sweepUndispatched = (env: DispatchEnv) => (_db: Database, now: Date, limit: number) =>
  dispatch(env, lt(outboxEvents.createdAt, new Date(now.getTime() - SWEEP_AFTER_MS).toISOString()), limit, now);

/** After a write's answer: hand its event to the queue now (the sweep covers a failure or a crash here). */
export function dispatchAfterResponse(c: Context<AppEnv>, eventId: string | null | undefined): void {
  if (!eventId) return;
  inBackground(
    c,
    dispatchEvents(c.env, [eventId]).catch((error: unknown) =>
      logEvent("warn", { event: "webhook.dispatch_failed", eventId, error: String(error).slice(0, 200) }),
    ),
  );
}
