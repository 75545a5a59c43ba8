import { and, desc, eq, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, orders, unitReturns } from "../../db/schema";
import { centsToText } from "../../platform/money";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { termsOrBuy } from "../../shared/catalog/purchase-terms";
import { RETURN_COLUMNS, RETURN_CONTEXT, type ReturnScope, scopeOf, withContext } from "./returns";
import { returnSearch } from "./search-fields";
import { daysLate, FINAL_STATUSES, type ReturnStep, STEPS } from "./steps";

/** Returns as the buyer and their vendor read them (docs/api.md, "Returns, cores, loaners and repairs"). */

const returnsQuery = (db: Database) =>
  db
    .select({ ...RETURN_COLUMNS, ...RETURN_CONTEXT })
    .from(unitReturns)
    .innerJoin(orders, eq(orders.id, unitReturns.orderId))
    .innerJoin(orderLines, eq(orderLines.id, unitReturns.lineId));
type Joined = ReturnType<typeof withContext>;

const money = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : centsToText(cents));
const day = (instant: string | null) => instant?.slice(0, 10) ?? null;

export function returnView({ row, orderNumber, partNumber, description, linePriceCents, purchaseTerms }: Joined, now = new Date()) {
  const terms = termsOrBuy(purchaseTerms);
  const { kind } = row;
  const open = !FINAL_STATUSES[kind].includes(row.status);
  // A loaner's late fees so far: to the day it left, or to today while it is still out.
  const lateDays = kind === "loaner" && row.dueAt ? daysLate(row.dueAt, row.inbound?.shippedAt ?? now.toISOString()) * row.quantity : null;
  const restocking = kind === "rma" ? (row.chargeCents ?? 0) : null;
  return {
    returnId: row.id,
    kind,
    status: row.status,
    open,
    orderNumber,
    lineId: row.lineId,
    vendorId: row.vendorId,
    facilityId: row.facilityId,
    partNumber,
    description,
    quantity: row.quantity,
    rmaNumber: row.rmaNumber,
    reason: row.reason,
    note: row.note,
    serialNumber: row.serial,
    dueAt: day(row.dueAt),
    returnTo: row.returnTo,
    coreCharge: kind === "core" ? money(row.chargeCents) : null,
    lateFeePerDay: kind === "loaner" ? money(row.chargeCents) : null,
    accruedLateFees: lateDays === null || terms.type !== "loan" ? null : centsToText(lateDays * terms.lateFeePerDayCents),
    repairPrice: kind === "repair" ? money(row.chargeCents ?? linePriceCents) : null,
    proposedPrice: kind === "repair" ? money(row.proposedPriceCents) : null,
    restockingFee: money(restocking),
    creditDue: kind === "rma" && row.status !== "declined" ? centsToText(row.quantity * linePriceCents - (restocking ?? 0)) : null,
    billed: money(row.billedCents),
    invoiceId: row.invoiceId,
    inbound: row.inbound ?? null,
    outbound: row.outbound ?? null,
    receivedAt: row.receivedAt,
    outcome: row.outcome,
    outcomeReason: row.outcomeReason,
    dueSoonNotifiedAt: row.dueSoonAt,
    createdAt: row.createdAt,
    lastUpdated: row.updatedAt,
    nextSteps: (Object.entries(STEPS[kind]) as [ReturnStep, { from: readonly string[]; actor: string }][])
      .filter(([, rule]) => rule.from.includes(row.status) && rule.actor !== "system")
      .map(([step, rule]) => ({ step, actor: rule.actor as "buyer" | "vendor" })),
  };
}
export type ReturnRecord = ReturnType<typeof returnView>;

async function page(db: Database, where: SQL, page: Page, orderBy: SQL[]) {
  const { rows, total } = await pageWithTotal(
    db,
    returnsQuery(db)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    unitReturns,
    where,
  );
  const now = new Date();
  return { records: rows.map((row) => returnView(withContext(row), now)), total };
}

/** The tenant's returns filtered by `q`. */
export async function searchReturns(db: Database, tenantId: number, request: SearchRequest, p: Page) {
  const plan = planSearch(returnSearch, request);
  const where = and(eq(unitReturns.tenantId, tenantId), plan.filter)!;
  const { records, total } = await page(db, where, p, plan.orderBy);
  return { returns: records, pagination: paginationOf(p, total, records.length) };
}

/** One return, the tenant's or the vendor's own; null when it is neither's. */
export async function findReturn(db: Database, scope: ReturnScope, id: number): Promise<ReturnRecord | null> {
  const rows = await returnsQuery(db).where(and(eq(unitReturns.id, id), scopeOf(scope)));
  return rows[0] ? returnView(withContext(rows[0])) : null;
}

/** The returns of one of the vendor's lines, newest first. */
export async function returnsOfLine(db: Database, scope: ReturnScope, lineId: number): Promise<ReturnRecord[]> {
  const rows = await returnsQuery(db)
    .where(and(eq(unitReturns.lineId, lineId), scopeOf(scope)))
    .orderBy(desc(unitReturns.id))
    .limit(100);
  return rows.map((row) => returnView(withContext(row)));
}
