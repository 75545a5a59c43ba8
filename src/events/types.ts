/** Every event type the feed and webhooks carry (docs/api.md, "Event types"). */
export const EVENT_TYPES = [
  "order.created",
  "order.acknowledged",
  "order.backordered",
  "order.shipped",
  "order.delivered",
  "order.cancelled",
  "order.rejected",
  "webhook_endpoint.disabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** How long events stay in the feed (and delivery records with them); the scheduled housekeeping purges older ones. */
export const EVENT_RETENTION_DAYS = 30;
