import type { Scope } from "./code-info";
import { type DeliveredUnit, matchUnit } from "./match";
import { keysOfScope, PRODUCT_KEY_PREFIX, RECALL_COLUMNS, type StoredRecallRow, sandboxOwner, unitKeys, visibleTo } from "./records";

/**
 * Scan to order's recall warning (docs/recalls.md, "When a unit is scanned"): a scanned unit matched at once against
 * the recalls not terminated that name its device identifier or the part number scanned, read side by side with the
 * catalog's lookup (one round trip), so a nurse scanning a recalled unit learns it before ordering its replacement.
 */

export interface ScanRecall {
  recallId: number;
  productNumber: string;
  classification: string | null;
  status: string;
  outcome: "affected" | "needs_review";
  reason: string;
}

/** The keys of the scanned device identifiers and part numbers. */
export const scanRecallKeys = (deviceIds: readonly string[], partNumbers: readonly string[]) => [
  ...new Set([...deviceIds.flatMap((di) => unitKeys(di, null)), ...partNumbers.map((pn) => PRODUCT_KEY_PREFIX + pn.toUpperCase())]),
];

/**
 * The recalls not terminated that name any of the keys, as the caller's store sees them (`storeTenantId`); not a
 * vendor's notices, which speak for the units that vendor delivered only, and a scan does not say who delivered it.
 */
export async function readScanRecalls(db: D1Database, keys: readonly string[], storeTenantId: number): Promise<StoredRecallRow[]> {
  if (keys.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT ${RECALL_COLUMNS} FROM recalls r WHERE r.status != 'terminated' AND r.vendor_id IS NULL AND ${visibleTo("?2")} AND r.id IN ` +
        "(SELECT k.recall_id FROM json_each(?1) j JOIN recall_keys k ON k.key = j.value) ORDER BY r.id",
    )
    .bind(JSON.stringify(keys), sandboxOwner(storeTenantId))
    .all<StoredRecallRow>();
  return results;
}

/** The recalls that touch one scanned unit (affected or to review), with the clause that decided. */
export function recallsOfScan(recalls: readonly StoredRecallRow[], unit: DeliveredUnit): ScanRecall[] {
  const keys = new Set([
    ...(unit.di ? unitKeys(unit.di, unit.catalog ?? null) : []),
    ...(unit.catalog ? [PRODUCT_KEY_PREFIX + unit.catalog.toUpperCase()] : []),
  ]);
  return recalls.flatMap((recall) => {
    const scope = JSON.parse(recall.scope) as Scope;
    if (!keysOfScope(scope).some((key) => keys.has(key))) return [];
    const match = matchUnit(scope, unit);
    if (match.outcome === "not_affected") return [];
    return [
      {
        recallId: recall.id,
        productNumber: recall.product_number,
        classification: recall.classification,
        status: recall.status,
        outcome: match.outcome,
        reason: match.reason,
      },
    ];
  });
}
