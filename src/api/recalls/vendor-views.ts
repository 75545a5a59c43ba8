import { vendorOwner } from "../../shared/recalls/records";

/**
 * The recalls a vendor sees (docs/recalls.md, "For the vendor"): its own notices, and every recall touching units it
 * delivered to live tenants, with the counts the stores published (recall_exposure): units affected, units to review,
 * and the number of hospitals. Never a hospital's name, order or unit: those stay in the stores.
 */
export interface VendorRecallRow {
  id: number;
  productNumber: string;
  source: string;
  classification: string | null;
  status: string;
  firm: string | null;
  productDescription: string | null;
  initiatedOn: string | null;
  terminatedOn: string | null;
  affectedUnits: number;
  reviewUnits: number;
  hospitals: number;
}

export async function vendorRecalls(
  db: D1Database,
  vendorId: number,
  { limit, productNumber }: { limit: number; productNumber?: string },
): Promise<VendorRecallRow[]> {
  const { results } = await db
    .prepare(
      "SELECT r.id, r.product_number AS productNumber, iif(r.owner = 'fda', 'fda', 'vendor') AS source, r.classification, r.status, r.firm, " +
        "r.product_description AS productDescription, r.initiated_on AS initiatedOn, r.terminated_on AS terminatedOn, " +
        "coalesce(sum(e.affected_units), 0) AS affectedUnits, coalesce(sum(e.review_units), 0) AS reviewUnits, " +
        "count(DISTINCT iif(e.affected_units + e.review_units > 0, e.store_tenant_id, NULL)) AS hospitals " +
        "FROM recalls r LEFT JOIN recall_exposure e ON e.recall_id = r.id AND e.vendor_id = ?1 AND e.store_tenant_id > 0 " +
        "WHERE (r.owner = ?4 OR r.id IN (SELECT recall_id FROM recall_exposure WHERE vendor_id = ?1 AND store_tenant_id > 0)) " +
        "AND (?3 IS NULL OR (r.owner = ?4 AND r.product_number = ?3)) " +
        "GROUP BY r.id ORDER BY r.updated_at DESC, r.id DESC LIMIT ?2",
    )
    .bind(vendorId, limit, productNumber ?? null, vendorOwner(vendorId))
    .all<VendorRecallRow>();
  return results;
}
