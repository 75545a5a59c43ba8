import { z } from "@hono/zod-openapi";
import { DELIVERED_EVENT_TYPES, type DeliveredEventType, isOrderEvent, isRecallEvent, TEST_EVENT_TYPE } from "./types";

/**
 * The contract of every event, in the feed and in webhook deliveries (docs/api.md, "Event types and payloads"): one
 * `data` schema per type, the event around it, and `Event`, their union on `type`. Producers type what they write
 * with EventData. Statuses and codes are strings with examples, not enums: src/api/orders imports this module, so it
 * cannot import the lists from there (folder cycle), and a receiver validating against the document keeps
 * accepting a status added later.
 */

const instant = z.string().datetime();
const money = (description: string) =>
  z.string().openapi({ description: `${description}: a decimal string with two decimal places (docs/api.md, "Money")`, example: "12.50" });
const day = z.iso.date();

const orderChange = z.object({
  orderNumber: z.string(),
  status: z.string().openapi({
    description: "The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)",
    example: "PartiallyShipped",
  }),
});

const lineMove = orderChange.extend({
  lineId: z.number().int(),
  lineStatus: z.string().openapi({
    description: "The line's status after the move (a parcel that leaves part of the line to ship keeps its status)",
    example: "Acknowledged",
  }),
  at: instant.openapi({ description: "When the vendor made the move" }),
});
type LineMoveBase = z.infer<typeof lineMove>;

const OrderCreatedData = z.object({
  orderNumber: z.string(),
  companyId: z.number().int(),
  facilityId: z.number().int(),
  requesterId: z.number().int().openapi({ description: "The requester's contact id" }),
  userId: z.number().int(),
  poNumber: z.string().nullable(),
  paymentMethod: z.string().openapi({ description: "Payment method code", example: "PO" }),
  shippingMethod: z.string().openapi({ description: "Shipping method code", example: "GROUND" }),
  total: money("Order total"),
  currency: z.string().openapi({ description: "ISO 4217 currency of the order's amounts", example: "USD" }),
  createdAt: instant,
  lines: z.array(
    z.object({
      lineNumber: z.number().int().openapi({ description: "1, 2, 3... in the order of quoteItems" }),
      priceOptionId: z.string(),
      productId: z.string(),
      vendorId: z.number().int().openapi({ description: "The vendor that fulfils the line (the price option's vendor)" }),
      quantity: z.number().int(),
      price: money("Unit price"),
      extendedPrice: money("price × quantity"),
    }),
  ),
});

const endpointData = z.object({ endpointId: z.string() });

const substitute = z.object({ partNumber: z.string(), description: z.string() });

const confirmedLine = z.object({
  lineId: z.number().int(),
  code: z.string().openapi({ description: "The X12 855 line status code (docs/api.md, Confirmations)", example: "IP" }),
  name: z.string().openapi({ description: "The code's name", example: "price_changed" }),
  lineStatus: z.string().openapi({ description: "The line's status after the confirmation", example: "Acknowledged" }),
  awaitingBuyer: z.boolean().openapi({ description: "The change waits for the buyer's answer (POST .../change-decision)" }),
  contractPriceException: z.boolean().openapi({ description: "The price proposed is above the buyer's contract price" }),
  promisedShipDate: day.nullable().optional(),
  expectedShipDate: day.optional(),
  quantity: z.number().int().optional().openapi({ description: "IQ, IC: the quantity proposed; BP: how much ships now" }),
  previousQuantity: z.number().int().optional(),
  unitPrice: money("The unit price proposed").optional(),
  previousUnitPrice: money("The line's unit price before").optional(),
  currency: z
    .string()
    .optional()
    .openapi({ description: "ISO 4217 currency of unitPrice and previousUnitPrice, with them", example: "USD" }),
  substitute: substitute.optional().openapi({ description: "IS: the product offered instead" }),
  reason: z.string().nullable().optional(),
});

const changeDecision = lineMove.extend({
  code: z.string().openapi({ description: "The X12 855 code of the change answered", example: "IP" }),
  reason: z.string().nullable(),
});

const invoiceEvent = orderChange.extend({
  invoiceId: z.number().int(),
  invoiceNumber: z.string(),
  vendorId: z.number().int(),
  invoiceStatus: z.string().openapi({ description: "matched, exception, accepted or disputed", example: "matched" }),
  total: money("The invoice total"),
  currency: z.string().openapi({ example: "USD" }),
  exceptions: z
    .array(z.object({ lineNumber: z.number().int(), matchStatus: z.string(), explanation: z.string() }))
    .openapi({ description: "The invoice's lines that do not match, each explained (empty when all match)" }),
  reason: z.string().nullable().openapi({ description: "invoice.disputed: the buyer's reason" }),
});

/** Every step of a unit's return (docs/api.md, "Returns, cores, loaners and repairs"): one event, one shape. */
const returnEvent = orderChange.extend({
  returnId: z.number().int(),
  kind: z.string().openapi({ description: "core, loaner, repair or rma", example: "core" }),
  returnStatus: z.string().openapi({ description: "The return's status after the step", example: "open" }),
  lineId: z.number().int(),
  vendorId: z.number().int(),
  quantity: z.number().int(),
  rmaNumber: z.string().nullable(),
  dueAt: day.nullable().openapi({ description: "When it is due back (cores, loaners; a return's return-by date)" }),
  at: instant.openapi({ description: "When the step was taken" }),
  currency: z.string().openapi({ description: "ISO 4217 currency of `amount`", example: "USD" }),
  carrierName: z.string().optional(),
  trackingNumber: z.string().optional(),
  reason: z.string().nullable().optional(),
  amount: money(
    "core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price; return.authorized: the restocking fee",
  ).optional(),
  invoiceId: z.number().int().optional().openapi({ description: "core.charged, loaner.charged: the invoice of the charge" }),
  repaired: z.boolean().optional().openapi({ description: "repair.returned: whether the unit was repaired" }),
});

/** A delivered unit a recall touches, as the recall's events and GET /recalls/{id} name it (docs/recalls.md). */
export const RecallUnitSchema = z
  .object({
    unitId: z.number().int(),
    deviceId: z.string().openapi({ description: "The device identifier scanned when the unit shipped", example: "00812345000014" }),
    agency: z.string().openapi({ example: "GS1" }),
    lot: z.string().nullable(),
    serial: z.string().nullable(),
    expiry: day.nullable(),
    units: z.number().int().openapi({ description: "Units the code counts (a case's code counts its quantity)" }),
    orderNumber: z.string(),
    lineId: z.number().int(),
    partNumber: z.string(),
    facilityId: z.number().int().openapi({ description: "The facility the order shipped to" }),
    outcome: z.string().openapi({
      description:
        "affected, needs_review (a clause the shipment's record cannot decide: someone checks the unit) or cleared (a revision of the recall left it out)",
      example: "affected",
    }),
    reason: z
      .string()
      .openapi({ description: "The clause that decided, in words", example: "device identifier 00812345000014, its lot listed" }),
  })
  .openapi("RecallUnit");

/** What a recall says of itself, in its events and in the buyer's and vendor's answers (src/api/recalls/schemas.ts). */
export const recallFields = {
  productNumber: z
    .string()
    .openapi({ description: "The FDA product number (Z-NNNN-YYYY), or the vendor's notice number", example: "Z-1234-2026" }),
  source: z.string().openapi({ description: "fda, vendor (a vendor's field safety notice) or sandbox", example: "fda" }),
  classification: z.string().nullable().openapi({ example: "Class II" }),
  status: z.string().openapi({ description: "open, completed (the firm's action is done) or terminated", example: "open" }),
  firm: z.string().nullable(),
  productDescription: z.string().nullable(),
  initiatedOn: day.nullable(),
  terminatedOn: day.nullable(),
};

const recallEvent = z.object({
  recallId: z.number().int(),
  ...recallFields,
  reason: z.string().nullable(),
  affectedUnits: z.number().int(),
  reviewUnits: z.number().int().openapi({ description: "Units whose outcome is needs_review" }),
  units: z.array(RecallUnitSchema).openapi({ description: "The first 100 units the recall touches (GET /recalls/{id} lists them all)" }),
});

const EVENTS = {
  "order.created": { when: "An order was placed (POST /orders)", data: OrderCreatedData },
  "order.acknowledged": { when: "A vendor acknowledged a line", data: lineMove.extend({ promisedShipDate: day }) },
  "order.backordered": {
    when: "A vendor backordered a line",
    data: lineMove.extend({ expectedShipDate: day, reason: z.string().nullable() }),
  },
  "order.shipped": {
    when: "A vendor shipped a parcel with (part of) a line",
    data: lineMove.extend({
      trackingNumber: z.string(),
      carrierName: z.string(),
      serviceLevel: z.string(),
      quantity: z.number().int().openapi({ description: "How much of the line is in this parcel" }),
      shippedQuantity: z.number().int().openapi({ description: "How much of the line has shipped so far" }),
      shippedAt: instant,
      units: z
        .array(
          z.object({
            agency: z.enum(["GS1", "HIBCC", "ICCBBA"]),
            deviceId: z.string(),
            lot: z.string().nullable(),
            serial: z.string().nullable(),
            expiry: z.string().nullable(),
            units: z.number().int().openapi({ description: "Units the code names: 1, or a case's quantity" }),
          }),
        )
        .optional()
        .openapi({ description: "The UDIs the vendor scanned from the parcel's units, when it sent them (lot and serial for recalls)" }),
    }),
  },
  "order.delivered": { when: "A vendor marked a line delivered", data: lineMove.extend({ deliveredAt: instant }) },
  "order.cancelled": {
    when: "The buyer cancelled lines (POST /orders/{orderNumber}/cancel)",
    data: orderChange.extend({ cancelledLineIds: z.array(z.number().int()), reason: z.string().nullable(), cancelledAt: instant }),
  },
  "order.rejected": { when: "A vendor rejected a line", data: lineMove.extend({ reason: z.string() }) },
  "order.confirmed": {
    when: "A vendor confirmed lines with X12 855 codes (POST /vendor/api/order-confirmations)",
    data: orderChange.extend({
      type: z.string().openapi({ description: "accept, detail, except, backordered or reject", example: "detail" }),
      lines: z.array(confirmedLine).openapi({ description: "Each line the confirmation changed" }),
      at: instant,
    }),
  },
  "order.change_accepted": {
    when: "The buyer accepted a vendor's change of a line (one within the tenant's automatic acceptance applies in order.confirmed)",
    data: changeDecision,
  },
  "order.change_declined": { when: "The buyer declined a vendor's change of a line: the line is cancelled", data: changeDecision },
  "invoice.received": { when: "A vendor sent an invoice (POST /vendor/api/invoices)", data: invoiceEvent },
  "invoice.matched": { when: "Every line of an invoice matches the order and what shipped", data: invoiceEvent },
  "invoice.exception": {
    when: "A line of an invoice does not match (price, quantity, not on the order, contract price)",
    data: invoiceEvent,
  },
  "invoice.accepted": { when: "The buyer accepted an invoice for payment", data: invoiceEvent },
  "invoice.disputed": { when: "The buyer disputed an invoice, with a reason", data: invoiceEvent },
  "credit_memo.received": {
    when: "A vendor sent a credit memo against an invoice (POST /vendor/api/credit-memos)",
    data: orderChange.extend({
      creditMemoId: z.number().int(),
      creditMemoNumber: z.string(),
      invoiceId: z.number().int(),
      invoiceNumber: z.string(),
      vendorId: z.number().int(),
      total: money("The credit's total"),
      currency: z.string().openapi({ example: "USD" }),
    }),
  },
  "core.opened": { when: "An exchange line shipped: its core is to come back (RMA number, due date, charge if late)", data: returnEvent },
  "core.due_soon": { when: "A core is due back within the tenant's warning days (once per core)", data: returnEvent },
  "core.overdue": { when: "A core was not shipped back by its due date (once per core)", data: returnEvent },
  "core.shipped": { when: "The buyer shipped a core back, with carrier and tracking", data: returnEvent },
  "core.received": { when: "The vendor received a core and accepted it", data: returnEvent },
  "core.refused": { when: "The vendor received a core and refused it (not repairable), with a reason", data: returnEvent },
  "core.charged": {
    when: "An overdue or refused core was billed: an invoice of its core charge, linked to the order line",
    data: returnEvent,
  },
  "loaner.opened": { when: "A loaner shipped: it is to come back by its due date", data: returnEvent },
  "loaner.due_soon": { when: "A loaner is due back within the tenant's warning days (once per loaner)", data: returnEvent },
  "loaner.overdue": {
    when: "A loaner was not shipped back by its due date: late fees accrue per day (once per loaner)",
    data: returnEvent,
  },
  "loaner.shipped": { when: "The buyer shipped a loaner back", data: returnEvent },
  "loaner.received": { when: "The vendor received a loaner back", data: returnEvent },
  "loaner.charged": { when: "A loaner came back late: an invoice of its late fees", data: returnEvent },
  "repair.unit_shipped": { when: "The buyer sent a unit in for repair, with tracking", data: returnEvent },
  "repair.received": { when: "The vendor received a unit sent in for repair", data: returnEvent },
  "repair.diagnosed": { when: "The vendor diagnosed a unit as repairable within the flat rate: the repair goes on", data: returnEvent },
  "repair.quoted": {
    when: "The vendor diagnosed a unit as beyond the flat rate, with a new price the buyer approves or declines",
    data: returnEvent,
  },
  "repair.approved": { when: "The buyer approved a repair beyond the flat rate at its new price", data: returnEvent },
  "repair.declined": { when: "The buyer declined a repair beyond the flat rate: the unit comes back unrepaired", data: returnEvent },
  "repair.returned": { when: "The vendor sent a unit back, repaired or not, with tracking", data: returnEvent },
  "return.requested": { when: "The buyer requested a return of delivered units, with a reason", data: returnEvent },
  "return.authorized": { when: "The vendor authorized a return: RMA number, return-by date, restocking fee", data: returnEvent },
  "return.declined": { when: "The vendor declined a return, with a reason", data: returnEvent },
  "return.shipped": { when: "The buyer shipped a return back", data: returnEvent },
  "return.received": { when: "The vendor received a return: its credit memo follows", data: returnEvent },
  "recall.affects_you": {
    when: "A recall touches units the tenant received (affected, or to review): the first time it does",
    data: recallEvent,
  },
  "recall.updated": { when: "A recall touching the tenant changed, or touches more of its units", data: recallEvent },
  "recall.closed": { when: "A recall touching the tenant was terminated", data: recallEvent },
  "webhook_endpoint.disabled": {
    when: "A webhook endpoint whose deliveries failed for 3 days was disabled",
    data: endpointData.extend({ url: z.string(), reason: z.string(), disabledAt: instant }),
  },
  [TEST_EVENT_TYPE]: {
    when: "A test delivery (POST /webhook-endpoints/{id}/test only; never in the feed)",
    data: endpointData.extend({ message: z.string() }),
  },
} satisfies Record<DeliveredEventType, { when: string; data: z.ZodObject }>;

export type EventData<T extends DeliveredEventType> = z.infer<(typeof EVENTS)[T]["data"]>;
/** What a change of an existing order says besides the order number and status that src/api/orders/changes.ts adds. */
export type OrderChangePayload<T extends DeliveredEventType> = Omit<EventData<T>, keyof z.infer<typeof orderChange>>;
/** What a vendor move says besides its line, the line's status and when (src/api/vendors/fulfilment.ts). */
export type LineMoveDetails<T extends DeliveredEventType> = Omit<EventData<T>, keyof LineMoveBase>;

/**
 * Order events (order.*, invoice.*, credit_memo.*, returns) concern an order and count its versions; recall.* events
 * concern a recall, webhook_endpoint.* events an endpoint.
 */
const subjectOf = (type: DeliveredEventType) =>
  isOrderEvent(type)
    ? {
        orderNumber: z.string().openapi({ description: "The order" }),
        sequence: z.number().int().min(1).openapi({
          description: "The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a missed event",
        }),
      }
    : {
        orderNumber: z.string().openapi({
          description: isRecallEvent(type)
            ? "The recall's id (the event is about a recall, not an order)"
            : "The webhook endpoint's id (the event is about the endpoint, not an order)",
        }),
        sequence: z.null(),
      };

/** `order.created` -> `OrderCreatedEvent`: the event's schema in the document. */
export const eventSchemaName = (type: DeliveredEventType) =>
  `${type.replace(/(^|[._])([a-z])/g, (_, _separator, letter: string) => letter.toUpperCase())}Event`;

const eventSchema = <T extends DeliveredEventType>(type: T) =>
  z
    .object({
      id: z.string().openapi({ description: "The event id: the same in the feed and in every webhook delivery of it" }),
      type: z.literal(type),
      createdAt: instant,
      ...subjectOf(type),
      data: EVENTS[type].data,
    })
    .openapi(eventSchemaName(type), { description: `${EVENTS[type].when}.` });

export const EVENT_SCHEMAS = Object.fromEntries(DELIVERED_EVENT_TYPES.map((type) => [type, eventSchema(type)])) as {
  [T in DeliveredEventType]: ReturnType<typeof eventSchema<T>>;
};

/** When each type is sent, for the document's webhooks. */
export const eventWhen = (type: DeliveredEventType) => EVENTS[type].when;

export const EventSchema = z
  .discriminatedUnion(
    "type",
    DELIVERED_EVENT_TYPES.map((type) => EVENT_SCHEMAS[type]) as [
      ReturnType<typeof eventSchema<DeliveredEventType>>,
      ...ReturnType<typeof eventSchema<DeliveredEventType>>[],
    ],
  )
  .openapi("Event", {
    description: "An event, in the feed and as a webhook body: `data` is typed by `type` (docs/api.md, Event types and payloads)",
  });
export type Event = z.infer<typeof EventSchema>;
