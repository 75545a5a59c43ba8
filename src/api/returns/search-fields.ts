import { type SQL, sql } from "drizzle-orm";
import { orders, unitReturns } from "../../db/schema";
import { defineSearchResource } from "../../query/fields";

/** A return matches when its order satisfies the condition. */
const ofOrder = (condition: SQL) => sql`exists (select 1 from ${orders} where ${orders.id} = ${unitReturns.orderId} and ${condition})`;

/** GET /returns: the tenant's cores, loaners, repairs and returns. */
export const returnSearch = defineSearchResource({
  name: "returns",
  path: "/returns",
  idColumn: unitReturns.id,
  defaultSort: "createdAt",
  fields: [
    {
      name: "returnId",
      aliases: ["id"],
      type: "Numeric",
      unit: "integer",
      column: unitReturns.id,
      sortable: true,
      description: "Return id",
    },
    { name: "kind", type: "Token", column: unitReturns.kind, sortable: true, description: "`core`, `loaner`, `repair` or `rma`" },
    {
      name: "status",
      type: "Token",
      column: unitReturns.status,
      sortable: true,
      description:
        "core: open, shipped, overdue, accepted, refused, charged; loaner: open, overdue, shipped, received, charged; repair: awaiting_unit, shipped, received, quoted, repairing, declined, returned; rma: requested, authorized, declined, shipped, received",
    },
    {
      name: "dueAt",
      aliases: ["dueDate"],
      type: "DateTime",
      column: unitReturns.dueAt,
      sortable: true,
      description: 'When it is due back, e.g. `dueAt<"2026-12-15"` (cores, loaners; a return\'s return-by date)',
    },
    {
      name: "vendorId",
      type: "Numeric",
      unit: "integer",
      column: unitReturns.vendorId,
      sortable: true,
      description: "The vendor it goes back to",
    },
    {
      name: "facilityId",
      type: "Numeric",
      unit: "integer",
      column: unitReturns.facilityId,
      sortable: true,
      description: "The ordering facility",
    },
    {
      name: "serialNumber",
      aliases: ["serial"],
      type: "String",
      column: unitReturns.serial,
      sortable: true,
      description: "The unit's serial number",
    },
    { name: "rmaNumber", aliases: ["rma"], type: "String", column: unitReturns.rmaNumber, sortable: true, description: "The RMA number" },
    { name: "orderNumber", type: "String", column: orders.orderNumber, sortable: false, related: ofOrder, description: "Its order" },
    { name: "lineId", type: "Numeric", unit: "integer", column: unitReturns.lineId, sortable: true, description: "Its order line" },
    { name: "createdAt", type: "DateTime", column: unitReturns.createdAt, sortable: true, description: "When it was opened" },
    { name: "lastUpdated", type: "DateTime", column: unitReturns.updatedAt, sortable: true, description: "Its last step" },
  ],
});
