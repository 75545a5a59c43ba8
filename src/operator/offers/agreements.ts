import { z } from "@hono/zod-openapi";
import { ProblemError, unprocessable } from "../../platform/errors";
import { centsToText, MARKET_CURRENCY, textToCents } from "../../platform/money";
import { closedObject, currencyCode, decimalPrice, moneyAmount } from "../../platform/schemas";
import { instant, MAX_PRICE, skuSchema } from "./schemas";

/**
 * Price agreements (contract prices): a vendor's prices for a buyer tenant, some of its facilities, or a tier of
 * tenants, from a date, optionally to one. Which price a quote gets: src/shared/catalog/eligible-prices.ts.
 */

export const AGREEMENT_PRICES_MAX = 1000;
const id = z.number().int().positive().max(2_147_483_647);

const ScopeSchema = z
  .discriminatedUnion("kind", [
    closedObject({ kind: z.literal("tenant"), tenantId: id }),
    closedObject({ kind: z.literal("facilities"), tenantId: id, facilityIds: z.array(id).min(1).max(100) }),
    closedObject({ kind: z.literal("tier"), tierId: id }),
  ])
  .openapi("AgreementScope", {
    description:
      "Whom the prices are for: a buyer tenant (every facility), some facilities of one tenant, or every tenant of a tier the operator assigns",
  });

const PriceLineSchema = closedObject({
  sku: skuSchema.optional().openapi({ description: "One of the vendor's offers, by its SKU" }),
  productId: z.string().min(1).max(64).optional().openapi({ description: "Or every offer of the vendor for this product" }),
  price: decimalPrice("The contract price per unit of the offer's measure", MAX_PRICE),
}).openapi("AgreementPriceLine");

export const AgreementInputSchema = closedObject({
  // The pattern (not only trim then min) so that the document says a blank reference is refused.
  reference: z
    .string()
    .max(100)
    .regex(/\S/, "Must contain a non-space character.")
    .trim()
    .openapi({ description: "The vendor's reference (contract number)", example: "GPO-2026-114" }),
  scope: ScopeSchema,
  effectiveFrom: instant.openapi({ description: "Its prices apply to quotes issued from this instant" }),
  effectiveTo: instant.nullish().openapi({ description: "Until this instant (exclusive), after effectiveFrom; default: until ended" }),
  prices: z
    .array(PriceLineSchema)
    .min(1)
    .max(AGREEMENT_PRICES_MAX)
    .openapi({ description: "Each line names exactly one of sku and productId, and each SKU or product once" }),
})
  .superRefine((agreement, ctx) => {
    if (agreement.effectiveTo && agreement.effectiveTo <= agreement.effectiveFrom) {
      ctx.addIssue({ code: "custom", path: ["effectiveTo"], message: "Must be after effectiveFrom." });
    }
    const seen = new Map<string, number>();
    agreement.prices.forEach((line, i) => {
      if ((line.sku === undefined) === (line.productId === undefined)) {
        ctx.addIssue({ code: "custom", path: ["prices", i, "sku"], message: "Give exactly one of sku and productId." });
        return;
      }
      const key = line.sku !== undefined ? `sku:${line.sku}` : `product:${line.productId}`;
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: "custom", path: ["prices", i], message: `The same line as prices[${first}].` });
      else seen.set(key, i);
    });
  })
  .openapi("AgreementInput", {
    example: {
      reference: "GPO-2026-114",
      scope: { kind: "tenant", tenantId: 1 },
      effectiveFrom: "2026-12-01T00:00:00Z",
      prices: [{ productId: "MP-0000001", price: "999.00" }],
    },
  });
export type AgreementInput = z.infer<typeof AgreementInputSchema>;

export const AgreementSchema = z
  .object({
    agreementId: z.number().int(),
    reference: z.string(),
    scope: ScopeSchema,
    effectiveFrom: z.string().datetime(),
    effectiveTo: z.string().datetime().nullable(),
    status: z.enum(["scheduled", "active", "expired", "ended"]).openapi({
      description: "scheduled: not yet in effect; active: in effect; expired: past effectiveTo; ended by the vendor (DELETE)",
    }),
    endedAt: z.string().datetime().nullable(),
    createdAt: z.string().datetime(),
    currency: currencyCode,
    prices: z.array(
      z.object({
        sku: z.string().nullable(),
        productId: z.string(),
        price: moneyAmount("The contract price per unit of the offer's measure"),
      }),
    ),
  })
  .openapi("Agreement");
export type Agreement = z.infer<typeof AgreementSchema>;

interface AgreementRow {
  id: number;
  reference: string;
  scope: "tenant" | "facilities" | "tier";
  tenant_id: number | null;
  tier_id: number | null;
  effective_from: string;
  effective_to: string | null;
  ended_at: string | null;
  created_at: string;
  facilities: string;
  prices: string;
}

const AGREEMENT_SELECT =
  "SELECT a.id, a.reference, a.scope, a.tenant_id, a.tier_id, a.effective_from, a.effective_to, a.ended_at, a.created_at, " +
  "(SELECT json_group_array(f.facility_id) FROM price_agreement_facilities f WHERE f.agreement_id = a.id) AS facilities, " +
  "(SELECT json_group_array(json_array(p.sku, p.product_id, p.price_cents)) FROM (SELECT * FROM price_agreement_prices p WHERE p.agreement_id = a.id ORDER BY p.id) p) AS prices " +
  "FROM price_agreements a";

function presentAgreement(row: AgreementRow, now: string): Agreement {
  const scope: Agreement["scope"] =
    row.scope === "tier"
      ? { kind: "tier", tierId: row.tier_id! }
      : row.scope === "tenant"
        ? { kind: "tenant", tenantId: row.tenant_id! }
        : { kind: "facilities", tenantId: row.tenant_id!, facilityIds: (JSON.parse(row.facilities) as number[]).sort((a, b) => a - b) };
  const status = row.ended_at
    ? "ended"
    : row.effective_to !== null && row.effective_to <= now
      ? "expired"
      : row.effective_from > now
        ? "scheduled"
        : "active";
  return {
    agreementId: row.id,
    reference: row.reference,
    scope,
    effectiveFrom: row.effective_from,
    effectiveTo: row.effective_to,
    status,
    endedAt: row.ended_at,
    createdAt: row.created_at,
    currency: MARKET_CURRENCY,
    prices: (JSON.parse(row.prices) as [string | null, string, number][]).map(([sku, productId, cents]) => ({
      sku,
      productId,
      price: centsToText(cents),
    })),
  };
}

export async function findAgreement(db: D1Database, vendorId: number, agreementId: number): Promise<Agreement | null> {
  const row = await db
    .prepare(`${AGREEMENT_SELECT} WHERE a.id = ?1 AND a.vendor_id = ?2`)
    .bind(agreementId, vendorId)
    .first<AgreementRow>();
  return row ? presentAgreement(row, new Date().toISOString()) : null;
}

export async function listAgreements(db: D1Database, vendorId: number, limit: number, offset: number) {
  const [rows, total] = await db.batch([
    db.prepare(`${AGREEMENT_SELECT} WHERE a.vendor_id = ?1 ORDER BY a.id LIMIT ?2 OFFSET ?3`).bind(vendorId, limit, offset),
    db.prepare("SELECT count(*) AS n FROM price_agreements WHERE vendor_id = ?1").bind(vendorId),
  ]);
  const now = new Date().toISOString();
  return {
    agreements: (rows!.results as AgreementRow[]).map((row) => presentAgreement(row, now)),
    total: (total!.results[0] as { n: number }).n,
  };
}

/** Agreements of the vendor with the same scope whose periods overlap [from, to): ?1 vendor, ?2 scope, ?3 tenant, ?4 tier, ?5 from, ?6 to, ?7 facilities (JSON), ?8 an agreement left out. */
const OVERLAPPING =
  "SELECT a.id FROM price_agreements a WHERE a.vendor_id = ?1 AND a.ended_at IS NULL AND a.scope = ?2 AND a.tenant_id IS ?3 AND a.tier_id IS ?4 " +
  "AND a.effective_from < coalesce(?6, '9999') AND coalesce(a.effective_to, '9999') > ?5 AND a.id IS NOT ?8 " +
  "AND (?2 != 'facilities' OR EXISTS (SELECT 1 FROM price_agreement_facilities f WHERE f.agreement_id = a.id AND f.facility_id IN (SELECT value FROM json_each(?7))))";

interface ScopeColumns {
  scope: "tenant" | "facilities" | "tier";
  tenantId: number | null;
  tierId: number | null;
  facilityIds: number[];
}

const columnsOf = (scope: AgreementInput["scope"]): ScopeColumns => ({
  scope: scope.kind,
  tenantId: scope.kind === "tier" ? null : scope.tenantId,
  tierId: scope.kind === "tier" ? scope.tierId : null,
  facilityIds: scope.kind === "facilities" ? [...new Set(scope.facilityIds)] : [],
});

const overlapBinds = (vendorId: number, s: ScopeColumns, from: string, to: string | null, except: number | null) =>
  [vendorId, s.scope, s.tenantId, s.tierId, from, to, JSON.stringify(s.facilityIds), except] as const;

const overlapConflict = (ids: number[]) =>
  new ProblemError(
    409,
    "agreement-overlaps",
    "Overlapping agreement",
    `Agreement ${ids.join(", ")} has the same scope for an overlapping period; end it or set its effectiveTo first.`,
  );

/**
 * Creates an agreement: its scope must exist (the tenant, its facilities, the tier), every SKU must be a current
 * offer of the vendor and every product in the catalog (422, naming the lines), and no agreement of the vendor with
 * the same scope may overlap its period (409). The agreement, its facilities and prices are one transaction.
 */
export async function createAgreement(env: { DB: D1Database; CATALOG: D1Database }, vendorId: number, input: AgreementInput, now: Date) {
  const scope = columnsOf(input.scope);
  const skus = input.prices.flatMap((line) => (line.sku !== undefined ? [line.sku] : []));
  const productIds = input.prices.flatMap((line) => (line.productId !== undefined ? [line.productId] : []));
  const [[tenantRows, facilityRows, tierRows, offerRows, overlapRows], productRows] = await Promise.all([
    env.DB.batch([
      env.DB.prepare("SELECT id FROM tenants WHERE id = ?1").bind(scope.tenantId),
      env.DB.prepare(
        "SELECT f.id FROM facilities f JOIN companies c ON c.id = f.company_id WHERE c.tenant_id = ?1 AND f.id IN (SELECT value FROM json_each(?2))",
      ).bind(scope.tenantId, JSON.stringify(scope.facilityIds)),
      env.DB.prepare("SELECT id FROM price_tiers WHERE id = ?1").bind(scope.tierId),
      env.DB.prepare(
        "SELECT sku, product_id FROM vendor_offers WHERE vendor_id = ?1 AND replaced_at IS NULL AND sku IN (SELECT value FROM json_each(?2))",
      ).bind(vendorId, JSON.stringify(skus)),
      env.DB.prepare(OVERLAPPING).bind(...overlapBinds(vendorId, scope, input.effectiveFrom, input.effectiveTo ?? null, null)),
    ]),
    env.CATALOG.prepare("SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?1))")
      .bind(JSON.stringify(productIds))
      .all<{ id: string }>(),
  ]);
  const problems: string[] = [];
  if (scope.tenantId !== null && tenantRows!.results.length === 0) problems.push(`scope.tenantId: no tenant ${scope.tenantId}.`);
  if (scope.tierId !== null && tierRows!.results.length === 0) problems.push(`scope.tierId: no tier ${scope.tierId}.`);
  const ownFacilities = new Set((facilityRows!.results as { id: number }[]).map((row) => row.id));
  scope.facilityIds.forEach((facilityId) => {
    if (!ownFacilities.has(facilityId))
      problems.push(`scope.facilityIds: facility ${facilityId} is not a facility of tenant ${scope.tenantId}.`);
  });
  const offerProducts = new Map((offerRows!.results as { sku: string; product_id: string }[]).map((row) => [row.sku, row.product_id]));
  const knownProducts = new Set(productRows.results.map((row) => row.id));
  const lines = input.prices.map((line, i) => {
    const productId =
      line.sku !== undefined ? offerProducts.get(line.sku) : knownProducts.has(line.productId!) ? line.productId : undefined;
    if (productId === undefined) {
      problems.push(
        line.sku !== undefined
          ? `prices[${i}].sku: the vendor has no offer with SKU ${line.sku}.`
          : `prices[${i}].productId: no product ${line.productId} in the catalog.`,
      );
    }
    return { sku: line.sku ?? null, productId: productId ?? "", priceCents: textToCents(line.price)! };
  });
  if (problems.length > 0) throw unprocessable(problems);
  const overlapping = (overlapRows!.results as { id: number }[]).map((row) => row.id);
  if (overlapping.length > 0) throw overlapConflict(overlapping);

  const createdAt = now.toISOString();
  // The agreement is inserted only if nothing overlaps it now (else a concurrent create won: nothing is written); its
  // facilities and prices name it by this request's key, and nothing when it was not inserted.
  const creationKey = crypto.randomUUID();
  const inserted = "(SELECT id FROM price_agreements WHERE creation_key = ?1)";
  const [agreement] = await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO price_agreements (vendor_id, reference, scope, tenant_id, tier_id, effective_from, effective_to, created_at, creation_key) " +
        `SELECT ?1, ?9, ?2, ?3, ?4, ?5, ?6, ?10, ?11 WHERE NOT EXISTS (${OVERLAPPING}) RETURNING id`,
    ).bind(...overlapBinds(vendorId, scope, input.effectiveFrom, input.effectiveTo ?? null, null), input.reference, createdAt, creationKey),
    env.DB.prepare(
      `INSERT INTO price_agreement_facilities (agreement_id, facility_id) SELECT ${inserted}, value FROM json_each(?2) WHERE ${inserted} IS NOT NULL`,
    ).bind(creationKey, JSON.stringify(scope.facilityIds)),
    env.DB.prepare(
      `INSERT INTO price_agreement_prices (agreement_id, vendor_id, product_id, sku, price_cents) SELECT ${inserted}, ?3, ` +
        `j.value ->> 'productId', j.value ->> 'sku', j.value ->> 'priceCents' FROM json_each(?2) j WHERE ${inserted} IS NOT NULL ORDER BY j.key`,
    ).bind(creationKey, JSON.stringify(lines), vendorId),
  ]);
  const agreementId = (agreement!.results[0] as { id: number } | undefined)?.id;
  if (agreementId === undefined) {
    const { results } = await env.DB.prepare(OVERLAPPING)
      .bind(...overlapBinds(vendorId, scope, input.effectiveFrom, input.effectiveTo ?? null, null))
      .all<{ id: number }>();
    throw overlapConflict(results.map((row) => row.id));
  }
  return (await findAgreement(env.DB, vendorId, agreementId))!;
}

/**
 * Sets or clears an agreement's end (effectiveTo): 404 for another vendor's or an unknown one, 409 when the new
 * period would overlap another agreement of the same scope or the agreement has ended. Quotes issued before keep
 * their price.
 */
export async function changeAgreementEnd(db: D1Database, vendorId: number, agreementId: number, effectiveTo: string | null) {
  const current = await findAgreement(db, vendorId, agreementId);
  if (!current) return null;
  if (current.endedAt) throw new ProblemError(409, "agreement-ended", "Agreement ended", "An ended agreement cannot change.");
  if (effectiveTo !== null && effectiveTo <= current.effectiveFrom) {
    throw unprocessable(["effectiveTo: must be after the agreement's effectiveFrom."]);
  }
  const scope = columnsOf(current.scope);
  const [overlaps] = await db.batch([
    db.prepare(OVERLAPPING).bind(...overlapBinds(vendorId, scope, current.effectiveFrom, effectiveTo, agreementId)),
    db
      .prepare(
        `UPDATE price_agreements SET effective_to = ?9 WHERE id = ?8 AND vendor_id = ?1 AND ended_at IS NULL AND NOT EXISTS (${OVERLAPPING})`,
      )
      .bind(...overlapBinds(vendorId, scope, current.effectiveFrom, effectiveTo, agreementId), effectiveTo),
  ]);
  const conflicting = (overlaps!.results as { id: number }[]).map((row) => row.id);
  if (conflicting.length > 0) throw overlapConflict(conflicting);
  return findAgreement(db, vendorId, agreementId);
}

/** Ends an agreement now (no new quotes at its prices); false for another vendor's or an unknown one. */
export async function endAgreement(db: D1Database, vendorId: number, agreementId: number, now: Date): Promise<boolean> {
  const [, found] = await db.batch([
    db
      .prepare("UPDATE price_agreements SET ended_at = ?3 WHERE id = ?1 AND vendor_id = ?2 AND ended_at IS NULL")
      .bind(agreementId, vendorId, now.toISOString()),
    db.prepare("SELECT 1 AS one FROM price_agreements WHERE id = ?1 AND vendor_id = ?2").bind(agreementId, vendorId),
  ]);
  return found!.results.length > 0;
}
