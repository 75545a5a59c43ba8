import { and, eq, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { orderLines, orders, shippingDocumentLines, shippingDocuments } from "../../db/schema";
import { ValidationError } from "../../platform/errors";
import type { ShippedUnit } from "../../shared/udi/shipped-units";
import type { LineMoveDetails } from "../events/schemas";
import type { EventType } from "../events/types";
import { type InvoicingRows, invoicingOf, invoicingReads, rematchAfter } from "../invoices/invoicing";
import { commitOrderChange, type LineRevision, orderLineStates } from "../orders/changes";
import { type LineStatus, type OrderStatus, orderStatusOf } from "../orders/lifecycle";
import { changeOf } from "../orders/line-history";
import { openOnShipment } from "../returns/open";
import {
  allowedFrom,
  alreadyDone,
  changePending,
  insertShippedUnits,
  insertShippingDocument,
  invalidTransition,
  type LineRead,
  MOVE_EVENTS,
  moveLineColumns,
  parcelOfLine,
  parcelWhere,
} from "./fulfilment";
import { expectLinesOfOneOrder, liveOrder, vendorLineNotFound } from "./lines";

/**
 * A parcel of several of the vendor's lines of one order (POST /vendor/api/shipments, docs/api.md "Vendor API"): each
 * line shipped by the rules of POST /vendor/api/order-lines/{lineId}/ship (the same checks and messages, one
 * `order.shipped` event and one revision per line, a line this parcel already holds left as it is), all of them in ONE
 * order change (src/api/orders/changes.ts): one read round trip, one batch, the order's version once per event. All or
 * nothing: a line refused refuses the parcel, naming it (`lines[i]`), and nothing is written. An X12 856 applies its
 * parcels so (src/operator/edi/apply/apply.ts): one request and one commit per parcel, not one per item.
 */

/** Lines per parcel: an 856's order of 200 lines in one request (as a confirmation's). */
export const MAX_SHIPMENT_LINES = 200;

/** Units' codes per parcel (each line also at most MAX_SHIPPED_UNIT_CODES): bounds the request and its events. */
export const MAX_SHIPMENT_UNIT_CODES = 5_000;

export interface ShipmentInput {
  trackingNumber: string;
  carrierName?: string | undefined;
  serviceLevel?: string | undefined;
  shippedAt?: string | undefined;
  lines: { lineId: number; quantity?: number | undefined; units?: ShippedUnit[] | undefined }[];
}

export interface ShipmentOutcome {
  orderNumber: string;
  orderStatus: OrderStatus;
  /** Each line's order.shipped event, in the order of the request; null for a line the parcel already held. */
  eventIds: (string | null)[];
}

/** The vendor's lines of the order of the parcel's first line (scoped by the vendor), with the order's state: one round trip. */
async function readParcelLines(db: Database, vendorId: number, lineIds: number[], trackingNumber: string, sandbox: boolean) {
  const ofItsKind = sandbox ? lt(orders.tenantId, 0) : liveOrder;
  const orderOfFirst = sql<number>`(select ${orderLines.orderId} from ${orderLines} where ${orderLines.id} = ${lineIds[0]!} and ${orderLines.vendorId} = ${vendorId})`;
  const [found, states, ...invoicing] = await db.batch([
    db
      .select(moveLineColumns(vendorId, trackingNumber))
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(
        and(
          eq(orderLines.orderId, orderOfFirst),
          eq(orderLines.vendorId, vendorId),
          sql`${orderLines.id} in (select value from json_each(${JSON.stringify(lineIds)}))`,
          ofItsKind,
        ),
      ),
    orderLineStates(db, orderOfFirst),
    ...invoicingReads(db, vendorId, orderOfFirst),
  ]);
  return { found, states, invoicing: invoicingOf(vendorId, invoicing as InvoicingRows) };
}

interface PlannedLine {
  index: number;
  line: LineRead;
  parcel: ReturnType<typeof parcelOfLine>;
}

/** 400 unless each line is listed once (a line's two lots in one parcel are one line: its quantity, its units). */
export function eachLineOnce(lineIds: readonly number[]): void {
  if (new Set(lineIds).size !== lineIds.length) throw new ValidationError({ lines: ["Each lineId once."] });
}

export async function shipLines(
  db: Database,
  vendorId: number,
  shipment: ShipmentInput,
  { sandbox = false, stampedAt }: { sandbox?: boolean; stampedAt?: Date } = {},
): Promise<ShipmentOutcome> {
  const ids = shipment.lines.map((line) => line.lineId);
  eachLineOnce(ids);
  const { found, states, invoicing } = await readParcelLines(db, vendorId, ids, shipment.trackingNumber, sandbox);
  const byId = new Map(found.map((line) => [line.id, line]));
  const first = byId.get(ids[0]!);
  if (!first) throw vendorLineNotFound();
  expectLinesOfOneOrder(ids, byId, first.orderNumber, "A shipment holds");
  // Stamped after the read: a change that commits after another is never stamped before it.
  const now = stampedAt ?? new Date();
  const at = now.toISOString();
  const planned: PlannedLine[] = [];
  shipment.lines.forEach((input, index) => {
    const line = byId.get(input.lineId)!;
    // The single ship's rules, line by line (src/api/vendors/fulfilment.ts moveLine).
    const move = { action: "ship" as const, ...shipment, ...input };
    if (alreadyDone(line, move) && line.pendingChange === 0) return;
    if (!allowedFrom(line, move)) throw invalidTransition(line, "ship");
    if (line.pendingChange === 1) throw changePending(line);
    planned.push({ index, line, parcel: parcelOfLine(line, move, at, `lines[${index}].`) });
  });
  if (planned.length === 0) return { orderNumber: first.orderNumber, orderStatus: orderStatusOf(states), eventIds: ids.map(() => null) };

  const events: { type: EventType; payload: Record<string, unknown> }[] = [];
  const eventOfLine = new Map<number, number>();
  const statements = parcelStatements(db, vendorId, first, shipment.trackingNumber, planned);
  const opened: { index: number; patch: (eventId: string) => BatchItem<"sqlite"> }[] = [];
  for (const { line, parcel } of planned) {
    eventOfLine.set(line.id, events.length);
    const { quantity, carrierName, serviceLevel, shippedAt, units, status, shippedQuantity } = parcel;
    events.push({
      type: MOVE_EVENTS.ship,
      payload: {
        lineId: line.id,
        lineStatus: status,
        ...({
          trackingNumber: shipment.trackingNumber,
          carrierName,
          serviceLevel,
          quantity,
          shippedQuantity,
          shippedAt,
          ...(units.length > 0 ? { units } : {}),
        } satisfies LineMoveDetails<typeof MOVE_EVENTS.ship>),
        at,
      },
    });
    // A parcel of an exchange or loan line opens the return of its units (src/api/returns/open.ts), its event after the line's.
    const open = openOnShipment(db, { ...line, vendorId }, quantity, shippedAt, at);
    if (open) {
      statements.push(...open.statements);
      opened.push({ index: events.length, patch: open.patch });
      events.push(open.event);
    }
  }
  const shipped = new Map(planned.map(({ line, parcel }) => [line.id, { shippedQuantity: parcel.shippedQuantity }]));
  const rematch = rematchAfter(db, invoicing, shipped, at);
  statements.push(...rematch.statements);
  events.push(...rematch.events);
  const eventIds = events.map(() => crypto.randomUUID());
  const revisions: LineRevision[] = planned.map(({ line, parcel }) => ({
    lineId: line.id,
    actor: "vendor",
    actorId: vendorId,
    code: "ship",
    changes: [
      ...changeOf("status", line.status as LineStatus, parcel.status),
      ...changeOf("shippedQuantity", line.shippedQuantity, parcel.shippedQuantity),
    ],
  }));
  const outcome = await commitOrderChange(db, {
    order: { id: first.orderId, tenantId: first.tenantId, orderNumber: first.orderNumber, version: first.version, lines: states },
    lineChanges: new Map(planned.map(({ line, parcel }) => [line.id, { status: parcel.status, shippedQuantity: parcel.shippedQuantity }])),
    statements,
    event: events[0]!,
    moreEvents: events.slice(1),
    eventIds,
    also: opened.map(({ index, patch }) => patch(eventIds[index]!)),
    revisions,
    at: now,
  });
  return {
    orderNumber: first.orderNumber,
    orderStatus: outcome.status,
    eventIds: ids.map((id) => {
      const event = eventOfLine.get(id);
      return event === undefined ? null : eventIds[event]!;
    }),
  };
}

/**
 * The parcel's rows, whatever its number of lines: its shipping document (made on its first line, to the order's
 * ship-to address, as the single ship makes it), each line's quantity in it, the lines' shipped quantity and status, and
 * the units: four statements, the lines and units as one JSON parameter each (D1 binds at most 100 values a statement).
 */
function parcelStatements(
  db: Database,
  vendorId: number,
  order: LineRead,
  trackingNumber: string,
  planned: PlannedLine[],
): BatchItem<"sqlite">[] {
  const { carrierName, serviceLevel, shippedAt } = planned[0]!.parcel;
  const parcel = parcelWhere(order.orderId, vendorId, trackingNumber);
  const lines = JSON.stringify(planned.map(({ line, parcel }) => ({ lineId: line.id, quantity: parcel.quantity, status: parcel.status })));
  const ofLine = (field: string) =>
    sql`(select j.value ->> ${field} from json_each(${lines}) j where j.value ->> 'lineId' = ${orderLines.id})`;
  const statements: BatchItem<"sqlite">[] = [
    insertShippingDocument(db, { orderId: order.orderId, vendorId, trackingNumber, carrierName, serviceLevel, shippedAt }),
    db.insert(shippingDocumentLines).select(
      db
        .select({
          shippingDocumentId: shippingDocuments.id,
          lineId: sql`j.value ->> 'lineId'`.as("line_id"),
          quantity: sql`j.value ->> 'quantity'`.as("quantity"),
        })
        .from(shippingDocuments)
        .innerJoin(sql`json_each(${lines}) j`, sql`true`)
        .where(parcel),
    ),
    db
      .update(orderLines)
      .set({ statusName: sql`${ofLine("status")}`, shippedQuantity: sql`${orderLines.shippedQuantity} + ${ofLine("quantity")}` })
      .where(sql`${orderLines.id} in (select j.value ->> 'lineId' from json_each(${lines}) j)`),
  ];
  const units = planned.flatMap(({ line, parcel }) => parcel.units.map((unit) => ({ ...unit, lineId: line.id })));
  if (units.length > 0) statements.push(insertShippedUnits(db, order.orderId, units, parcel));
  return statements;
}
