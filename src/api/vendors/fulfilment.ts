import { and, eq, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { addresses, orderLines, orders, shippedUnits, shippingDocumentLines, shippingDocuments } from "../../db/schema";
import { ProblemError, ValidationError } from "../../platform/errors";
import type { ShippedUnit } from "../../shared/udi/shipped-units";
import type { LineMoveDetails } from "../events/schemas";
import type { EventType } from "../events/types";
import { type InvoicingRows, invoicingOf, invoicingReads, rematchAfter } from "../invoices/invoicing";
import { type ChangeOutcome, commitOrderChange, orderLineStates } from "../orders/changes";
import { canMove, type LineStatus, type OrderStatus, TRANSITIONS } from "../orders/lifecycle";
import { changeOf, type LineFieldChange } from "../orders/line-history";
import { SHIPPING_METHODS, type ShippingMethod } from "../orders/options";
import { openOnShipment } from "../returns/open";
import { liveOrder, shipToColumns, vendorLineNotFound } from "./lines";

/**
 * The vendor's moves of one order line along the lifecycle (docs/api.md, "Vendor API"). Each commits as every order
 * change does (src/api/orders/changes.ts): one D1 batch with the line, the order's derived status and version, and an
 * event. Repeating a move whose effect is already in place (a retry after a lost answer) changes nothing and
 * answers as if it had just been made, without a new event: vendor moves need no Idempotency-Key.
 */

export type VendorMove =
  | { action: "acknowledge"; promisedShipDate: string }
  | { action: "backorder"; expectedShipDate: string; reason?: string | null | undefined }
  | {
      action: "ship";
      trackingNumber: string;
      carrierName?: string | undefined;
      serviceLevel?: string | undefined;
      quantity?: number | undefined;
      shippedAt?: string | undefined;
      /** The UDIs scanned from the shipped units, checked against the line's product (src/shared/udi/shipped-units.ts). */
      units?: ShippedUnit[] | undefined;
    }
  | { action: "deliver"; deliveredAt?: string | undefined }
  | { action: "reject"; reason: string };

export type VendorAction = VendorMove["action"];

/** The line status each move leads to (a partial shipment leaves the line where it is). */
export const MOVE_TARGETS: Readonly<Record<VendorAction, LineStatus>> = {
  acknowledge: "Acknowledged",
  backorder: "Backordered",
  ship: "Shipped",
  deliver: "Delivered",
  reject: "Rejected",
};

/** The event each move writes. */
export const MOVE_EVENTS = {
  acknowledge: "order.acknowledged",
  backorder: "order.backordered",
  ship: "order.shipped",
  deliver: "order.delivered",
  reject: "order.rejected",
} as const satisfies Readonly<Record<VendorAction, EventType>>;

export interface MoveOutcome {
  /** The event of this move; null when the move was already in place (nothing changed). */
  eventId: string | null;
  /** Every event the move wrote: its own, then those of the invoices a parcel matched again. */
  eventIds: string[];
  orderStatus: OrderStatus;
}

/** What a move reads of a line and its order; `trackingNumber`: the parcel a ship names (whether it holds the line). */
export const moveLineColumns = (vendorId: number, trackingNumber: string | null) => ({
  id: orderLines.id,
  status: orderLines.statusName,
  quantity: orderLines.quantity,
  shippedQuantity: orderLines.shippedQuantity,
  promisedShipDate: orderLines.promisedShipDate,
  expectedShipDate: orderLines.expectedShipDate,
  pendingChange: sql<number>`${orderLines.proposedChange} is not null`,
  purchaseTerms: orderLines.purchaseTerms,
  facilityId: orders.facilityId,
  // Not orders.id: a D1 batch maps rows by column name, and order_lines.id is already "id".
  orderId: orderLines.orderId,
  tenantId: orders.tenantId,
  orderNumber: orders.orderNumber,
  orderStatus: orders.status,
  version: orders.version,
  shippingMethod: orders.shippingMethod,
  orderedAt: orders.createdAt,
  // The line's latest parcel: a delivery cannot come before it.
  lastShippedAt: sql<
    string | null
  >`(select max(${shippingDocuments.shippedAt}) from ${shippingDocumentLines} join ${shippingDocuments} on ${shippingDocuments.id} = ${shippingDocumentLines.shippingDocumentId} where ${shippingDocumentLines.lineId} = ${orderLines.id} and ${shippingDocuments.shippedAt} is not null)`,
  // Whether this parcel (tracking number) of the vendor already holds the line: a repeated ship.
  inParcel: sql<number>`exists (select 1 from ${shippingDocumentLines} join ${shippingDocuments} on ${shippingDocuments.id} = ${shippingDocumentLines.shippingDocumentId} where ${shippingDocumentLines.lineId} = ${orderLines.id} and ${shippingDocuments.vendorId} = ${vendorId} and ${shippingDocuments.trackingNumber} = ${trackingNumber})`,
});

/**
 * What a move needs of its line and order: one read round trip, scoped by the vendor. A parcel (`trackingNumber`) also
 * reads the vendor's invoices on the order, which it matches again (what shipped grows).
 */
async function readLine(db: Database, vendorId: number, lineId: number, trackingNumber: string | null, sandbox: boolean) {
  const thisLine = and(eq(orderLines.id, lineId), eq(orderLines.vendorId, vendorId));
  const ofItsKind = sandbox ? lt(orders.tenantId, 0) : liveOrder;
  const orderOfLine = sql<number>`(select ${orderLines.orderId} from ${orderLines} where ${thisLine})`;
  const [found, lines, ...invoicing] = await db.batch([
    db
      .select(moveLineColumns(vendorId, trackingNumber))
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(thisLine, ofItsKind)),
    // The order's other lines; read only when the line itself is found above (of the right kind).
    orderLineStates(db, orderOfLine),
    ...(trackingNumber === null ? [] : invoicingReads(db, vendorId, orderOfLine)),
  ]);
  const line = found[0];
  if (!line) throw vendorLineNotFound();
  return { line, lines, invoicing: trackingNumber === null ? null : invoicingOf(vendorId, invoicing as InvoicingRows) };
}

export type LineRead = Awaited<ReturnType<typeof readLine>>["line"];

export function invalidTransition(line: LineRead, action: VendorAction): ProblemError {
  const allowed = TRANSITIONS[line.status as LineStatus] ?? [];
  return new ProblemError(
    409,
    "invalid-transition",
    "Invalid transition",
    `Line ${line.id} is ${line.status}: it cannot be moved to ${MOVE_TARGETS[action]}. Allowed from ${line.status}: ${allowed.join(", ") || "none (final)"}.`,
    { errors: allowed.map((status) => `allowed: ${status}`) },
  );
}

/** True when the move's effect is already in place: answer it without changing anything. */
export function alreadyDone(line: LineRead, move: VendorMove): boolean {
  switch (move.action) {
    case "acknowledge":
      return line.status === "Acknowledged" && line.promisedShipDate === move.promisedShipDate;
    case "backorder":
      return line.status === "Backordered" && line.expectedShipDate === move.expectedShipDate;
    case "ship":
      return line.inParcel === 1;
    case "deliver":
      return line.status === "Delivered";
    case "reject":
      return line.status === "Rejected";
  }
}

/**
 * Whether the move may start from the line's status: the lifecycle's transitions, plus changing the promised
 * (expected) date of a line already Acknowledged (Backordered), and another parcel of a partly shipped line.
 */
export function allowedFrom(line: LineRead, move: VendorMove): boolean {
  if (move.action === "acknowledge" && line.status === "Acknowledged") return true;
  if (move.action === "backorder" && line.status === "Backordered") return true;
  return canMove(line.status, MOVE_TARGETS[move.action]);
}

/** 409: a line with a change waiting for the buyer's answer does not ship. */
export const changePending = (line: LineRead) =>
  new ProblemError(
    409,
    "change-pending",
    "Change awaits the buyer",
    `Line ${line.id} has a change waiting for the buyer's answer: it ships once the buyer accepts or declines it (or the vendor confirms it as ordered).`,
  );

/**
 * A vendor's move of its line: the lifecycle's rules, one batch with its event. `sandbox`: the sandbox's simulated
 * vendor moving a test-mode order's line (src/api/sandbox), through the very same commit path; a vendor's own moves reach
 * live orders only.
 */
export async function moveLine(
  db: Database,
  vendorId: number,
  lineId: number,
  move: VendorMove,
  stampedAt?: Date,
  sandbox = false,
): Promise<MoveOutcome> {
  const { line, lines, invoicing } = await readLine(db, vendorId, lineId, move.action === "ship" ? move.trackingNumber : null, sandbox);
  // Stamped after the read: a change that commits after another is never stamped before it.
  const now = stampedAt ?? new Date();
  // A move already in place with a change pending is no repeat: it answers the proposal (the vendor's new word).
  if (alreadyDone(line, move) && line.pendingChange === 0)
    return { eventId: null, eventIds: [], orderStatus: line.orderStatus as OrderStatus };
  if (!allowedFrom(line, move)) throw invalidTransition(line, move.action);
  if (line.pendingChange === 1 && move.action === "ship") throw changePending(line);

  const order = { id: line.orderId, tenantId: line.tenantId, orderNumber: line.orderNumber, version: line.version, lines };
  const at = now.toISOString();
  const change = changeFor(db, vendorId, line, move, at);
  const shipped = change.shippedQuantity === undefined ? new Map() : new Map([[line.id, { shippedQuantity: change.shippedQuantity }]]);
  const rematch = rematchAfter(db, invoicing, shipped, at);
  // A parcel of an exchange or loan line opens the return of its units (src/api/returns/open.ts).
  const opened =
    move.action === "ship" && change.shippedQuantity !== undefined
      ? openOnShipment(
          db,
          { ...line, vendorId },
          change.shippedQuantity - line.shippedQuantity,
          (change.details as { shippedAt: string }).shippedAt,
          at,
        )
      : null;
  const moreEvents = [...(opened ? [opened.event] : []), ...rematch.events];
  const eventIds = [crypto.randomUUID(), ...moreEvents.map(() => crypto.randomUUID())];
  const outcome: ChangeOutcome = await commitOrderChange(db, {
    order,
    lineChanges: new Map([[line.id, { status: change.status, shippedQuantity: change.shippedQuantity }]]),
    statements: [...change.statements, ...(opened?.statements ?? []), ...rematch.statements],
    event: { type: MOVE_EVENTS[move.action], payload: { lineId: line.id, lineStatus: change.status, ...change.details, at } },
    moreEvents,
    eventIds,
    also: opened ? [opened.patch(eventIds[1]!)] : [],
    revisions: [{ lineId: line.id, actor: "vendor", actorId: vendorId, code: move.action, changes: moveChanges(line, move, change) }],
    at: now,
  });
  return { eventId: outcome.eventId, eventIds: outcome.eventIds, orderStatus: outcome.status };
}

/** What a move changed of the line, for its revision: its status, and the field the move sets. */
function moveChanges(line: LineRead, move: VendorMove, change: LineChange): LineFieldChange[] {
  return [
    ...changeOf("status", line.status as LineStatus, change.status),
    ...(change.shippedQuantity === undefined ? [] : changeOf("shippedQuantity", line.shippedQuantity, change.shippedQuantity)),
    ...(move.action === "acknowledge" ? changeOf("promisedShipDate", line.promisedShipDate, move.promisedShipDate) : []),
    ...(move.action === "backorder" ? changeOf("expectedShipDate", line.expectedShipDate, move.expectedShipDate) : []),
  ];
}

interface LineChange {
  status: LineStatus;
  /** The line's shipped quantity after the change, when it changes. */
  shippedQuantity?: number;
  statements: BatchItem<"sqlite">[];
  /** What the event says about the move besides the line and its status. */
  details: Record<string, unknown>;
}

function changeFor(db: Database, vendorId: number, line: LineRead, move: VendorMove, at: string): LineChange {
  const updateLine = (set: Partial<typeof orderLines.$inferInsert>) => db.update(orderLines).set(set).where(eq(orderLines.id, line.id));
  switch (move.action) {
    case "acknowledge":
      return {
        status: "Acknowledged",
        statements: [
          updateLine({ statusName: "Acknowledged", promisedShipDate: move.promisedShipDate, statusReason: null, proposedChange: null }),
        ],
        details: { promisedShipDate: move.promisedShipDate } satisfies LineMoveDetails<typeof MOVE_EVENTS.acknowledge>,
      };
    case "backorder":
      return {
        status: "Backordered",
        statements: [
          updateLine({
            statusName: "Backordered",
            expectedShipDate: move.expectedShipDate,
            statusReason: move.reason ?? null,
            proposedChange: null,
          }),
        ],
        details: { expectedShipDate: move.expectedShipDate, reason: move.reason ?? null } satisfies LineMoveDetails<
          typeof MOVE_EVENTS.backorder
        >,
      };
    case "deliver": {
      const deliveredAt = move.deliveredAt ?? at;
      if (line.lastShippedAt && deliveredAt < line.lastShippedAt) {
        throw new ValidationError({ deliveredAt: [`Must not be before the line's last shipment (${line.lastShippedAt}).`] });
      }
      return {
        status: "Delivered",
        statements: [updateLine({ statusName: "Delivered", deliveredAt })],
        details: { deliveredAt } satisfies LineMoveDetails<typeof MOVE_EVENTS.deliver>,
      };
    }
    case "reject":
      return {
        status: "Rejected",
        statements: [updateLine({ statusName: "Rejected", statusReason: move.reason, proposedChange: null })],
        details: { reason: move.reason } satisfies LineMoveDetails<typeof MOVE_EVENTS.reject>,
      };
    case "ship":
      return shipmentOf(db, vendorId, line, move, at);
  }
}

/**
 * What a parcel of the line holds, checked: a 400 otherwise, naming the field (the line's own fields after `field`: a
 * shipment's `lines[i].`).
 */
export function parcelOfLine(line: LineRead, move: Omit<Extract<VendorMove, { action: "ship" }>, "action">, at: string, field = "") {
  const remaining = line.quantity - line.shippedQuantity;
  const quantity = move.quantity ?? remaining;
  if (quantity > remaining) {
    throw new ValidationError({ [`${field}quantity`]: [`At most ${remaining} of line ${line.id} remain to ship.`] });
  }
  const planned = SHIPPING_METHODS[line.shippingMethod as ShippingMethod];
  const carrierName = move.carrierName ?? planned?.carrierName ?? "Unknown";
  const serviceLevel = move.serviceLevel ?? planned?.serviceLevel ?? "Unknown";
  const shippedAt = move.shippedAt ?? at;
  if (shippedAt < line.orderedAt)
    throw new ValidationError({ shippedAt: [`Must not be before the order was placed (${line.orderedAt}).`] });
  const units = move.units ?? [];
  const named = units.reduce((sum, unit) => sum + unit.units, 0);
  if (named > quantity) {
    throw new ValidationError({ [`${field}units`]: [`The codes name ${named} units; this parcel holds ${quantity} of line ${line.id}.`] });
  }
  const status: LineStatus = quantity === remaining ? "Shipped" : (line.status as LineStatus);
  return { quantity, carrierName, serviceLevel, shippedAt, units, status, shippedQuantity: line.shippedQuantity + quantity };
}

/**
 * A parcel: the vendor's shipping document for this tracking number on the order (made on its first line, to the
 * order's ship-to address), the line's quantity in it, and the line's shipped quantity. A line is Shipped once all
 * of it has shipped; it then leaves the order's to-ship document, which goes when nothing is left on it.
 */
function shipmentOf(db: Database, vendorId: number, line: LineRead, move: Extract<VendorMove, { action: "ship" }>, at: string): LineChange {
  const { quantity, carrierName, serviceLevel, shippedAt, units, status } = parcelOfLine(line, move, at);
  const parcel = parcelWhere(line.orderId, vendorId, move.trackingNumber);
  // The line leaves the to-ship document with the change once it has shipped in full (src/api/orders/changes.ts).
  const statements: BatchItem<"sqlite">[] = [
    insertShippingDocument(db, {
      orderId: line.orderId,
      vendorId,
      trackingNumber: move.trackingNumber,
      carrierName,
      serviceLevel,
      shippedAt,
    }),
    db.insert(shippingDocumentLines).select(
      db
        .select({
          shippingDocumentId: shippingDocuments.id,
          lineId: sql`${line.id}`.as("line_id"),
          quantity: sql`${quantity}`.as("quantity"),
        })
        .from(shippingDocuments)
        .where(parcel),
    ),
    db
      .update(orderLines)
      .set({ statusName: status, shippedQuantity: sql`${orderLines.shippedQuantity} + ${quantity}` })
      .where(eq(orderLines.id, line.id)),
  ];
  if (units.length > 0) {
    statements.push(
      insertShippedUnits(
        db,
        line.orderId,
        units.map((unit) => ({ ...unit, lineId: line.id })),
        parcel,
      ),
    );
  }
  return {
    status,
    shippedQuantity: line.shippedQuantity + quantity,
    statements,
    details: {
      trackingNumber: move.trackingNumber,
      carrierName,
      serviceLevel,
      quantity,
      shippedQuantity: line.shippedQuantity + quantity,
      shippedAt,
      ...(units.length > 0 ? { units } : {}),
    } satisfies LineMoveDetails<typeof MOVE_EVENTS.ship>,
  };
}

/** The parcel of a vendor on an order: its shipping document, named by its tracking number. */
export const parcelWhere = (orderId: number, vendorId: number, trackingNumber: string) =>
  and(
    eq(shippingDocuments.orderId, orderId),
    eq(shippingDocuments.vendorId, vendorId),
    eq(shippingDocuments.trackingNumber, trackingNumber),
  );

/**
 * The shipped units of a parcel, each with the line it belongs to, in its shipping document (found by `parcel`,
 * parcelWhere's condition): one JSON parameter however many. The single ship and a shipment both write them so.
 */
export function insertShippedUnits(
  db: Database,
  orderId: number,
  units: readonly (ShippedUnit & { lineId: number })[],
  parcel: ReturnType<typeof parcelWhere>,
) {
  const unit = (field: keyof ShippedUnit | "lineId", column: string) => sql.raw(`u.value ->> '${field}'`).as(column);
  return db.insert(shippedUnits).select(
    db
      .select({
        id: sql`null`.as("id"),
        orderId: sql`${orderId}`.as("order_id"),
        lineId: unit("lineId", "line_id"),
        shippingDocumentId: sql`${shippingDocuments.id}`.as("shipping_document_id"),
        agency: unit("agency", "agency"),
        deviceId: unit("deviceId", "device_id"),
        lot: unit("lot", "lot"),
        serial: unit("serial", "serial"),
        expiry: unit("expiry", "expiry"),
        units: unit("units", "units"),
      })
      .from(shippingDocuments)
      .innerJoin(sql`json_each(${JSON.stringify(units)}) u`, sql`true`)
      .where(parcel),
  );
}

/**
 * The parcel's shipping document with the order's ship-to, made by the first move into it: a later move (another line,
 * the same parcel) finds it there (ON CONFLICT DO NOTHING). The single ship and a shipment both write it so.
 */
export function insertShippingDocument(
  db: Database,
  parcel: { orderId: number; vendorId: number; trackingNumber: string; carrierName: unknown; serviceLevel: unknown; shippedAt: unknown },
) {
  return db
    .insert(shippingDocuments)
    .select(
      db
        .select({
          id: sql`null`.as("id"),
          orderId: orders.id,
          ...shipToColumns,
          carrierName: sql`${parcel.carrierName}`.as("carrier_name"),
          serviceLevel: sql`${parcel.serviceLevel}`.as("service_level"),
          trackingNumber: sql`${parcel.trackingNumber}`.as("tracking_number"),
          shippedAt: sql`${parcel.shippedAt}`.as("shipped_at"),
          vendorId: sql`${parcel.vendorId}`.as("vendor_id"),
        })
        .from(orders)
        .innerJoin(addresses, eq(addresses.id, orders.shippingAddressId))
        .where(eq(orders.id, parcel.orderId)),
    )
    .onConflictDoNothing();
}
