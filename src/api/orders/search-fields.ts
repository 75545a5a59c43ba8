import { type SQL, sql } from "drizzle-orm";
import { orderLines, orders, shippedUnits, shippingDocuments } from "../../db/schema";
import { defineSearchResource } from "../../query/fields";

/** An order matches when any of its lines satisfies the condition. */
const anyLine = (condition: SQL) => sql`exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id} and ${condition})`;

/** An order matches when any of its shipping documents satisfies the condition. */
const anyShippingDocument = (condition: SQL) =>
  sql`exists (select 1 from ${shippingDocuments} where ${shippingDocuments.orderId} = ${orders.id} and ${condition})`;

/** An order matches when any unit shipped on it (its UDI as the vendor scanned it) satisfies the condition. */
const anyShippedUnit = (condition: SQL) =>
  sql`exists (select 1 from ${shippedUnits} where ${shippedUnits.orderId} = ${orders.id} and ${condition})`;

/** GET /orders/search: orders of the caller's tenant. */
export const orderSearch = defineSearchResource({
  name: "orders",
  path: "/orders/search",
  idColumn: orders.id,
  defaultSort: "orderDate",
  fields: [
    { name: "orderId", aliases: ["id"], type: "Numeric", unit: "integer", column: orders.id, sortable: true, description: "Order id" },
    {
      name: "orderNumber",
      type: "String",
      column: orders.orderNumber,
      sortable: true,
      description: "Order number returned by `POST /orders`",
    },
    {
      name: "companyId",
      type: "Numeric",
      unit: "integer",
      column: orders.companyId,
      sortable: true,
      description: "Company of the ordering facility",
    },
    {
      name: "facilityId",
      type: "Numeric",
      unit: "integer",
      column: orders.facilityId,
      sortable: true,
      description: "Facility the order was placed for",
    },
    {
      name: "requesterId",
      type: "Numeric",
      unit: "integer",
      column: orders.requesterContactId,
      sortable: true,
      description: "Requester's contact id",
    },
    { name: "requesterName", type: "String", column: orders.requesterName, sortable: true, description: "Requester's full name" },
    {
      name: "poNumber",
      type: "String",
      column: orders.poNumber,
      sortable: true,
      description: "Purchase order number (may be missing: `poNumber:null`)",
    },
    {
      name: "orderDate",
      aliases: ["createdDate"],
      type: "DateTime",
      column: orders.createdAt,
      sortable: true,
      description: "When the order was placed",
    },
    { name: "lastUpdated", type: "DateTime", column: orders.updatedAt, sortable: true, description: "When the order last changed" },
    {
      name: "total",
      type: "Numeric",
      unit: "cents",
      column: orders.totalCents,
      sortable: true,
      description: "Order total, a decimal with up to 2 places, e.g. `total>=1500.50`",
    },
    {
      name: "shippingMethod",
      type: "Token",
      column: orders.shippingMethod,
      sortable: true,
      description: "Shipping method code, e.g. `GROUND`, `NEXT_DAY`",
    },
    { name: "status", type: "Token", column: orders.status, sortable: true, description: "Order status, e.g. `Ordered`, `Shipped`" },
    { name: "paymentMethod", type: "Token", column: orders.paymentMethod, sortable: false, description: "Payment method code, e.g. `PO`" },
    {
      name: "partNumber",
      type: "String",
      column: orderLines.partNumber,
      sortable: false,
      related: anyLine,
      description: "Part number of any line of the order",
    },
    {
      name: "lineStatus",
      type: "Token",
      column: orderLines.statusName,
      sortable: false,
      related: anyLine,
      description: "Status of any line of the order, e.g. `lineStatus:Backordered` (docs/api.md, order lifecycle)",
    },
    {
      name: "trackingNumber",
      type: "String",
      column: shippingDocuments.trackingNumber,
      sortable: false,
      related: anyShippingDocument,
      // Awaiting its first parcel: something left to ship (the to-ship document) and nothing shipped.
      missing: sql`(${anyShippingDocument(sql`${shippingDocuments.shippedAt} is null`)} and not ${anyShippingDocument(sql`${shippingDocuments.trackingNumber} is not null`)})`,
      description:
        "Tracking number of any shipped parcel of the order (`trackingNumber:null`: nothing shipped yet and something left to ship; a fully cancelled or rejected order has neither)",
    },
    {
      name: "lotNumber",
      type: "String",
      column: shippedUnits.lot,
      sortable: false,
      related: anyShippedUnit,
      description: 'Lot of any unit shipped on the order, from the UDIs the vendor scanned (recalls: `lotNumber:"A213B1"`)',
    },
    {
      name: "serialNumber",
      type: "String",
      column: shippedUnits.serial,
      sortable: false,
      related: anyShippedUnit,
      description: "Serial number of any unit shipped on the order, from the UDIs the vendor scanned",
    },
  ],
});
