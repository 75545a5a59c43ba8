/**
 * The order line state machine (docs/api.md, "Order lifecycle"): the one place that says which line status may
 * follow which, and how an order's status derives from its lines.
 */
export const LINE_STATUSES = ["Ordered", "Acknowledged", "Backordered", "Shipped", "Delivered", "Cancelled", "Rejected"] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

export const TRANSITIONS: Readonly<Record<LineStatus, readonly LineStatus[]>> = {
  Ordered: ["Acknowledged", "Backordered", "Cancelled", "Rejected"],
  Acknowledged: ["Backordered", "Shipped", "Cancelled"],
  Backordered: ["Acknowledged", "Shipped", "Cancelled"],
  Shipped: ["Delivered"],
  Delivered: [],
  Cancelled: [],
  Rejected: [],
};

export const isLineStatus = (value: string): value is LineStatus => (LINE_STATUSES as readonly string[]).includes(value);

export function canMove(from: string, to: LineStatus): boolean {
  return isLineStatus(from) && TRANSITIONS[from].includes(to);
}

/** Lines taken out of the order (by the buyer or the vendor): they count for neither its progress nor a cancel. */
export const isWithdrawn = (status: string) => status === "Cancelled" || status === "Rejected";

/**
 * An order's status from its lines' statuses:
 * - every line Cancelled or Rejected: `Rejected` if every line was rejected, else `Cancelled`;
 * - otherwise, over the lines still in play (not Cancelled or Rejected): all Delivered `Delivered`; all Shipped or
 *   Delivered `Shipped`; some Shipped or Delivered `PartiallyShipped`; any Backordered `Backordered`; all
 *   Acknowledged `Acknowledged`; else `Ordered`.
 */
export const ORDER_STATUSES = [
  "Ordered",
  "Acknowledged",
  "Backordered",
  "PartiallyShipped",
  "Shipped",
  "Delivered",
  "Cancelled",
  "Rejected",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export function orderStatusOf(lineStatuses: readonly string[]): OrderStatus {
  const live = lineStatuses.filter((s) => !isWithdrawn(s));
  if (live.length === 0) return lineStatuses.length > 0 && lineStatuses.every((s) => s === "Rejected") ? "Rejected" : "Cancelled";
  const gone = live.filter((s) => s === "Shipped" || s === "Delivered");
  if (live.every((s) => s === "Delivered")) return "Delivered";
  if (gone.length === live.length) return "Shipped";
  if (gone.length > 0) return "PartiallyShipped";
  if (live.includes("Backordered")) return "Backordered";
  if (live.every((s) => s === "Acknowledged")) return "Acknowledged";
  return "Ordered";
}
