import { and, desc, eq, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { orderLines, orders, unitReturns } from "../../db/schema";
import { centsToText, MARKET_CURRENCY } from "../../platform/money";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { termsOrBuy } from "../../shared/catalog/purchase-terms";
import { RETURN_COLUMNS, RETURN_CONTEXT, type ReturnScope, scopeOf, withContext } from "./returns";
import { returnSearch } from "./search-fields";
import { daysLate, FINAL_STATUSES, type ReturnStep, STEPS, type StepRule } from "./steps";
import { withdrawnRepair } from "./take";

/** Returns as the buyer and their vendor read them (docs/api.md, "Returns, cores, loaners and repairs"). */

const returnsQuery = (db: Database) =>
  db
    .select({ ...RETURN_COLUMNS, ...RETURN_CONTEXT })
    .from(unitReturns)
    .innerJoin(orders, eq(orders.id, unitReturns.orderId))
    .innerJoin(orderLines, eq(orderLines.id, unitReturns.lineId));
type Joined = ReturnType<typeof withContext>;

/** Money of a return's view: a decimal string, or null where it has none. */
const money = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : centsToText(cents));
const day = (instant: string | null) => instant?.slice(0, 10) ?? null;

/** The route action (POST .../{action}) that takes each step: what a record's `nextSteps` name. */
const ACTION_OF: Readonly<Record<ReturnStep, string>> = {
  open: "ship",
  request: "returns",
  due_soon: "",
  overdue: "",
  charge: "",
  ship: "ship",
  authorize: "authorize",
  decline: "decline",
  receive: "receive",
  refuse: "receive",
  diagnose: "diagnose",
  quote: "diagnose",
  approve: "repair-decision",
  reject_quote: "repair-decision",
  send_back: "send-back",
};

export function returnView(joined: Joined, now = new Date()) {
  const { row, orderNumber, partNumber, description, linePriceCents, purchaseTerms } = joined;
  const terms = termsOrBuy(purchaseTerms);
  const { kind } = row;
  // A repair whose line was withdrawn before its unit went in reads as cancelled (src/api/returns/take.ts).
  const cancelled = withdrawnRepair(joined);
  const status = cancelled ? "cancelled" : row.status;
  const open = !cancelled && !FINAL_STATUSES[kind].includes(row.status);
  // A loaner's late fees so far: to the day it left, or to today while it is still out.
  const lateDays = kind === "loaner" && row.dueAt ? daysLate(row.dueAt, row.inbound?.shippedAt ?? now.toISOString()) * row.quantity : null;
  const restocking = kind === "rma" ? (row.chargeCents ?? 0) : null;
  return {
    returnId: row.id,
    kind,
    status,
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
    currency: MARKET_CURRENCY,
    invoiceId: row.invoiceId,
    inbound: row.inbound ?? null,
    outbound: row.outbound ?? null,
    receivedAt: row.receivedAt,
    outcome: row.outcome,
    outcomeReason: row.outcomeReason,
    dueSoonNotifiedAt: row.dueSoonAt,
    createdAt: row.createdAt,
    lastUpdated: row.updatedAt,
    nextSteps: cancelled ? [] : nextSteps(kind, row.status),
  };
}
export type ReturnRecord = ReturnType<typeof returnView>;

/** The actions the buyer or the vendor may take next, by their routes' names (two steps may share one: receive, refuse). */
function nextSteps(kind: Joined["row"]["kind"], status: string) {
  const seen = new Set<string>();
  return (Object.entries(STEPS[kind]) as [ReturnStep, StepRule][])
    .filter(([, rule]) => rule.from.includes(status) && rule.actor !== "system")
    .map(([step, rule]) => ({ step: ACTION_OF[step], actor: rule.actor as "buyer" | "vendor" }))
    .filter((next) => !seen.has(`${next.actor}:${next.step}`) && seen.add(`${next.actor}:${next.step}`));
}

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
