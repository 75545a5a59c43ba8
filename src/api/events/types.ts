/** Every event type the feed and webhooks carry (docs/api.md, "Event types"). */
export const EVENT_TYPES = [
  "order.created",
  "order.acknowledged",
  "order.backordered",
  "order.shipped",
  "order.delivered",
  "order.cancelled",
  "order.rejected",
  "order.confirmed",
  "order.change_accepted",
  "order.change_declined",
  "invoice.received",
  "invoice.matched",
  "invoice.exception",
  "invoice.accepted",
  "invoice.disputed",
  "credit_memo.received",
  "core.opened",
  "core.due_soon",
  "core.overdue",
  "core.shipped",
  "core.received",
  "core.refused",
  "core.charged",
  "loaner.opened",
  "loaner.due_soon",
  "loaner.overdue",
  "loaner.shipped",
  "loaner.received",
  "loaner.charged",
  "repair.unit_shipped",
  "repair.received",
  "repair.diagnosed",
  "repair.quoted",
  "repair.approved",
  "repair.declined",
  "repair.returned",
  "return.requested",
  "return.authorized",
  "return.declined",
  "return.shipped",
  "return.received",
  "recall.affects_you",
  "recall.updated",
  "recall.closed",
  "webhook_endpoint.disabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Events of a recall (docs/recalls.md): they carry the recall's id where an order event carries its number. */
export const isRecallEvent = (type: string) => type.startsWith("recall.");

/**
 * Events of an order (its lines, its invoices): they carry its number and count its versions; the others concern a
 * recall or an endpoint.
 */
export const isOrderEvent = (type: string) => !type.startsWith("webhook_endpoint.") && !isRecallEvent(type);

/** Sent only by POST /webhook-endpoints/{id}/test; never written to the feed, so no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = "webhook_endpoint.test";

/** Every type a webhook delivery can have. */
export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];

/** How long events stay in the feed (and delivery records with them); the scheduled housekeeping purges older ones. */
export const EVENT_RETENTION_DAYS = 30;
