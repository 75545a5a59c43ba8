import type { Scope } from "./code-info";
import { type DeliveredUnit, matchUnit } from "./match";
import { deviceIdKey, keysOfScope, openRecallsNaming, productKey, type StoredRecallRow, unitKeys } from "./records";

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
  ...new Set([...deviceIds.map(deviceIdKey), ...partNumbers.map(productKey)]),
];

/** The recalls a scan is matched against: not a vendor's notice, since a scan does not say who delivered the unit. */
export const readScanRecalls = (db: D1Database, keys: readonly string[], storeTenantId: number) =>
  openRecallsNaming(db, keys, storeTenantId, { vendorNotices: false });

/** The recalls that touch one scanned unit (affected or to review), with the clause that decided. */
export function recallsOfScan(recalls: readonly StoredRecallRow[], unit: DeliveredUnit): ScanRecall[] {
  const keys = new Set(unitKeys(unit.di ?? null, unit.catalog ?? null));
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
