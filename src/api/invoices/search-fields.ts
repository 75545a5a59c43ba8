import { type SQL, sql } from "drizzle-orm";
import { invoiceLines, invoices, orders } from "../../db/schema";
import { defineSearchResource } from "../../query/fields";

/** A document matches when its order satisfies the condition. */
const ofOrder = (condition: SQL) => sql`exists (select 1 from ${orders} where ${orders.id} = ${invoices.orderId} and ${condition})`;

/** A document matches when any of its lines satisfies the condition. */
const anyLine = (condition: SQL) =>
  sql`exists (select 1 from ${invoiceLines} where ${invoiceLines.invoiceId} = ${invoices.id} and ${condition})`;

/** GET /invoices: the invoices and credit memos vendors sent the caller's tenant. */
export const invoiceSearch = defineSearchResource({
  name: "invoices",
  path: "/invoices",
  idColumn: invoices.id,
  defaultSort: "receivedAt",
  fields: [
    {
      name: "invoiceId",
      aliases: ["id"],
      type: "Numeric",
      unit: "integer",
      column: invoices.id,
      sortable: true,
      description: "Document id",
    },
    {
      name: "invoiceNumber",
      aliases: ["number"],
      type: "String",
      column: invoices.number,
      sortable: true,
      description: "The vendor's invoice (or credit memo) number",
    },
    { name: "kind", type: "Token", column: invoices.kind, sortable: true, description: "`invoice` or `credit_memo`" },
    {
      name: "status",
      type: "Token",
      column: invoices.status,
      sortable: true,
      description: "Invoices: `matched`, `exception`, `accepted`, `disputed`; credit memos: `received`",
    },
    {
      name: "vendorId",
      type: "Numeric",
      unit: "integer",
      column: invoices.vendorId,
      sortable: true,
      description: "The vendor that sent it",
    },
    {
      name: "orderNumber",
      type: "String",
      column: orders.orderNumber,
      sortable: false,
      related: ofOrder,
      description: "The order it bills",
    },
    {
      name: "invoiceDate",
      type: "DateTime",
      day: true,
      column: invoices.invoiceDate,
      sortable: true,
      description: "The date on the document",
    },
    { name: "receivedAt", type: "DateTime", column: invoices.createdAt, sortable: true, description: "When the vendor sent it" },
    {
      name: "total",
      type: "Numeric",
      unit: "cents",
      column: invoices.totalCents,
      sortable: true,
      description: "Its total, a decimal with up to 2 places, e.g. `total>=1500.50`",
    },
    {
      name: "matchStatus",
      type: "Token",
      column: invoiceLines.matchStatus,
      sortable: false,
      related: anyLine,
      description:
        "The match of any of its lines: `matched`, `price_variance`, `quantity_variance`, `not_on_po`, `contract_price_exception`",
    },
  ],
});
