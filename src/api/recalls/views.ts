import { and, asc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, orders, recallUnits, shippedUnits, tenantRecalls } from "../../db/schema";
import { notFound } from "../../platform/errors";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { recallSearch } from "./search-fields";

/** The recalls that touch a tenant's units, as the buyer reads them from its store (docs/recalls.md, "For the hospital"). */

/** Units GET /recalls/{id} lists (a recall touching more is rare; its counts say so). */
export const UNITS_LISTED = 1000;

export const recallNotFound = () => notFound("No recall with that id touches this tenant's units.");

type RecallRow = typeof tenantRecalls.$inferSelect;

export function recallView(row: RecallRow) {
  return {
    id: row.recallId,
    productNumber: row.productNumber,
    source: row.source,
    classification: row.classification,
    status: row.status,
    firm: row.firm,
    productDescription: row.productDescription,
    reason: row.reason,
    codeInfo: row.codeInfo,
    initiatedOn: row.initiatedOn,
    classifiedOn: row.classifiedOn,
    terminatedOn: row.terminatedOn,
    acknowledgedAt: row.acknowledgedAt,
    affectedUnits: row.affectedUnits,
    reviewUnits: row.reviewUnits,
    matchedAt: row.matchedAt,
    lastUpdated: row.updatedAt,
  };
}
export type RecallView = ReturnType<typeof recallView>;

/** The units a recall touches (not cleared, unless asked), with the order, line and facility of each. */
export function unitsQuery(db: Database, recallId: number, where?: SQL) {
  return db
    .select({
      unitId: shippedUnits.id,
      deviceId: shippedUnits.deviceId,
      agency: shippedUnits.agency,
      lot: shippedUnits.lot,
      serial: shippedUnits.serial,
      expiry: shippedUnits.expiry,
      units: shippedUnits.units,
      orderNumber: orders.orderNumber,
      lineId: shippedUnits.lineId,
      partNumber: orderLines.partNumber,
      facilityId: orders.facilityId,
      outcome: recallUnits.outcome,
      reason: recallUnits.reason,
      disposition: recallUnits.disposition,
      dispositionAt: recallUnits.dispositionAt,
      returnId: recallUnits.returnId,
    })
    .from(recallUnits)
    .innerJoin(shippedUnits, eq(shippedUnits.id, recallUnits.unitId))
    .innerJoin(orderLines, eq(orderLines.id, shippedUnits.lineId))
    .innerJoin(orders, eq(orders.id, shippedUnits.orderId))
    .where(and(eq(recallUnits.recallId, recallId), where ?? ne(recallUnits.outcome, "cleared")))
    .orderBy(asc(recallUnits.outcome), asc(shippedUnits.id));
}

export async function searchRecalls(db: Database, request: SearchRequest, p: Page) {
  const plan = planSearch(recallSearch, request);
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select()
      .from(tenantRecalls)
      .where(plan.filter)
      .orderBy(...plan.orderBy)
      .limit(p.limit)
      .offset(p.offset),
    tenantRecalls,
    plan.filter,
  );
  return { recalls: rows.map(recallView), pagination: paginationOf(p, total, rows.length) };
}

/** The recall's row in the tenant's store (none when it touches none of the tenant's units). */
export const recallQuery = (db: Database, recallId: number) => db.select().from(tenantRecalls).where(eq(tenantRecalls.recallId, recallId));

/** One recall with its units, in one batch; 404 when it touches none of the tenant's units. */
export async function findRecall(db: Database, recallId: number) {
  const [rows, units] = await db.batch([recallQuery(db, recallId), unitsQuery(db, recallId).limit(UNITS_LISTED)]);
  if (!rows[0]) throw recallNotFound();
  return { ...recallView(rows[0]), units };
}

/** The recall's units among `unitIds` (not cleared). */
export const unitsAmong = (db: Database, recallId: number, unitIds: readonly number[]) =>
  unitsQuery(db, recallId, and(ne(recallUnits.outcome, "cleared"), inArray(recallUnits.unitId, [...unitIds])));

/** Marks the recall acknowledged by the client, once (a second acknowledgement keeps the first). */
export const acknowledgeStatement = (db: Database, recallId: number, clientId: string, at: string) =>
  db
    .update(tenantRecalls)
    .set({
      acknowledgedAt: sql`coalesce(${tenantRecalls.acknowledgedAt}, ${at})`,
      acknowledgedBy: sql`coalesce(${tenantRecalls.acknowledgedBy}, ${clientId})`,
    })
    .where(eq(tenantRecalls.recallId, recallId));
