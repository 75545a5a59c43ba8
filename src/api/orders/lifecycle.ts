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

/**
 * Closed lines: statuses no move leaves (Delivered, Cancelled, Rejected). A vendor's list keeps them for
 * VENDOR_LIST_RETENTION_DAYS after their last change (src/api/vendors/projection/retention.ts); the tenant store's
 * account of its published lines names the same statuses (tenant-migrations/0009_vendor_line_closed.sql).
 */
export const CLOSED_LINE_STATUSES: readonly LineStatus[] = LINE_STATUSES.filter((status) => TRANSITIONS[status].length === 0);

export function canMove(from: string, to: LineStatus): boolean {
  return isLineStatus(from) && TRANSITIONS[from].includes(to);
}

/** Lines taken out of the order (by the buyer or the vendor): they count for neither its progress nor a cancel. */
export const isWithdrawn = (status: string) => status === "Cancelled" || status === "Rejected";

/** Statuses of lines with nothing left to ship: the order's to-ship document no longer lists them. */
export const NOTHING_LEFT_TO_SHIP: readonly LineStatus[] = ["Shipped", "Delivered", "Cancelled", "Rejected"];

/** A line as its order's status sees it: its status, and how much of it has shipped (a part shipment counts). */
export type LineProgress = string | { status: string; shippedQuantity: number };

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

/**
 * An order's status from its lines:
 * - every line Cancelled or Rejected: `Rejected` if every line was rejected, else `Cancelled`;
 * - otherwise, over the lines still in play (not Cancelled or Rejected): all Delivered `Delivered`; all Shipped or
 *   Delivered `Shipped`; some Shipped or Delivered, or some part of a line shipped, `PartiallyShipped`; any
 *   Backordered `Backordered`; all Acknowledged `Acknowledged`; else `Ordered`.
 */
export function orderStatusOf(lines: readonly LineProgress[]): OrderStatus {
  const all = lines.map((line) => (typeof line === "string" ? { status: line, shippedQuantity: 0 } : line));
  const live = all.filter((l) => !isWithdrawn(l.status));
  if (live.length === 0) return all.length > 0 && all.every((l) => l.status === "Rejected") ? "Rejected" : "Cancelled";
  const gone = live.filter((l) => l.status === "Shipped" || l.status === "Delivered");
  if (live.every((l) => l.status === "Delivered")) return "Delivered";
  if (gone.length === live.length) return "Shipped";
  if (gone.length > 0 || live.some((l) => l.shippedQuantity > 0)) return "PartiallyShipped";
  if (live.some((l) => l.status === "Backordered")) return "Backordered";
  if (live.every((l) => l.status === "Acknowledged")) return "Acknowledged";
  return "Ordered";
}
