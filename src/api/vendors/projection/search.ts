import { integer, SQLiteSyncDialect, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { compileQuery } from "../../../query/compile";
import { defineSearchResource } from "../../../query/fields";
import { parseQuery } from "../../../query/parser";

/**
 * The q language on a vendor's lines (GET /vendor/api/order-lines?q=): compiled here, in the API Worker, against the
 * projection's columns (schema.ts: the list's own and, from migration 0004, columns generated from the line's JSON),
 * and run by each shard as a condition of its list with every value a bound parameter.
 */

/** The projection's table as the compiler names its columns (its schema is schema.ts's migrations). */
const vendorLines = sqliteTable("vendor_lines", {
  lineId: integer("line_id"),
  orderNumber: text("order_number"),
  statusName: text("status_name"),
  orderDate: text("order_date"),
  partNumber: text("part_number"),
  description: text("description"),
  poNumber: text("po_number"),
  quantity: integer("quantity"),
  shipToCity: text("ship_to_city"),
  shipToState: text("ship_to_state"),
});

export const vendorLineSearch = defineSearchResource({
  name: "order lines",
  path: "/vendor/api/order-lines",
  idColumn: vendorLines.lineId,
  defaultSort: "orderDate",
  fields: [
    { name: "orderNumber", type: "String", column: vendorLines.orderNumber, sortable: false, description: "The order's number" },
    {
      name: "status",
      aliases: ["statusName"],
      type: "Token",
      column: vendorLines.statusName,
      sortable: false,
      description: "The line's status",
    },
    { name: "orderDate", type: "DateTime", column: vendorLines.orderDate, sortable: true, description: "When the order was placed" },
    { name: "partNumber", type: "String", column: vendorLines.partNumber, sortable: false, description: "The line's part number" },
    { name: "description", type: "String", column: vendorLines.description, sortable: false, description: "e.g. `description~cable`" },
    { name: "poNumber", type: "String", column: vendorLines.poNumber, sortable: false, description: "The buyer's PO number" },
    { name: "quantity", type: "Numeric", unit: "integer", column: vendorLines.quantity, sortable: false, description: "Units ordered" },
    { name: "shipToCity", type: "String", column: vendorLines.shipToCity, sortable: false, description: "Where it ships: the city" },
    { name: "shipToState", type: "Token", column: vendorLines.shipToState, sortable: false, description: "Where it ships: the state" },
  ],
});

/** A shard's condition: SQL text with `?` placeholders, and their values in order. */
export interface LineCondition {
  sql: string;
  params: (string | number)[];
}

const dialect = new SQLiteSyncDialect();

/** The condition of `q` on a shard's lines; null for an empty query. A query the language refuses throws its 400. */
export function lineCondition(q: string | undefined): LineCondition | null {
  if (!q?.trim()) return null;
  const compiled = compileQuery(vendorLineSearch, parseQuery(q));
  if (!compiled) return null;
  const { sql, params } = dialect.sqlToQuery(compiled);
  return { sql, params: params as (string | number)[] };
}
