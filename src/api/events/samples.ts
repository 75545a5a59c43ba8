import type { Event, EventData } from "./schemas";
import { DELIVERED_EVENT_TYPES, type DeliveredEventType, isOrderEvent, isRecallEvent, TEST_EVENT_TYPE } from "./types";

/**
 * A sample of every event type, in its documented shape (src/api/events/schemas.ts; a test validates each), for
 * POST /webhook-endpoints/{id}/test with `type`: a receiver is built and checked against every type before any real
 * order exists. They are also the example of each type in the document's `webhooks`, which the portal's guides show.
 */

/** Shaped as issued (`ORD-YYYYMMDD-XXXXXXXX`) but never issued: issued numbers have no L (Crockford base32). */
export const SAMPLE_ORDER_NUMBER = "ORD-20261123-SAMPLE01";
/** The recall of the documented samples. */
export const SAMPLE_RECALL_ID = 41;
/** The webhook endpoint of the documented samples. */
export const SAMPLE_ENDPOINT_ID = "we_3k9QJ2mX8pL1vN7r";

/** A plausible order version per sample (created 1, then a move; shipped after an acknowledgement, delivered last). */
export const SAMPLE_SEQUENCES: Partial<Record<DeliveredEventType, number>> = {
  "order.created": 1,
  "order.acknowledged": 2,
  "order.backordered": 2,
  "order.cancelled": 2,
  "order.rejected": 2,
  "order.shipped": 3,
  "order.delivered": 4,
  "order.confirmed": 2,
  "order.change_accepted": 3,
  "order.change_declined": 3,
  "invoice.received": 5,
  "invoice.matched": 6,
  "invoice.exception": 6,
  "invoice.accepted": 7,
  "invoice.disputed": 7,
  "credit_memo.received": 8,
  "core.opened": 4,
  "core.due_soon": 6,
  "core.overdue": 6,
  "core.shipped": 6,
  "core.received": 6,
  "core.refused": 6,
  "core.charged": 6,
  "loaner.opened": 4,
  "loaner.due_soon": 6,
  "loaner.overdue": 6,
  "loaner.shipped": 6,
  "loaner.received": 6,
  "loaner.charged": 6,
  "repair.unit_shipped": 4,
  "repair.received": 6,
  "repair.diagnosed": 6,
  "repair.quoted": 6,
  "repair.approved": 6,
  "repair.declined": 6,
  "repair.returned": 6,
  "return.requested": 4,
  "return.authorized": 6,
  "return.declined": 6,
  "return.shipped": 6,
  "return.received": 6,
};

export function sampleEventData(type: DeliveredEventType, endpointId: string, at: string): EventData<DeliveredEventType> {
  const line = (status: string, lineStatus: string) => ({ orderNumber: SAMPLE_ORDER_NUMBER, status, lineId: 1, lineStatus, at });
  const invoice = (invoiceStatus: string, exceptions: EventData<"invoice.exception">["exceptions"]) => ({
    orderNumber: SAMPLE_ORDER_NUMBER,
    status: "Delivered",
    invoiceId: 1,
    invoiceNumber: "INV-SAMPLE-1",
    vendorId: 4,
    invoiceStatus,
    total: "240.00",
    currency: "USD",
    exceptions,
    reason: null,
  });
  const unitReturn = (kind: string, returnStatus: string, more: Partial<EventData<"core.opened">> = {}) => ({
    orderNumber: SAMPLE_ORDER_NUMBER,
    status: "Delivered",
    returnId: 1,
    kind,
    returnStatus,
    lineId: 1,
    vendorId: 4,
    quantity: 1,
    rmaNumber: kind === "rma" && returnStatus === "requested" ? null : "RMA-SAMPLE-1",
    dueAt: kind === "repair" ? null : at.slice(0, 10),
    at,
    currency: "USD",
    ...more,
  });
  const parcel = { carrierName: "UPS", trackingNumber: "1Z999AA10123456784" };
  const recall = (status: string, more: Partial<EventData<"recall.affects_you">> = {}) => ({
    recallId: SAMPLE_RECALL_ID,
    productNumber: "Z-1234-2026",
    source: "fda",
    classification: "Class II",
    status,
    firm: "Acme Infusion Inc.",
    productDescription: "Acme infusion pump tubing set, REF 4410",
    reason: "Tubing may crack at the connector.",
    initiatedOn: "2026-11-20",
    terminatedOn: status === "terminated" ? at.slice(0, 10) : null,
    affectedUnits: 1,
    reviewUnits: 0,
    units: [
      {
        unitId: 70_000_001,
        deviceId: "00812345000014",
        agency: "GS1",
        lot: "L2611A",
        serial: null,
        expiry: "2028-06-30",
        units: 1,
        orderNumber: SAMPLE_ORDER_NUMBER,
        lineId: 1,
        partNumber: "4410",
        facilityId: 1001,
        outcome: "affected",
        reason: "device identifier 00812345000014, its lot listed",
      },
    ],
    ...more,
  });
  const samples: { [T in DeliveredEventType]: EventData<T> } = {
    "order.created": {
      orderNumber: SAMPLE_ORDER_NUMBER,
      companyId: 101,
      facilityId: 1001,
      requesterId: 50001,
      userId: 1,
      poNumber: "PO-SAMPLE-1",
      paymentMethod: "PO",
      shippingMethod: "GROUND",
      total: "240.00",
      currency: "USD",
      createdAt: at,
      lines: [
        {
          lineNumber: 1,
          priceOptionId: "po_sample",
          productId: "MP-0000001",
          vendorId: 4,
          quantity: 2,
          price: "120.00",
          extendedPrice: "240.00",
        },
      ],
    },
    "order.acknowledged": { ...line("Acknowledged", "Acknowledged"), promisedShipDate: at.slice(0, 10) },
    "order.backordered": { ...line("Backordered", "Backordered"), expectedShipDate: at.slice(0, 10), reason: "Awaiting stock" },
    "order.shipped": {
      ...line("Shipped", "Shipped"),
      trackingNumber: "1Z999AA10123456784",
      carrierName: "UPS",
      serviceLevel: "Ground",
      quantity: 2,
      shippedQuantity: 2,
      shippedAt: at,
    },
    "order.delivered": { ...line("Delivered", "Delivered"), deliveredAt: at },
    "order.cancelled": {
      orderNumber: SAMPLE_ORDER_NUMBER,
      status: "Cancelled",
      cancelledLineIds: [1],
      reason: "No longer needed",
      cancelledAt: at,
    },
    "order.rejected": { ...line("Rejected", "Rejected"), reason: "Discontinued by the manufacturer" },
    "order.confirmed": {
      orderNumber: SAMPLE_ORDER_NUMBER,
      status: "Ordered",
      type: "detail",
      lines: [
        {
          lineId: 1,
          code: "IP",
          name: "price_changed",
          lineStatus: "Ordered",
          awaitingBuyer: true,
          contractPriceException: false,
          unitPrice: "125.00",
          previousUnitPrice: "120.00",
          currency: "USD",
          reason: "Manufacturer price increase",
        },
      ],
      at,
    },
    "order.change_accepted": { ...line("Acknowledged", "Acknowledged"), code: "IP", reason: null },
    "order.change_declined": { ...line("Cancelled", "Cancelled"), code: "IP", reason: "Over budget" },
    "invoice.received": invoice("received", []),
    "invoice.matched": invoice("matched", []),
    "invoice.exception": invoice("exception", [
      { lineNumber: 1, matchStatus: "price_variance", explanation: "Invoiced 125.00 a unit; the order says 120.00 (tolerance 0.00)." },
    ]),
    "invoice.accepted": invoice("accepted", []),
    "invoice.disputed": { ...invoice("disputed", []), reason: "Price does not match our contract" },
    "credit_memo.received": {
      orderNumber: SAMPLE_ORDER_NUMBER,
      status: "Delivered",
      creditMemoId: 2,
      creditMemoNumber: "CM-SAMPLE-1",
      invoiceId: 1,
      invoiceNumber: "INV-SAMPLE-1",
      vendorId: 4,
      total: "10.00",
      currency: "USD",
    },
    "core.opened": unitReturn("core", "open", { amount: "450.00" }),
    "core.due_soon": unitReturn("core", "open"),
    "core.overdue": unitReturn("core", "overdue"),
    "core.shipped": unitReturn("core", "shipped", parcel),
    "core.received": unitReturn("core", "accepted"),
    "core.refused": unitReturn("core", "refused", { reason: "Cracked housing: not repairable" }),
    "core.charged": unitReturn("core", "charged", { amount: "450.00", invoiceId: 2 }),
    "loaner.opened": unitReturn("loaner", "open", { amount: "25.00" }),
    "loaner.due_soon": unitReturn("loaner", "open"),
    "loaner.overdue": unitReturn("loaner", "overdue"),
    "loaner.shipped": unitReturn("loaner", "shipped", parcel),
    "loaner.received": unitReturn("loaner", "received"),
    "loaner.charged": unitReturn("loaner", "charged", { amount: "75.00", invoiceId: 2 }),
    "repair.unit_shipped": unitReturn("repair", "shipped", parcel),
    "repair.received": unitReturn("repair", "received"),
    "repair.diagnosed": unitReturn("repair", "repairing"),
    "repair.quoted": unitReturn("repair", "quoted", { amount: "980.00", reason: "Main board replacement needed" }),
    "repair.approved": unitReturn("repair", "repairing", { amount: "980.00" }),
    "repair.declined": unitReturn("repair", "declined", { reason: "Over budget" }),
    "repair.returned": unitReturn("repair", "returned", { ...parcel, repaired: true }),
    "return.requested": unitReturn("rma", "requested", { reason: "wrong_part" }),
    "return.authorized": unitReturn("rma", "authorized", { amount: "12.00" }),
    "return.declined": unitReturn("rma", "declined", { reason: "Opened sterile packaging" }),
    "return.shipped": unitReturn("rma", "shipped", parcel),
    "return.received": unitReturn("rma", "received"),
    "recall.affects_you": recall("open"),
    "recall.updated": recall("completed"),
    "recall.closed": recall("terminated"),
    "webhook_endpoint.disabled": {
      endpointId,
      url: "https://receiver.example/medparts",
      reason: "Deliveries failed for 3 days",
      disabledAt: at,
    },
    [TEST_EVENT_TYPE]: { endpointId, message: "A test delivery from Medparts." },
  };
  return samples[type];
}

/** The whole event of a sample, as the feed and a delivery carry it. */
export const sampleEvent = (
  type: DeliveredEventType,
  { id, createdAt, endpointId }: { id: string; createdAt: string; endpointId: string },
) =>
  ({
    id,
    type,
    createdAt,
    ...(isOrderEvent(type)
      ? { orderNumber: SAMPLE_ORDER_NUMBER, sequence: SAMPLE_SEQUENCES[type] ?? 1 }
      : { orderNumber: isRecallEvent(type) ? String(SAMPLE_RECALL_ID) : endpointId, sequence: null }),
    data: sampleEventData(type, endpointId, createdAt),
  }) as Event;

/** The sample the document shows of each event type (its example) and the portal's guides with it; each its own id. */
export const documentedEvent = (type: DeliveredEventType): Event =>
  sampleEvent(type, {
    id: `3f6c1e2a-8b4d-4f7a-9c2e-5d1b7a0e${DELIVERED_EVENT_TYPES.indexOf(type).toString(16).padStart(4, "0")}`,
    createdAt: "2026-11-29T10:15:02.117Z",
    endpointId: SAMPLE_ENDPOINT_ID,
  });
