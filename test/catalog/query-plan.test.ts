import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SORT_DIRECTIONS } from "../../src/http/pagination";
import { parseKeywords } from "../../src/search/catalog-keywords";
import { CATALOG_SORT_FIELDS, catalogSearchStatements, type CatalogFilters, type SqlStatement } from "../../src/search/catalog-query";

/**
 * The catalog must stay fast at 100,000+ products: every statement of a search is answered from an
 * index, the FTS5 index or the facet counters. EXPLAIN QUERY PLAN shows the strategy SQLite picked.
 */

async function plan({ sql, params }: SqlStatement): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
  return results.map((r) => r.detail);
}

/** The reasons a plan would read every product (or every product-sized row), empty when it is fine. */
function fullScans(steps: string[]): string[] {
  const sortsEverything = steps.some((s) => s.includes("TEMP B-TREE FOR ORDER BY"));
  return steps.filter(
    (step) =>
      /^SCAN (products|product_categories|vendor_offers)( |$)/.test(step) &&
      // Walking an index in the requested order is fine: LIMIT stops it after offset + limit rows.
      !(step.startsWith("SCAN products USING INDEX ") && !sortsEverything),
  );
}

const none: CatalogFilters = { keywords: null, manufacturers: null, categories: null };
const FILTERS: Record<string, CatalogFilters> = {
  "no filter": none,
  keywords: { ...none, keywords: parseKeywords("battery pack") },
  "part number": { ...none, keywords: parseKeywords("12-345 A") },
  manufacturer: { ...none, manufacturers: ["GE Healthcare", "Baxter"] },
  category: { ...none, categories: ["Imaging"] },
  everything: { keywords: parseKeywords("sensor"), manufacturers: ["GE Healthcare"], categories: ["Imaging", "Surgical"] },
};

const cases = Object.entries(FILTERS).flatMap(([name, filters]) =>
  CATALOG_SORT_FIELDS.flatMap((sortBy) =>
    SORT_DIRECTIONS.map((sortDirection) => ({ name: `${name}, ${sortBy} ${sortDirection}`, filters, page: { limit: 50, offset: 100, sortBy, sortDirection } })),
  ),
);

describe("catalog search query plans", () => {
  it("the detector flags a LIKE over the products table (it can fail)", async () => {
    const steps = await plan({ sql: "SELECT id FROM products WHERE description LIKE ?", params: ["%pump%"] });
    expect(fullScans(steps)).not.toEqual([]);
  });

  it.each(cases)("$name: page, count and facet statements use indexes", async ({ filters, page }) => {
    const statements = catalogSearchStatements(filters, page);
    for (const [label, statement] of [
      ["items", statements.items],
      ["total", statements.total],
      ["manufacturer facet", statements.facets.manufacturer],
      ["category facet", statements.facets.category],
    ] as const) {
      const steps = await plan(statement);
      expect(fullScans(steps), `${label}: ${steps.join(" | ")}`).toEqual([]);
      // The statement also runs (the plan is of a valid query).
      await env.DB.prepare(statement.sql).bind(...statement.params).all();
    }
  });

  it("keyword searches start from the full-text index", async () => {
    const statements = catalogSearchStatements(FILTERS.keywords!, { limit: 50, offset: 0, sortBy: "Relevance", sortDirection: "Desc" });
    for (const statement of [statements.items, statements.total]) {
      expect((await plan(statement))[0]).toMatch(/^SCAN products_fts VIRTUAL TABLE INDEX \d+:M/);
    }
  });

  it("an unfiltered listing reads the sort index in order, without sorting the catalog", async () => {
    for (const sortBy of CATALOG_SORT_FIELDS) {
      const steps = await plan(catalogSearchStatements(none, { limit: 50, offset: 0, sortBy, sortDirection: "Desc" }).items);
      expect(steps.join(" | ")).not.toContain("TEMP B-TREE");
    }
  });
});
