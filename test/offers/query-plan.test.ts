import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { currentOffersQuery, OFFER_WRITES } from "../../src/operator/offers/offers";
import { ELIGIBLE_OFFERS_OF_PRODUCTS_SQL, ELIGIBLE_OFFERS_SQL } from "../../src/shared/catalog/eligible-prices";
import { PRODUCT_CODE_WRITES, PRODUCTS_OF_CODES } from "../../src/shared/catalog/product-codes";
import { ELIGIBLE_OFFERS_OF_CODES_SQL } from "../../src/shared/udi/quotes";

/**
 * Offer writes and reads are driven by their input: a batch of 1,000 rows costs 1,000 index seeks, whatever the
 * vendor's number of offers. A plan that scans vendor_offers (or joins the batch inside such a scan) is quadratic in
 * the vendor's offers: 100,000 offers in batches of 1,000 had not been written after 2.5 minutes that way.
 */
async function plan(sql: string, params: unknown[]): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

/** Steps that visit many of the vendor's offers: a scan, or a search on the vendor alone (every offer of the vendor). */
const scansOffers = (steps: string[]) =>
  steps.filter((step) => /^SCAN (vendor_offers|o)\b/.test(step) || /vendor_offers_current_sku \(vendor_id=\?\)$/.test(step));

describe("offer writes and reads: driven by the rows", () => {
  it("each statement of a write seeks the vendor's current offers by (vendor, sku) or by id, never scans them", async () => {
    for (const statement of OFFER_WRITES) {
      const steps = await plan(statement, [6, "[]", "2026-11-26T00:00:00.000Z"]);
      expect(scansOffers(steps), `${statement}\n${steps.join("\n")}`).toEqual([]);
      expect(steps.join("\n")).toMatch(/USING (INDEX vendor_offers_current_sku|INTEGER PRIMARY KEY)/);
    }
  });

  it("the current offers of a batch's SKUs are read through the SKU index", async () => {
    const { sql, params } = currentOffersQuery(env.DB, 6, ["A", "B"]).toSQL();
    const steps = await plan(sql, params);
    expect(scansOffers(steps), steps.join("\n")).toEqual([]);
    expect(steps.join("\n")).toMatch(/vendor_offers_current_sku \(vendor_id=\? AND sku=\?\)/);
  });

  it("catalog detail's eligible offers: the product's offers by the product index, their contract lines by (vendor, product)", async () => {
    const steps = await plan(ELIGIBLE_OFFERS_SQL, ["MP-0000001", 1, 1001, "2026-11-26T00:00:00.000Z"]);
    expect(scansOffers(steps), steps.join("\n")).toEqual([]);
    expect(steps.join("\n")).toMatch(/vendor_offers_current_product/);
    expect(steps.join("\n")).toMatch(/price_agreement_prices_offer/);
  });

  it("scan to order's offers of the scanned codes: the codes by primary key, their offers by the product index", async () => {
    const lookups = JSON.stringify([
      { k: 0, kind: "di", agency: "GS1", value: "00614100000015" },
      { k: 0, kind: "part", value: "ABC123" },
    ]);
    const scope = [1, 1001, "2026-11-26T00:00:00.000Z"];
    for (const [sql, params] of [
      [PRODUCTS_OF_CODES, [lookups]],
      [ELIGIBLE_OFFERS_OF_CODES_SQL, [lookups, ...scope]],
      [ELIGIBLE_OFFERS_OF_PRODUCTS_SQL, ['["MP-0000001"]', ...scope]],
    ] as const) {
      const steps = await plan(sql, [...params]);
      expect(scansOffers(steps), steps.join("\n")).toEqual([]);
      expect(
        steps.filter((step) => /^SCAN (product_codes|c|p)\b/.test(step)),
        steps.join("\n"),
      ).toEqual([]);
      if (sql !== PRODUCTS_OF_CODES) expect(steps.join("\n")).toMatch(/SEARCH o USING INDEX vendor_offers_current_product/);
      if (sql !== ELIGIBLE_OFFERS_OF_PRODUCTS_SQL) expect(steps.join("\n")).toMatch(/SEARCH c USING PRIMARY KEY \(agency=\? AND code=\?\)/);
    }
  });

  it("the copy of the catalog's codes is written by product index or primary key, never by a scan of it", async () => {
    for (const sql of Object.values(PRODUCT_CODE_WRITES)) {
      const steps = await plan(sql, ["[]"]);
      expect(
        steps.filter((step) => /^SCAN product_codes\b/.test(step)),
        `${sql}\n${steps.join("\n")}`,
      ).toEqual([]);
    }
    expect((await plan(PRODUCT_CODE_WRITES.forgetProducts, ["[]"])).join("\n")).toMatch(/product_codes_product/);
  });
});
