import { and, eq, isNull, sql } from "drizzle-orm";
import { jsonGroups, MAX_PARAMETER_BYTES } from "../../db/bulk-insert";
import { database } from "../../db/client";
import { type OfferRow, type OfferTerms, vendorOffers } from "../../db/schema";
import { amountCents, centsToText, MARKET_CURRENCY } from "../../platform/money";
import { toGtin14 } from "../../shared/catalog/gtin";
import { normalizePartNumber } from "../../shared/catalog/part-numbers";
import { presentTerms, termsOfInput } from "../../shared/catalog/purchase-terms";
import type { Offer, OfferInput } from "./schemas";

/**
 * Vendor offers: written by the vendor API (one or a batch), read back by SKU. A row of vendor_offers is a revision
 * (migrations/0016): terms a quote promises are never changed in place; a change of them replaces the current row.
 */

/** How a row of a write ended. */
export type OfferOutcome = "created" | "updated" | "unchanged";

export interface OfferWrite {
  sku: string;
  input: OfferInput;
}

/** The fields of a revision that a quote reads back at order time (custom fields as their JSON text, compared as text). */
type Terms = Omit<OfferTerms, "customFields" | "purchaseTerms"> & { customFields: string; purchaseTerms: string | null };

/** Fields changed in place: a quote carries its own price, and availability and dates do not change a quote. */
type Mutable = Pick<
  OfferRow,
  "priceCents" | "quantityAvailable" | "quantityCountedAt" | "effectiveFrom" | "effectiveTo" | "futurePriceCents" | "futurePriceFrom"
>;

export function presentOffer(row: OfferRow): Offer {
  return {
    sku: row.sku,
    productId: row.productId,
    condition: row.condition,
    purchaseChoice: row.purchaseChoice,
    warranty: row.warranty,
    price: centsToText(row.priceCents),
    currency: MARKET_CURRENCY,
    unitOfMeasure: row.unitOfMeasure,
    packQuantity: row.packQuantity,
    leadTimeDays: row.leadTimeDays,
    quantityAvailable: row.quantityAvailable,
    quantityCountedAt: row.quantityCountedAt,
    customFields: row.customFields,
    purchaseType: row.purchaseType,
    purchaseTerms: presentTerms(row.purchaseTerms),
    effectiveFrom: row.effectiveFrom,
    effectiveTo: row.effectiveTo,
    futurePrice:
      row.futurePriceCents !== null && row.futurePriceFrom !== null
        ? { price: centsToText(row.futurePriceCents), effectiveFrom: row.futurePriceFrom }
        : null,
    status: row.withdrawnAt ? "withdrawn" : "active",
    revision: row.id,
    updatedAt: row.updatedAt,
  };
}

/** The query of the vendor's current offers of these SKUs (driven by the SKUs: test/offers/query-plan.test.ts). */
export const currentOffersQuery = (d1: D1Database, vendorId: number, skus: readonly string[]) =>
  database(d1)
    .select()
    .from(vendorOffers)
    .where(
      and(
        eq(vendorOffers.vendorId, vendorId),
        isNull(vendorOffers.replacedAt),
        sql`${vendorOffers.sku} IN (SELECT value FROM json_each(${JSON.stringify(skus)}))`,
      ),
    );

/** The vendor's current offers of these SKUs. */
export async function currentOffers(d1: D1Database, vendorId: number, skus: readonly string[]): Promise<Map<string, OfferRow>> {
  if (skus.length === 0) return new Map();
  const rows = await currentOffersQuery(d1, vendorId, skus);
  return new Map(rows.map((row) => [row.sku, row]));
}

export type ProductResolution = { productId: string } | { problem: { field: string; code: string; message: string } };

/**
 * The catalog product each offer names (productId, GTIN, or manufacturer with part number), in one statement. A
 * withdrawn product takes no offers; a manufacturer and part number that name two products are ambiguous.
 */
export async function resolveProducts(catalog: D1Database, inputs: readonly OfferInput[]): Promise<ProductResolution[]> {
  const references = inputs.map((input) => ({
    id: input.productId ?? null,
    gtin: input.gtin ? toGtin14(input.gtin) : null,
    badGtin: input.gtin !== undefined && toGtin14(input.gtin) === null,
    manufacturer: input.manufacturer ?? null,
    part: input.partNumber ? normalizePartNumber(input.partNumber) : null,
  }));
  const { results } = await catalog
    .prepare(
      "SELECT CAST(j.key AS INTEGER) AS i, m.id AS product_id, m.status, m.matches FROM json_each(?1) j LEFT JOIN (" +
        "SELECT j2.key AS k, min(p.id) AS id, min(p.status) AS status, count(*) AS matches FROM json_each(?1) j2 JOIN products p ON " +
        "p.id = j2.value ->> 'id' OR p.id = (SELECT d.product_id FROM device_identifiers d WHERE d.agency = 'GS1' AND d.device_id = j2.value ->> 'gtin') " +
        "OR (p.normalized_part_number = j2.value ->> 'part' AND p.manufacturer_id = (SELECT id FROM manufacturers WHERE name = j2.value ->> 'manufacturer')) " +
        "GROUP BY j2.key) m ON m.k = j.key ORDER BY i",
    )
    .bind(JSON.stringify(references))
    .all<{ i: number; product_id: string | null; status: string | null; matches: number | null }>();
  return results.map((row, i): ProductResolution => {
    const reference = references[i]!;
    const field = reference.id !== null ? "productId" : reference.gtin !== null || reference.badGtin ? "gtin" : "partNumber";
    if (reference.badGtin) return { problem: { field, code: "invalid_gtin", message: "Not a GTIN: its check digit is wrong." } };
    if (row.product_id === null) return { problem: { field, code: "unknown_product", message: "No product of the catalog has it." } };
    if ((row.matches ?? 0) > 1) {
      return { problem: { field, code: "ambiguous_product", message: `${row.matches} products match: name it by productId or gtin.` } };
    }
    if (row.status === "withdrawn")
      return { problem: { field, code: "product_withdrawn", message: `Product ${row.product_id} is withdrawn from the catalog.` } };
    return { productId: row.product_id };
  });
}

function termsOf(productId: string, input: OfferInput): Terms {
  return {
    productId,
    condition: input.condition,
    purchaseChoice: input.purchaseChoice,
    warranty: input.warranty,
    leadTimeDays: input.leadTimeDays,
    unitOfMeasure: input.unitOfMeasure,
    packQuantity: input.packQuantity,
    customFields: JSON.stringify(input.customFields),
    purchaseType: input.purchaseType ?? "buy",
    purchaseTerms: (input.purchaseType ?? "buy") === "buy" ? null : JSON.stringify(termsOfInput(input)),
  };
}

function mutableOf(input: OfferInput): Mutable {
  return {
    // amountCents: a price file staged before 2026-12-07 holds JSON numbers.
    priceCents: amountCents(input.price)!,
    quantityAvailable: input.quantityAvailable ?? null,
    quantityCountedAt: input.quantityAvailable === null || input.quantityAvailable === undefined ? null : (input.quantityCountedAt ?? null),
    effectiveFrom: input.effectiveFrom ?? null,
    effectiveTo: input.effectiveTo ?? null,
    futurePriceCents: input.futurePrice ? amountCents(input.futurePrice.price)! : null,
    futurePriceFrom: input.futurePrice?.effectiveFrom ?? null,
  };
}

const sameTerms = (row: OfferRow, t: Terms) =>
  row.productId === t.productId &&
  row.condition === t.condition &&
  row.purchaseChoice === t.purchaseChoice &&
  row.warranty === t.warranty &&
  row.leadTimeDays === t.leadTimeDays &&
  row.unitOfMeasure === t.unitOfMeasure &&
  row.packQuantity === t.packQuantity &&
  JSON.stringify(row.customFields) === t.customFields &&
  row.purchaseType === t.purchaseType &&
  (row.purchaseTerms === null ? null : JSON.stringify(row.purchaseTerms)) === t.purchaseTerms;

const sameMutable = (row: OfferRow, m: Mutable) =>
  row.priceCents === m.priceCents &&
  row.quantityAvailable === m.quantityAvailable &&
  row.quantityCountedAt === m.quantityCountedAt &&
  row.effectiveFrom === m.effectiveFrom &&
  row.effectiveTo === m.effectiveTo &&
  row.futurePriceCents === m.futurePriceCents &&
  row.futurePriceFrom === m.futurePriceFrom &&
  row.withdrawnAt === null;

const value = (field: string) => `j.value ->> '${field}'`;
/** The vendor's (?1) current offer of each row of the batch (?2): driven by the batch, one index seek per row. */
const CURRENT_OF_ROWS = `FROM json_each(?2) j CROSS JOIN vendor_offers o ON o.vendor_id = ?1 AND o.sku = ${value("sku")} AND o.replaced_at IS NULL`;

/**
 * The statements of an offer write, each bound to (?1 vendor, ?2 the rows as JSON, ?3 now); src/operator/offers/offers.ts
 * writeOffers. Every one is driven by the rows (test/offers/query-plan.test.ts): with UPDATE ... FROM json_each, SQLite
 * walked every current offer of the vendor and the batch for each, quadratic in the vendor's offers.
 */
export const OFFER_WRITES = [
  // A change of terms: the current revision steps aside...
  `UPDATE vendor_offers SET replaced_at = ?3 WHERE id IN (SELECT o.id ${CURRENT_OF_ROWS} WHERE ${value("replace")} = 1)`,
  // ...and a new one (or the SKU's first) is written.
  "INSERT INTO vendor_offers (product_id, vendor_id, sku, condition, purchase_choice, warranty, lead_time_days, unit_of_measure, " +
    "pack_quantity, custom_fields, price_cents, quantity_available, quantity_counted_at, effective_from, effective_to, " +
    "future_price_cents, future_price_from, purchase_type, purchase_terms, updated_at) " +
    `SELECT ${value("productId")}, ?1, ${value("sku")}, ${value("condition")}, ${value("purchaseChoice")}, ${value("warranty")}, ` +
    `${value("leadTimeDays")}, ${value("unitOfMeasure")}, ${value("packQuantity")}, ${value("customFields")}, ${value("priceCents")}, ` +
    `${value("quantityAvailable")}, ${value("quantityCountedAt")}, ${value("effectiveFrom")}, ${value("effectiveTo")}, ` +
    `${value("futurePriceCents")}, ${value("futurePriceFrom")}, ${value("purchaseType")}, ${value("purchaseTerms")}, ?3 FROM json_each(?2) j WHERE NOT EXISTS (SELECT 1 FROM vendor_offers o ` +
    `WHERE o.vendor_id = ?1 AND o.sku = ${value("sku")} AND o.replaced_at IS NULL) ORDER BY j.key`,
  // Price, stock and dates in place (a no-op on a revision just written): the rows' values, materialized first.
  `WITH n AS MATERIALIZED (SELECT o.id AS id, ${value("priceCents")} AS price_cents, ${value("quantityAvailable")} AS quantity_available, ` +
    `${value("quantityCountedAt")} AS quantity_counted_at, ${value("effectiveFrom")} AS effective_from, ${value("effectiveTo")} AS effective_to, ` +
    `${value("futurePriceCents")} AS future_price_cents, ${value("futurePriceFrom")} AS future_price_from ${CURRENT_OF_ROWS}) ` +
    "UPDATE vendor_offers SET price_cents = n.price_cents, quantity_available = n.quantity_available, " +
    "quantity_counted_at = n.quantity_counted_at, effective_from = n.effective_from, effective_to = n.effective_to, " +
    "future_price_cents = n.future_price_cents, future_price_from = n.future_price_from, withdrawn_at = NULL, updated_at = ?3 " +
    "FROM n WHERE vendor_offers.id = n.id",
] as const;

type PlannedRow = Terms & Mutable & { sku: string; replace: boolean };

/**
 * What writing an offer does to the vendor's current offer of its SKU: nothing (unchanged), a new revision (terms
 * changed, or the SKU's first), or an update in place; with the row to write, if any.
 */
export function planOfferWrite(
  existing: OfferRow | undefined,
  write: OfferWrite & { productId: string },
): { outcome: OfferOutcome; row: PlannedRow | null } {
  const terms = termsOf(write.productId, write.input);
  const mutable = mutableOf(write.input);
  if (existing && sameTerms(existing, terms) && sameMutable(existing, mutable)) return { outcome: "unchanged", row: null };
  return {
    outcome: existing ? "updated" : "created",
    row: { sku: write.sku, ...terms, ...mutable, replace: existing !== undefined && !sameTerms(existing, terms) },
  };
}

/**
 * Writes offers whose products are resolved, all in one transaction (three statements whatever the count: rows travel
 * as one JSON parameter). A SKU whose terms changed gets a new revision; one whose price, stock or dates changed is
 * updated in place; an equal one is not written. A withdrawn SKU published again is active again.
 */
export async function writeOffers(
  db: D1Database,
  vendorId: number,
  writes: readonly (OfferWrite & { productId: string })[],
  now: Date,
): Promise<OfferOutcome[]> {
  const current = await currentOffers(
    db,
    vendorId,
    writes.map((w) => w.sku),
  );
  const planned = writes.map((write) => planOfferWrite(current.get(write.sku), write));
  const outcomes = planned.map((plan) => plan.outcome);
  const rows = planned.flatMap((plan) => (plan.row ? [plan.row] : []));
  if (rows.length === 0) return outcomes;
  const at = now.toISOString();
  // The rows travel as JSON parameters of at most MAX_PARAMETER_BYTES (D1 refuses strings over 2 MB; offers with ten
  // custom fields are about 9 KB each): the statements of every group in one batch, one transaction.
  await db.batch(
    jsonGroups(rows, MAX_PARAMETER_BYTES).flatMap((json) =>
      OFFER_WRITES.map((statement) => db.prepare(statement).bind(vendorId, json, at)),
    ),
  );
  return outcomes;
}

/** The vendor's current offers of these SKUs, as the API shows them. */
export async function presentedOffers(db: D1Database, vendorId: number, skus: readonly string[]): Promise<Map<string, Offer>> {
  const rows = await currentOffers(db, vendorId, skus);
  return new Map([...rows].map(([sku, row]) => [sku, presentOffer(row)]));
}

/** The vendor's current offer of a SKU, as the API shows it; null when the vendor has none. */
export async function findOffer(db: D1Database, vendorId: number, sku: string): Promise<Offer | null> {
  return (await presentedOffers(db, vendorId, [sku])).get(sku) ?? null;
}

/** Withdraws the vendor's offer of a SKU (no new quotes); false when the vendor has none. Withdrawing twice is fine. */
export async function withdrawOffer(db: D1Database, vendorId: number, sku: string, now: Date): Promise<boolean> {
  const [, found] = await db.batch([
    db
      .prepare(
        "UPDATE vendor_offers SET withdrawn_at = ?3, updated_at = ?3 WHERE vendor_id = ?1 AND sku = ?2 AND replaced_at IS NULL AND withdrawn_at IS NULL",
      )
      .bind(vendorId, sku, now.toISOString()),
    db.prepare("SELECT 1 AS one FROM vendor_offers WHERE vendor_id = ?1 AND sku = ?2 AND replaced_at IS NULL").bind(vendorId, sku),
  ]);
  return found!.results.length > 0;
}
