import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { readPriceOption } from "../../src/shared/catalog/price-option-ids";
import { priceOptionKeys } from "../../src/shared/catalog/quotes";
import { call, json, vendorTokenFor } from "../helpers/api";
import { runs } from "../helpers/depth";
import { issueQuotes, JSMITH } from "../helpers/orders";

/**
 * Over random agreements, tiers, facilities and dates, the price of every issued quote equals the eligible price
 * computed here independently (docs/decisions.md): contract over list; of several contract prices the lowest; at
 * equal prices the most specific scope (facilities, tenant, tier), then the oldest agreement. The agreements are
 * written straight to the database, overlaps included, so the rule is checked on any data, not only what the API
 * lets in.
 */

const PRODUCT = productId(70);
const VENDORS = [1, 3, 6];
const TIERS = [9001, 9002];
const FACILITIES = [1001, 1002];
const DAY = 86_400_000;

interface Line {
  bySku: boolean;
  cents: number;
}
interface Agreement {
  id: number;
  vendor: number;
  scope: { kind: "tenant"; tenantId: number } | { kind: "facilities"; facilityIds: number[] } | { kind: "tier"; tierId: number };
  fromDays: number;
  toDays: number | null;
  ended: boolean;
  lines: Line[];
}

const agreementArb = (id: number) =>
  fc.record({
    id: fc.constant(id),
    vendor: fc.constantFrom(...VENDORS),
    scope: fc.oneof(
      fc.record({ kind: fc.constant("tenant" as const), tenantId: fc.constantFrom(1, 2) }),
      fc.record({ kind: fc.constant("facilities" as const), facilityIds: fc.subarray(FACILITIES, { minLength: 1 }) }),
      fc.record({ kind: fc.constant("tier" as const), tierId: fc.constantFrom(...TIERS) }),
    ),
    fromDays: fc.integer({ min: -30, max: 10 }),
    toDays: fc.option(fc.integer({ min: -20, max: 40 }), { nil: null }),
    ended: fc.boolean(),
    // At most one line per kind (the SKU's, the product's): an agreement holds one price per line.
    lines: fc.uniqueArray(fc.record({ bySku: fc.boolean(), cents: fc.integer({ min: 100, max: 5000 }) }), {
      minLength: 1,
      maxLength: 2,
      selector: (line) => line.bySku,
    }),
  });

const scenarioArb = fc.record({
  tiersOfTenant: fc.subarray(TIERS),
  agreements: fc.integer({ min: 0, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => agreementArb(800_000 + i)))),
});

const SCOPE_RANK = { facilities: 0, tenant: 1, tier: 2 } as const;

/** An agreement's period: whole days off by a fraction, so that no boundary falls within the test's run of `now`. */
const periodOf = (a: Agreement, now: number) => {
  const from = now + (a.fromDays - 0.5) * DAY;
  return { from, to: a.toDays === null ? null : from + (Math.abs(a.toDays) + 0.25) * DAY };
};

/** The eligible price of the vendor's offer for jsmith at facility 1001, computed from the scenario alone. */
function expectedPrice(
  offer: { vendor: number; listCents: number },
  scenario: { tiersOfTenant: number[]; agreements: Agreement[] },
  now: number,
) {
  const applies = (a: Agreement) => {
    const { from, to } = periodOf(a, now);
    if (a.vendor !== offer.vendor || a.ended || from > now || (to !== null && to <= now)) return false;
    if (a.scope.kind === "tenant") return a.scope.tenantId === JSMITH.tenantId;
    if (a.scope.kind === "facilities") return a.scope.facilityIds.includes(JSMITH.facilityId);
    return scenario.tiersOfTenant.includes(a.scope.tierId);
  };
  const candidates = scenario.agreements
    .filter(applies)
    .flatMap((a) => a.lines.map((line) => ({ cents: line.cents, rank: SCOPE_RANK[a.scope.kind], id: a.id })))
    .sort((x, y) => x.cents - y.cents || x.rank - y.rank || x.id - y.id);
  const best = candidates[0];
  return best ? { cents: best.cents, agreementId: best.id } : { cents: offer.listCents, agreementId: 0 };
}

async function writeScenario(scenario: { tiersOfTenant: number[]; agreements: Agreement[] }, skuOf: Map<number, string>, now: number) {
  const db = env.DB;
  await db.batch([
    db.prepare("DELETE FROM price_agreement_prices WHERE agreement_id >= 800000"),
    db.prepare("DELETE FROM price_agreement_facilities WHERE agreement_id >= 800000"),
    db.prepare("DELETE FROM price_agreements WHERE id >= 800000"),
    db.prepare("DELETE FROM tenant_price_tiers WHERE tenant_id = ?").bind(JSMITH.tenantId),
    ...scenario.tiersOfTenant.map((tier) =>
      db.prepare("INSERT INTO tenant_price_tiers (tenant_id, tier_id) VALUES (?, ?)").bind(JSMITH.tenantId, tier),
    ),
  ]);
  const statements = scenario.agreements.flatMap((a) => {
    const { from, to } = periodOf(a, now);
    const tenantId = a.scope.kind === "tier" ? null : a.scope.kind === "tenant" ? a.scope.tenantId : JSMITH.tenantId;
    const tierId = a.scope.kind === "tier" ? a.scope.tierId : null;
    return [
      db
        .prepare(
          "INSERT INTO price_agreements (id, vendor_id, reference, scope, tenant_id, tier_id, effective_from, effective_to, ended_at, created_at, creation_key) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        )
        .bind(
          a.id,
          a.vendor,
          `PROP-${a.id}`,
          a.scope.kind,
          tenantId,
          tierId,
          new Date(from).toISOString(),
          to === null ? null : new Date(to).toISOString(),
          a.ended ? new Date(now - DAY).toISOString() : null,
          new Date(now).toISOString(),
          `prop-${a.id}`,
        ),
      ...(a.scope.kind === "facilities"
        ? a.scope.facilityIds.map((f) =>
            db.prepare("INSERT INTO price_agreement_facilities (agreement_id, facility_id) VALUES (?, ?)").bind(a.id, f),
          )
        : []),
      ...a.lines.map((line) =>
        db
          .prepare("INSERT INTO price_agreement_prices (agreement_id, vendor_id, product_id, sku, price_cents) VALUES (?,?,?,?,?)")
          .bind(a.id, a.vendor, PRODUCT, line.bySku ? skuOf.get(a.vendor)! : null, line.cents),
      ),
    ];
  });
  if (statements.length > 0) await db.batch(statements);
}

describe("eligible prices (property)", () => {
  it("every quote's price is the eligible price computed independently, and its id names the agreement", async () => {
    // One offer of the product per vendor, at a list price of its own.
    const skuOf = new Map(VENDORS.map((vendor) => [vendor, `T-ELIG-${vendor}`]));
    const listCents = new Map(VENDORS.map((vendor, i) => [vendor, 2000 + i * 700]));
    await env.DB.prepare(
      "INSERT OR IGNORE INTO price_tiers (id, name, created_at) VALUES (9001, 'Prop tier A', '2026-01-01T00:00:00Z'), (9002, 'Prop tier B', '2026-01-01T00:00:00Z')",
    ).run();
    await env.DB.prepare("UPDATE vendor_offers SET withdrawn_at = '2026-01-01T00:00:00Z' WHERE product_id = ? AND sku NOT LIKE 'T-ELIG-%'")
      .bind(PRODUCT)
      .run();
    for (const vendor of VENDORS) {
      const res = await call(await vendorTokenFor(vendor), `/vendor/api/offers/${skuOf.get(vendor)}`, {
        method: "PUT",
        json: {
          productId: PRODUCT,
          condition: "New OEM",
          purchaseChoice: "Buy",
          warranty: "12 months",
          price: listCents.get(vendor)! / 100,
          leadTimeDays: 2,
        },
      });
      expect(res.status, JSON.stringify(await json(res.clone()))).toBeLessThan(300);
    }
    const now = Date.now();
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        await writeScenario(scenario, skuOf, now);
        const quotes = await issueQuotes(PRODUCT);
        expect(quotes).toHaveLength(VENDORS.length);
        for (const quote of quotes) {
          const vendor = VENDORS.find((v) => skuOf.get(v) === (quote as unknown as { vendorSku: string }).vendorSku)!;
          const expected = expectedPrice({ vendor, listCents: listCents.get(vendor)! }, scenario, now);
          expect(quote.priceCents).toBe(expected.cents);
          const terms = (await readPriceOption(priceOptionKeys(env), quote.priceOptionId))!;
          expect(terms).toMatchObject({ priceCents: expected.cents, agreementId: expected.agreementId });
          expect((quote as unknown as { priceSource: string }).priceSource).toBe(expected.agreementId ? "contract" : "list");
        }
      }),
      { numRuns: runs({ quick: 25, deep: 120 }) },
    );
  });
});
