import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { recallUnits, unitReturns } from "../../db/schema";
import { ProblemError, ValidationError } from "../../platform/errors";
import { requestReturn } from "../returns/request";
import { recallNotFound, recallQuery, unitsQuery } from "./views";

/**
 * A return of a recall's units in one call (docs/recalls.md, "Sending units back"): one RMA per order line, reason
 * `recall`, through the returns of issue 44 (src/api/returns/request.ts): the vendor authorizes it and credits what it
 * states. Each line's request has its own key, derived from the call's Idempotency-Key and the line, so a retry of the
 * call answers the same returns and requests only what is still missing. A line that cannot go back now (not
 * delivered, not bought outright) is skipped with why; the others go on.
 */

export interface RecallReturnsRequest {
  unitIds?: number[] | undefined;
  note?: string | undefined;
}

export async function requestRecallReturns(db: Database, tenantId: number, recallId: number, body: RecallReturnsRequest, key: string) {
  const [[recall], units] = await db.batch([recallQuery(db, recallId), unitsQuery(db, recallId)]);
  if (!recall) throw recallNotFound();
  // The returns this call's key already made (a retry after some lines went through): their units are this call's.
  const lineKeys = [...new Set(units.map((unit) => `${key}:${unit.lineId}`))];
  const ours = new Set(
    lineKeys.length === 0
      ? []
      : (
          await db
            .select({ id: unitReturns.id })
            .from(unitReturns)
            .where(and(eq(unitReturns.tenantId, tenantId), inArray(unitReturns.requestKey, lineKeys)))
        ).map((row) => row.id),
  );
  const free = (unit: (typeof units)[number]) => unit.returnId === null || ours.has(unit.returnId);
  const chosen = body.unitIds
    ? chosenUnits(units, body.unitIds, free)
    : units.filter((unit) => unit.outcome === "affected" && unit.disposition !== "used" && free(unit));
  const note = [`Recall ${recall.productNumber}`, body.note].filter(Boolean).join(": ");
  const byLine = new Map<number, typeof chosen>();
  for (const unit of chosen) byLine.set(unit.lineId, [...(byLine.get(unit.lineId) ?? []), unit]);
  const returns: { returnId: number; orderNumber: string; lineId: number; quantity: number; unitIds: number[] }[] = [];
  const skipped: { orderNumber: string; lineId: number; unitIds: number[]; reason: string }[] = [];
  for (const [lineId, lineUnits] of byLine) {
    const { orderNumber } = lineUnits[0]!;
    const unitIds = lineUnits.map((unit) => unit.unitId);
    const quantity = lineUnits.reduce((sum, unit) => sum + unit.units, 0);
    try {
      const outcome = await requestReturn(db, tenantId, orderNumber, lineId, { quantity, reason: "recall", note }, `${key}:${lineId}`);
      await db
        .update(recallUnits)
        .set({ returnId: outcome.returnId })
        .where(and(eq(recallUnits.recallId, recallId), inArray(recallUnits.unitId, unitIds), isNull(recallUnits.returnId)));
      returns.push({ returnId: outcome.returnId, orderNumber, lineId, quantity, unitIds });
    } catch (error) {
      const why = skippedBecause(error);
      if (why === null) throw error;
      skipped.push({ orderNumber, lineId, unitIds, reason: why });
    }
  }
  return { returns, skipped };
}

/** Why a line's units cannot go back now, as the return's rules said; null for any other failure (answered as it is). */
function skippedBecause(error: unknown): string | null {
  if (error instanceof ProblemError && (error.slug === "not-delivered" || error.slug === "not-bought-outright")) return error.detail;
  if (error instanceof ValidationError && error.fieldErrors.quantity) return error.fieldErrors.quantity.join(" ");
  return null;
}

/** The units named, each of the recall, not used and not in another return: a 400 naming each that is not. */
function chosenUnits<U extends { unitId: number; returnId: number | null; disposition: string | null }>(
  units: readonly U[],
  unitIds: number[],
  free: (unit: U) => boolean,
): U[] {
  const byId = new Map(units.map((unit) => [unit.unitId, unit]));
  const problems: Record<string, string[]> = {};
  unitIds.forEach((unitId, i) => {
    const unit = byId.get(unitId);
    if (!unit) problems[`unitIds[${i}]`] = [`Unit ${unitId} is not one this recall touches.`];
    else if (!free(unit)) problems[`unitIds[${i}]`] = [`Unit ${unitId} is in return ${unit.returnId} already.`];
    else if (unit.disposition === "used") problems[`unitIds[${i}]`] = [`Unit ${unitId} was used: it cannot go back.`];
  });
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  return [...new Set(unitIds)].map((unitId) => byId.get(unitId)!);
}
