import { z } from "@hono/zod-openapi";
import { DELIVERED_EVENT_TYPES, type DeliveredEventType, TEST_EVENT_TYPE } from "./types";

/**
 * The contract of every event, in the feed and in webhook deliveries (docs/api.md, "Event types and payloads"): one
 * `data` schema per type, the event around it, and `Event`, their union on `type`. Producers type what they write
 * with EventData. Statuses and codes are strings with examples, not enums: src/api/orders imports this module, so it
 * cannot import the lists from there (folder cycle), and a receiver validating against the document keeps
 * accepting a status added later.
 */

const instant = z.string().datetime();
const day = z.iso.date();
const decimal = (description: string) => z.number().openapi({ description: `${description}, a decimal with at most two decimal places` });

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
  total: decimal("Order total"),
  createdAt: instant,
  lines: z.array(
    z.object({
      lineNumber: z.number().int().openapi({ description: "1, 2, 3... in the order of quoteItems" }),
      priceOptionId: z.string(),
      productId: z.string(),
      vendorId: z.number().int().openapi({ description: "The vendor that fulfils the line (the price option's vendor)" }),
      quantity: z.number().int(),
      price: decimal("Unit price"),
      extendedPrice: decimal("price × quantity"),
    }),
  ),
});

const endpointData = z.object({ endpointId: z.string() });

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

/** Order events concern an order and count its versions; webhook_endpoint.* events concern an endpoint. */
const subjectOf = (type: DeliveredEventType) =>
  type.startsWith("order.")
    ? {
        orderNumber: z.string().openapi({ description: "The order" }),
        sequence: z.number().int().min(1).openapi({
          description: "The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a missed event",
        }),
      }
    : {
        orderNumber: z.string().openapi({ description: "The webhook endpoint's id (the event is about the endpoint, not an order)" }),
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
