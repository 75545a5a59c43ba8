import type { CustomFieldDefinition, OfferRow, OfferTerms, PurchaseTerms, PurchaseType } from "../../db/schema";

/**
 * The price a buyer is quoted (docs/api.md, "Offers and contract prices"; docs/decisions.md). For each offer of the
 * product that is current, not withdrawn and in effect, the eligible price at `now`:
 * - the offer's list price (its future price once that is in effect);
 * - unless a price agreement of the offer's vendor applies: in effect and not ended, for the requesting tenant
 *   (scope tenant), for the requesting facility (scope facilities), or for a tier the tenant is in (scope tier), with
 *   a price for the offer's SKU or for the product. Then the contract wins over the list price, and of several
 *   contract prices the lowest; at equal prices the most specific scope (facilities, then tenant, then tier), then the
 *   oldest agreement.
 * One statement, read side by side with the access check and the product (one round trip for catalog detail, and for
 * scan to order: src/shared/udi/quotes.ts).
 */

export interface EligibleOffer extends Omit<OfferTerms, "productId">, Pick<OfferRow, "sku" | "quantityAvailable" | "quantityCountedAt"> {
  offerId: number;
  vendorId: number;
  vendorName: string;
  returnPolicy: string;
  listPriceCents: number;
  contract: { agreementId: number; reference: string; priceCents: number } | null;
  /** What the buyer is quoted: the contract's price when one applies, else the list price. */
  priceCents: number;
}

export interface EligibilityScope {
  tenantId: number;
  facilityId: number;
  productId: string;
}

/** Most specific first: the rank breaks ties between equal contract prices. */
const SCOPE_RANK = "CASE a.scope WHEN 'facilities' THEN 0 WHEN 'tenant' THEN 1 ELSE 2 END";

/** An agreement of the offer's vendor that applies to ?2 (tenant) at ?3 (facility) on ?4 (now). */
export const AGREEMENT_APPLIES =
  "a.ended_at IS NULL AND a.effective_from <= ?4 AND (a.effective_to IS NULL OR a.effective_to > ?4) AND (" +
  "(a.scope = 'tenant' AND a.tenant_id = ?2) OR " +
  "(a.scope = 'facilities' AND a.tenant_id = ?2 AND EXISTS (SELECT 1 FROM price_agreement_facilities f WHERE f.agreement_id = a.id AND f.facility_id = ?3)) OR " +
  "(a.scope = 'tier' AND a.tier_id IN (SELECT t.tier_id FROM tenant_price_tiers t WHERE t.tenant_id = ?2)))";

/** An offer that can be quoted at ?4 (now). */
export const OFFER_IN_EFFECT =
  "o.replaced_at IS NULL AND o.withdrawn_at IS NULL AND (o.effective_from IS NULL OR o.effective_from <= ?4) AND (o.effective_to IS NULL OR o.effective_to > ?4)";

/** The offer's list price at ?4 (now): its future price once that is in effect. */
export const LIST_PRICE =
  "CASE WHEN o.future_price_cents IS NOT NULL AND o.future_price_from <= ?4 THEN o.future_price_cents ELSE o.price_cents END";

/** The eligible offers of the products `products` names (an SQL condition on `o.product_id`), with ?2 to ?4 as above. */
export const eligibleOffersSql = (products: string) =>
  "SELECT o.product_id, o.id, o.vendor_id, v.name AS vendor_name, v.return_policy, o.sku, o.condition, o.purchase_choice, o.warranty, " +
  "o.lead_time_days, o.unit_of_measure, o.pack_quantity, o.quantity_available, o.quantity_counted_at, o.custom_fields, o.purchase_type, o.purchase_terms, " +
  `${LIST_PRICE} AS list_price_cents, ` +
  "(SELECT json_array(ap.price_cents, a.id, a.reference) FROM price_agreement_prices ap JOIN price_agreements a ON a.id = ap.agreement_id " +
  `WHERE ap.vendor_id = o.vendor_id AND ap.product_id = o.product_id AND (ap.sku IS NULL OR ap.sku = o.sku) AND ${AGREEMENT_APPLIES} ` +
  `ORDER BY ap.price_cents, ${SCOPE_RANK}, a.id LIMIT 1) AS contract ` +
  `FROM vendor_offers o JOIN vendors v ON v.id = o.vendor_id AND v.disabled_at IS NULL WHERE o.product_id ${products} AND ${OFFER_IN_EFFECT}`;

/** ?1: the product's id. */
export const ELIGIBLE_OFFERS_SQL = eligibleOffersSql("= ?1");
/** ?1: a JSON array of product ids. */
export const ELIGIBLE_OFFERS_OF_PRODUCTS_SQL = eligibleOffersSql("IN (SELECT value FROM json_each(?1))");

export interface EligibleRow {
  product_id: string;
  id: number;
  vendor_id: number;
  vendor_name: string;
  return_policy: string;
  sku: string;
  condition: string;
  purchase_choice: string;
  warranty: string;
  lead_time_days: number;
  unit_of_measure: string;
  pack_quantity: number;
  quantity_available: number | null;
  quantity_counted_at: string | null;
  custom_fields: string;
  purchase_type: PurchaseType;
  purchase_terms: string | null;
  list_price_cents: number;
  contract: string | null;
}

/** The statement `sql` (one of the above) bound to `first` (its ?1) and the buyer's scope at `now`. */
export function eligibleOffersStatement(
  db: D1Database,
  sql: string,
  first: string,
  scope: Omit<EligibilityScope, "productId">,
  now: Date,
): D1PreparedStatement {
  return db.prepare(sql).bind(first, scope.tenantId, scope.facilityId, now.toISOString());
}

/** The product's offers a buyer can be quoted now, each at its eligible price, cheapest first. */
export async function loadEligibleOffers(db: D1Database, scope: EligibilityScope, now: Date): Promise<EligibleOffer[]> {
  const { results } = await eligibleOffersStatement(db, ELIGIBLE_OFFERS_SQL, scope.productId, scope, now).all<EligibleRow>();
  return eligibleOffersByProduct(results).get(scope.productId) ?? [];
}

/** The products' offers a buyer can be quoted now, by product (a product without any is absent). */
export async function loadEligibleOffersOf(
  db: D1Database,
  productIds: readonly string[],
  scope: Omit<EligibilityScope, "productId">,
  now: Date,
): Promise<Map<string, EligibleOffer[]>> {
  if (productIds.length === 0) return new Map();
  const statement = eligibleOffersStatement(db, ELIGIBLE_OFFERS_OF_PRODUCTS_SQL, JSON.stringify(productIds), scope, now);
  return eligibleOffersByProduct((await statement.all<EligibleRow>()).results);
}

/** Rows of the statements above as offers by product, each product's cheapest first. */
export function eligibleOffersByProduct(rows: readonly EligibleRow[]): Map<string, EligibleOffer[]> {
  const byProduct = new Map<string, EligibleOffer[]>();
  for (const row of rows) {
    const [priceCents, agreementId, reference] = row.contract ? (JSON.parse(row.contract) as [number, number, string]) : [];
    const contract = row.contract ? { agreementId: agreementId!, reference: reference!, priceCents: priceCents! } : null;
    const offer: EligibleOffer = {
      offerId: row.id,
      vendorId: row.vendor_id,
      vendorName: row.vendor_name,
      returnPolicy: row.return_policy,
      sku: row.sku,
      condition: row.condition,
      purchaseChoice: row.purchase_choice,
      warranty: row.warranty,
      leadTimeDays: row.lead_time_days,
      unitOfMeasure: row.unit_of_measure,
      packQuantity: row.pack_quantity,
      quantityAvailable: row.quantity_available,
      quantityCountedAt: row.quantity_counted_at,
      customFields: JSON.parse(row.custom_fields) as CustomFieldDefinition[],
      purchaseType: row.purchase_type,
      purchaseTerms: row.purchase_terms === null ? null : (JSON.parse(row.purchase_terms) as PurchaseTerms),
      listPriceCents: row.list_price_cents,
      contract,
      priceCents: contract?.priceCents ?? row.list_price_cents,
    };
    const offers = byProduct.get(row.product_id);
    if (offers) offers.push(offer);
    else byProduct.set(row.product_id, [offer]);
  }
  for (const offers of byProduct.values()) offers.sort((a, b) => a.priceCents - b.priceCents || a.offerId - b.offerId);
  return byProduct;
}
