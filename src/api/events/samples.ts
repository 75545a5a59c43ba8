import type { EventData } from "./schemas";
import { type DeliveredEventType, TEST_EVENT_TYPE } from "./types";

/**
 * A sample of every event type, in its documented shape (src/api/events/schemas.ts; a test validates each), for
 * POST /webhook-endpoints/{id}/test with `type`: a receiver is built and checked against every type before any real
 * order exists. The order number MP-SAMPLE-0001 names no order.
 */
export const SAMPLE_ORDER_NUMBER = "MP-SAMPLE-0001";

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
      total: 240,
      createdAt: at,
      lines: [
        { lineNumber: 1, priceOptionId: "po_sample", productId: "MP-0000001", vendorId: 4, quantity: 2, price: 120, extendedPrice: 240 },
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
