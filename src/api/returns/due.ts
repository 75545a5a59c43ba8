import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { purchasingSettings, unitReturns } from "../../db/schema";
import { errorMessage, ProblemError } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { DEFAULT_DUE_SOON_DAYS } from "../purchasing/settings";
import { chargeWrites } from "./charges";
import { commitSteps, type ReturnRead, type ReturnSet, readReturn, type StepWrite } from "./returns";
import { DAY_MS, dayOf } from "./steps";
import { coreCharge } from "./take";

/**
 * The daily housekeeping of cores and loaners (docs/api.md, "Cores and loaners"): a warning once a return is due
 * within the tenant's warning days (its purchasing settings' `dueSoonDays`), and once its due day has passed, the
 * overdue step (a core is charged with it). Each is a step of the return, committed with its event in one batch, so a
 * run that crashes or is retried finds the step done and takes it no second time: each event goes out exactly once.
 */

/**
 * The housekeeping's due steps in a tenant's store (TenantStore.housekeep). Each run takes up to `limit` steps (the
 * housekeeping calls it again while it takes that many) and answers how many it took.
 */
export async function raiseDueReturns(db: Database, now: Date, limit: number): Promise<number> {
  const today = dayOf(now.toISOString());
  // The twin's (test mode's) own settings for its returns: settings are kept under the data tenant's id.
  const soonDays = sql<number>`coalesce((select ${purchasingSettings.dueSoonDays} from ${purchasingSettings} where ${purchasingSettings.tenantId} = ${unitReturns.tenantId}), ${DEFAULT_DUE_SOON_DAYS})`;
  // Due within the warning days: its due day is before today + days + 1 (dates are stored as their day's first instant).
  const warnBefore = sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${today}, '+' || (${soonDays} + 1) || ' days')`;
  const due = await db
    .select({ id: unitReturns.id, tenantId: unitReturns.tenantId, dueAt: unitReturns.dueAt, dueSoonAt: unitReturns.dueSoonAt })
    .from(unitReturns)
    .where(
      and(
        inArray(unitReturns.kind, ["core", "loaner"]),
        eq(unitReturns.status, "open"),
        // As the partial index unit_returns_due says it, so that SQLite uses it (bound values would not match it).
        sql`${unitReturns.status} in ('open', 'overdue') and ${unitReturns.dueAt} is not null`,
        or(lt(unitReturns.dueAt, today), and(isNull(unitReturns.dueSoonAt), sql`${unitReturns.dueAt} < ${warnBefore}`)),
      ),
    )
    .orderBy(asc(unitReturns.dueAt), asc(unitReturns.id))
    .limit(limit);
  let taken = 0;
  for (const candidate of due) {
    try {
      if (await takeDueStep(db, candidate.id, candidate.tenantId, now, today)) taken++;
    } catch (error) {
      // Another run (or a buyer's step) changed the order meanwhile: the next run looks again.
      if (error instanceof ProblemError && error.status === 409) continue;
      logEvent("warn", { housekeeping: "returns-due", returnId: candidate.id, message: errorMessage(error) });
    }
  }
  // Fewer than asked tells the housekeeping to stop: a candidate that failed is tried by the next run, not again now.
  return taken;
}

/** The warning step of an open core or loaner due within the warning days (`set`: more to write on it). */
export function takeDueSoon(db: Database, read: ReturnRead, now: Date, set: ReturnSet = {}) {
  const daysLeft = Math.round((Date.parse(String(set.dueAt ?? read.row.dueAt)) - Date.parse(dayOf(now.toISOString()))) / DAY_MS);
  return commitSteps(
    db,
    read,
    "system",
    [{ step: "due_soon", set: { ...set, dueSoonAt: now.toISOString() }, payload: { reason: `Due in ${daysLeft} day(s)` } }],
    now,
  );
}

/** The overdue step of an open core or loaner (`set`: more to write on it), with a core's charge. */
export async function takeOverdue(db: Database, read: ReturnRead, now: Date, set: ReturnSet = {}) {
  const overdue: StepWrite = { step: "overdue", set };
  if (read.row.kind === "loaner") return commitSteps(db, read, "system", [overdue], now);
  const dueDay = String(set.dueAt ?? read.row.dueAt).slice(0, 10);
  const writes = chargeWrites(db, read, coreCharge(read, `Core not shipped back by ${dueDay}`), now.toISOString());
  return commitSteps(db, read, "system", [overdue, { step: "charge", set: writes.set, payload: writes.payload }], now, {
    statements: writes.statements,
    patches: (eventIds) => [writes.patch(eventIds[1]!)],
  });
}

async function takeDueStep(db: Database, id: number, tenantId: number, now: Date, today: string): Promise<boolean> {
  const read = await readReturn(db, { tenantId }, id);
  const { row } = read;
  if (row.status !== "open" || !row.dueAt) return false;
  if (row.dueAt < today) {
    await takeOverdue(db, read, now);
    return true;
  }
  if (row.dueSoonAt !== null) return false;
  await takeDueSoon(db, read, now);
  return true;
}
