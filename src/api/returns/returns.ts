import { and, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { orderLines, orders, outboxEvents, type PurchaseTerms, type ReturnKind, unitReturns } from "../../db/schema";
import { notFound, ProblemError } from "../../platform/errors";
import { MARKET_CURRENCY } from "../../platform/money";
import type { EventType } from "../events/types";
import { type InvoicingRows, invoicingOf, invoicingReads } from "../invoices/invoicing";
import { type ChangeOutcome, commitOrderChange, type LineRevision, orderLineStates } from "../orders/changes";
import { readableToken } from "../orders/create";
import type { OrderStatus } from "../orders/lifecycle";
import type { LineFieldChange } from "../orders/line-history";
import { checkStep, type ReturnActor, type ReturnStep } from "./steps";

/**
 * How a step of a unit's return commits (src/api/returns/steps.ts says which may follow which): as a change of its
 * order (src/api/orders/changes.ts), one batch with the return's row, the order's version + 1 per step and one event per
 * step in the order's sequence. Of two steps on one order at once, one wins and the other is a 409 order-changed.
 */

/** Who may see a return: the buyer's tenant (its own or its sandbox twin's), or the vendor (live or sandbox returns). */
export type ReturnScope = { tenantId: number } | { vendorId: number; sandbox?: boolean };

export const scopeOf = (scope: ReturnScope) =>
  "tenantId" in scope
    ? eq(unitReturns.tenantId, scope.tenantId)
    : and(eq(unitReturns.vendorId, scope.vendorId), scope.sandbox ? sql`${unitReturns.tenantId} < 0` : sql`${unitReturns.tenantId} > 0`)!;

export const returnNotFound = () => notFound("No return, core, loaner or repair with that id.");

/** A return as a step reads it: its row, its order line and its order (one read batch with the order's line states). */
export async function readReturn(db: Database, scope: ReturnScope, id: number, { invoicing = false } = {}) {
  const thisReturn = and(eq(unitReturns.id, id), scopeOf(scope))!;
  const orderOfReturn = sql<number>`(select ${unitReturns.orderId} from ${unitReturns} where ${thisReturn})`;
  const vendorOfReturn = sql<number>`(select ${unitReturns.vendorId} from ${unitReturns} where ${thisReturn})`;
  const [found, states, ...invoicingRows] = await db.batch([
    db
      .select({ ...RETURN_COLUMNS, ...RETURN_CONTEXT, version: orders.version })
      .from(unitReturns)
      .innerJoin(orders, eq(orders.id, unitReturns.orderId))
      .innerJoin(orderLines, eq(orderLines.id, unitReturns.lineId))
      .where(thisReturn),
    orderLineStates(db, orderOfReturn),
    // The vendor's invoices on the order, when the step changes what they are matched against (a repair's price).
    ...(invoicing ? invoicingReads(db, vendorOfReturn, orderOfReturn) : []),
  ]);
  if (!found[0]) throw returnNotFound();
  const { version, ...flat } = found[0];
  const read = withContext(flat);
  return {
    ...read,
    version,
    states,
    invoicing: invoicing ? invoicingOf(read.row.vendorId, invoicingRows as InvoicingRows) : null,
  };
}

/**
 * A return's columns and its line's and order's, flat and each under its own name: a D1 batch maps a row's values by
 * column name, so a nested selection or two columns of one name (the line's quantity) would mix them up.
 */
export const RETURN_COLUMNS = getTableColumns(unitReturns);
export const RETURN_CONTEXT = {
  orderNumber: orders.orderNumber,
  linePriceCents: sql<number>`${orderLines.priceCents}`.as("line_price_cents"),
  lineStatus: orderLines.statusName,
  partNumber: orderLines.partNumber,
  description: orderLines.description,
  purchaseTerms: orderLines.purchaseTerms,
};

/** A flat row of RETURN_COLUMNS and RETURN_CONTEXT as the return's row and its context. */
export function withContext<
  T extends typeof unitReturns.$inferSelect & {
    orderNumber: string;
    linePriceCents: number;
    lineStatus: string;
    partNumber: string;
    description: string;
    purchaseTerms: PurchaseTerms | null;
  },
>(flat: T) {
  const { orderNumber, linePriceCents, lineStatus, partNumber, description, purchaseTerms, ...row } = flat;
  return { row: row as typeof unitReturns.$inferSelect, orderNumber, linePriceCents, lineStatus, partNumber, description, purchaseTerms };
}
export type ReturnRead = Awaited<ReturnType<typeof readReturn>>;

/** One step to commit: what it sets on the return, and what its event says besides the return's own fields. */
type ReturnInsert = typeof unitReturns.$inferInsert;
/** Columns a step sets: values, or SQL (the id of a row the same batch writes). */
export type ReturnSet = { [K in keyof ReturnInsert]?: ReturnInsert[K] | SQL };

export interface StepWrite {
  step: ReturnStep;
  set?: ReturnSet;
  payload?: Record<string, unknown>;
}

export interface StepOutcome {
  returnId: number;
  /** Every event written, one per step; empty for a repeat (the step's effect was already in place). */
  eventIds: string[];
  orderStatus: OrderStatus | null;
}

/** What every event of a return says: the return as the step leaves it (`src/api/events/schemas.ts`, returnEvent). */
export function returnPayload(row: typeof unitReturns.$inferSelect, status: string, at: string): Record<string, unknown> {
  return {
    returnId: row.id,
    kind: row.kind,
    returnStatus: status,
    lineId: row.lineId,
    vendorId: row.vendorId,
    quantity: row.quantity,
    rmaNumber: row.rmaNumber ?? null,
    dueAt: row.dueAt?.slice(0, 10) ?? null,
    at,
    currency: MARKET_CURRENCY,
  };
}

/** A 409 naming the steps the actor may take from the return's status. */
export function stepNotAllowed(kind: ReturnKind, status: string, step: ReturnStep, allowed: readonly ReturnStep[]): ProblemError {
  return new ProblemError(
    409,
    "invalid-transition",
    "Invalid transition",
    `This ${kind === "rma" ? "return" : kind} is ${status}: ${step.replaceAll("_", " ")} is not a step from there. Allowed from ${status}: ${allowed.join(", ") || "none"}.`,
    { errors: allowed.map((s) => `allowed: ${s}`) },
  );
}

/**
 * Commits `steps` on the return, in order, each checked against the state machine for `actor` (the system's follow-ups,
 * such as a charge, for the system). `also`: more writes of the same change (a line's price, an invoice of a charge).
 */
export async function commitSteps(
  db: Database,
  read: ReturnRead,
  actor: ReturnActor,
  steps: readonly StepWrite[],
  now: Date,
  also: {
    statements?: BatchItem<"sqlite">[];
    revisions?: LineRevision[];
    patches?: (eventIds: string[]) => BatchItem<"sqlite">[];
    /** Events of the same change that are not the return's (the invoices a repair's new price matches again). */
    events?: readonly { type: EventType; payload: Record<string, unknown> }[];
  } = {},
): Promise<StepOutcome> {
  const { row } = read;
  const at = now.toISOString();
  let status = row.status;
  let set: ReturnSet = {};
  const events: { type: EventType; payload: Record<string, unknown> }[] = [];
  steps.forEach((write, i) => {
    const check = checkStep(row.kind, status, write.step, i === 0 ? actor : write.step === "charge" ? "system" : actor);
    if (!check.ok) throw stepNotAllowed(row.kind, status, write.step, check.allowed);
    status = check.rule.to;
    set = { ...set, ...write.set };
    const after = { ...row, ...set } as typeof row;
    events.push({ type: check.rule.event, payload: { ...returnPayload(after, status, at), ...write.payload } });
  });
  events.push(...(also.events ?? []));
  const eventIds = events.map(() => crypto.randomUUID());
  const outcome: ChangeOutcome = await commitOrderChange(db, {
    order: { id: row.orderId, tenantId: row.tenantId, orderNumber: read.orderNumber, version: read.version, lines: read.states },
    lineChanges: new Map(),
    // The change's other writes first: the return's row may name what they write (a charge's invoice).
    statements: [
      ...(also.statements ?? []),
      db
        .update(unitReturns)
        .set({ ...set, status, updatedAt: at })
        .where(eq(unitReturns.id, row.id)),
    ],
    event: events[0]!,
    moreEvents: events.slice(1),
    eventIds,
    revisions: also.revisions,
    also: also.patches?.(eventIds),
    at: now,
  });
  return { returnId: row.id, eventIds: outcome.eventIds, orderStatus: outcome.status };
}

/** A step already in place answers as done (a retry after a lost answer): no change, no event. */
export const repeated = (read: ReturnRead): StepOutcome => ({ returnId: read.row.id, eventIds: [], orderStatus: null });

/** Fills in a new return's id in its events (known only once written): the newest return of the line, just inserted. */
export function patchNewReturnId(db: Database, eventIds: readonly string[], lineId: number | SQL<number>) {
  return db
    .update(outboxEvents)
    .set({
      payload: sql`json_set(${outboxEvents.payload}, '$.returnId', (select max(${unitReturns.id}) from ${unitReturns} where ${unitReturns.lineId} = ${lineId}))`,
    })
    .where(sql`${outboxEvents.id} in (select value from json_each(${JSON.stringify(eventIds)}))`);
}

/** A readable RMA number Medparts gives a core or loaner: `RMA-` and 10 Crockford base32 characters (50 random bits). */
export const newRmaNumber = (): string => `RMA-${readableToken(10)}`;

/** A line's revision for a change a return makes to it (a repair's approved price). */
export const lineRevision = (lineId: number, code: string, changes: LineFieldChange[], note: string | null): LineRevision => ({
  lineId,
  actor: "buyer",
  actorId: null,
  code,
  changes,
  note,
});
