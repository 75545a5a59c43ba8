import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SORT_DIRECTIONS } from "../../src/platform/pagination";
import { PART_NUMBER_OF_DEVICE_ID } from "../../src/shared/catalog/device-ids";
import { parseKeywords } from "../../src/shared/catalog/keywords";
import {
  CATALOG_SORT_FIELDS,
  type CatalogFilters,
  catalogSearchStatements,
  EXACT_COUNT_LIMIT,
  RANK_WINDOW,
  type SqlStatement,
} from "../../src/shared/catalog/search-sql";

/**
 * The catalog must stay fast at 100,000+ products: every statement of a search is answered from an
 * index, the FTS5 index or the facet counters. EXPLAIN QUERY PLAN shows the strategy SQLite picked.
 */

interface PlanStep {
  id: number;
  parent: number;
  detail: string;
}

async function planSteps({ sql, params }: SqlStatement): Promise<PlanStep[]> {
  const { results } = await env.CATALOG.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<PlanStep>();
  return results;
}

async function plan(statement: SqlStatement): Promise<string[]> {
  return (await planSteps(statement)).map((step) => step.detail);
}

/** Steps that open a query scope of their own (a subquery); everything else belongs to its parent's. */
const opensScope = (detail: string) =>
  /^(MATERIALIZE|CO-ROUTINE|SCALAR SUBQUERY|CORRELATED SCALAR SUBQUERY|LIST SUBQUERY|CORRELATED LIST SUBQUERY|COMPOUND QUERY)/.test(detail);

/** The id of the subquery a step runs in (0 for the outermost query). */
function scopeOf(step: PlanStep, byId: Map<number, PlanStep>): number {
  let parent = byId.get(step.parent);
  while (parent && !opensScope(parent.detail)) parent = byId.get(parent.parent);
  return parent?.id ?? 0;
}

/**
 * The reasons a plan would read every product (or every product-sized row), empty when it is fine.
 * `orderedWalk`: the statement has a LIMIT, so walking an index in the requested order stops after
 * offset + limit entries (a page); a count or facet statement has no LIMIT and must never walk one.
 */
function fullScans(steps: PlanStep[], orderedWalk = false): string[] {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const sortedScopes = new Set(steps.filter((s) => s.detail.includes("TEMP B-TREE FOR ORDER BY")).map((s) => scopeOf(s, byId)));
  return steps
    .filter(
      (step) =>
        /^SCAN (products|product_categories|vendor_offers)( |$)/.test(step.detail) &&
        // Walking an index in the requested order is fine: LIMIT stops it after offset + limit rows.
        // Not when the same query then sorts what it read: that sort needs every row first.
        !(orderedWalk && /^SCAN products USING (COVERING )?INDEX /.test(step.detail) && !sortedScopes.has(scopeOf(step, byId))),
    )
    .map((step) => step.detail);
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
    SORT_DIRECTIONS.map((sortDirection) => ({
      name: `${name}, ${sortBy} ${sortDirection}`,
      filters,
      page: { limit: 50, offset: 100, sortBy, sortDirection },
    })),
  ),
);

describe("catalog search query plans", () => {
  it("the detector flags a LIKE over the products table (it can fail)", async () => {
    const steps = await planSteps({ sql: "SELECT id FROM products WHERE description LIKE ?", params: ["%pump%"] });
    expect(fullScans(steps)).not.toEqual([]);
  });

  it("the detector flags an index walk that is then sorted in the same query, even inside a subquery", async () => {
    const steps = await planSteps({
      sql: "SELECT * FROM manufacturers WHERE id IN (SELECT manufacturer_id FROM products ORDER BY part_number LIMIT 5)",
      params: [],
    });
    expect(steps.map((s) => s.detail).join(" | ")).toContain("SCAN products USING INDEX products_part_number_id");
    expect(fullScans(steps, true)).toEqual([]);
    expect(fullScans(steps, false)).not.toEqual([]);
    const sorted = await planSteps({
      sql: "SELECT * FROM manufacturers WHERE id IN (SELECT manufacturer_id FROM products INDEXED BY products_part_number_id ORDER BY description LIMIT 5)",
      params: [],
    });
    expect(fullScans(sorted, true)).not.toEqual([]);
  });

  it.each(cases)("$name: page, count and facet statements use indexes", async ({ filters, page }) => {
    const statements = catalogSearchStatements(filters, page);
    for (const [label, statement] of [
      ...statements.items.map((items) => ["items", items] as const),
      ...statements.counts.map((counts) => ["counts", counts] as const),
    ]) {
      const steps = await planSteps(statement);
      expect(fullScans(steps, label === "items"), `${label}: ${steps.map((s) => s.detail).join(" | ")}`).toEqual([]);
      // The statement also runs (the plan is of a valid query).
      await env.CATALOG.prepare(statement.sql)
        .bind(...statement.params)
        .all();
    }
  });

  it("keyword searches start from the full-text index", async () => {
    const statements = catalogSearchStatements(FILTERS.keywords!, { limit: 50, offset: 0, sortBy: "Relevance", sortDirection: "Desc" });
    // The page first looks the query up as an exact part number (two index searches), then reads the full-text index.
    for (const statement of [...statements.items, ...statements.counts]) {
      const reads = (await plan(statement)).filter((step) => /^(SCAN|SEARCH) products/.test(step));
      expect(
        reads.find((step) => !/^SEARCH products USING COVERING INDEX products_(normalized|unprefixed)_part_number/.test(step)),
      ).toMatch(/^SCAN products_fts VIRTUAL TABLE INDEX \d+:M/);
    }
  });

  it("a one-word query's device identifier lookup reads device_identifiers by primary key, products by id", async () => {
    const deviceIds = parseKeywords("A999ESU4410")!.deviceIds;
    expect(deviceIds.map((id) => id.agency)).toEqual(["HIBCC", "HIBCC", "ICCBBA"]);
    const steps = await plan({ sql: PART_NUMBER_OF_DEVICE_ID, params: [JSON.stringify(deviceIds)] });
    expect(steps.filter((step) => /^(SCAN|SEARCH) (d|p)\b/.test(step))).toEqual([
      expect.stringMatching(/^SEARCH d USING PRIMARY KEY \(agency=\? AND device_id=\?\)/),
      expect.stringMatching(/^SEARCH p USING .*\(id=\?\)/),
    ]);
  });

  it("an unfiltered listing reads the sort index in order, without sorting the catalog", async () => {
    for (const sortBy of CATALOG_SORT_FIELDS) {
      for (const items of catalogSearchStatements(none, { limit: 50, offset: 0, sortBy, sortDirection: "Desc" }).items) {
        expect((await plan(items)).join(" | ")).not.toContain("TEMP B-TREE");
      }
    }
  });

  it("keywords within manufacturers, by part number: the manufacturer index covers the walk, the matches only filter it", async () => {
    const filters: CatalogFilters = { ...FILTERS.keywords!, manufacturers: ["GE Healthcare"] };
    for (const sortBy of ["PartNumber", "Manufacturer"] as const) {
      const steps = await plan(catalogSearchStatements(filters, { limit: 50, offset: 0, sortBy, sortDirection: "Asc" }).items.at(-1)!);
      // Before the page is read: products through the manufacturer index only, none by rowid.
      const walk = steps.slice(0, steps.indexOf("SCAN page")).filter((step) => / products /.test(`${step} `));
      expect(walk, steps.join(" | ")).toEqual([
        "SEARCH products USING COVERING INDEX products_manufacturer_part_number_id (manufacturer_id=?)",
      ]);
    }
  });

  it("a deep page walks a covering index past the skipped rows and reads product rows for the page only", async () => {
    for (const sortBy of CATALOG_SORT_FIELDS) {
      for (const sortDirection of SORT_DIRECTIONS) {
        // The last statement walks the sort index (the fallback while positions are not current).
        const steps = await planSteps(catalogSearchStatements(none, { limit: 50, offset: 90_000, sortBy, sortDirection }).items.at(-1)!);
        const byId = new Map(steps.map((step) => [step.id, step]));
        const readsOfProducts = steps.filter((step) => / products /.test(`${step.detail} `));
        const inPage = readsOfProducts.filter((step) => scopeOf(step, byId) !== 0).map((step) => step.detail);
        const outside = readsOfProducts.filter((step) => scopeOf(step, byId) === 0).map((step) => step.detail);
        const where = `${sortBy} ${sortDirection}: ${steps.map((s) => s.detail).join(" | ")}`;
        expect(inPage, where).toHaveLength(1);
        expect(inPage[0], where).toMatch(/^(SCAN|SEARCH) products USING COVERING INDEX /);
        expect(outside, where).toEqual(["SEARCH products USING INTEGER PRIMARY KEY (rowid=?)"]);
      }
    }
  });

  it("with current positions, a deep page of the whole catalog is a range of them: no walk past the skipped rows", async () => {
    for (const sortBy of ["PartNumber", "Description", "Manufacturer"] as const) {
      for (const sortDirection of SORT_DIRECTIONS) {
        const [positioned] = catalogSearchStatements(none, { limit: 50, offset: 90_000, sortBy, sortDirection }).items;
        const details = await plan(positioned!);
        const where = `${sortBy} ${sortDirection}: ${details.join(" | ")}`;
        expect(
          details.some((d) => /SEARCH catalog_positions USING PRIMARY KEY \(sort_by=\? AND position>\? AND position<\?\)/.test(d)),
          where,
        ).toBe(true);
        expect(
          details.some((d) => /^SCAN products/.test(d)),
          where,
        ).toBe(false);
      }
    }
  });

  it("relevance reads the matches once and scores only the window, and counts read them once", async () => {
    const statements = catalogSearchStatements(FILTERS.keywords!, { limit: 50, offset: 0, sortBy: "Relevance", sortDirection: "Desc" });
    const [items] = statements.items;
    expect(items!.params).toContain(RANK_WINDOW + 50);
    expect(statements.counts).toHaveLength(1);
    expect(statements.counts[0]!.params.at(-1)).toBe(EXACT_COUNT_LIMIT + 1);
    expect((await plan(statements.counts[0]!)).filter((d) => /^SCAN products_fts VIRTUAL TABLE INDEX \d+:M/.test(d))).toHaveLength(1);
    const details = await plan(items!);
    // One full-text read, no bm25(): its setup alone would read every product of each term.
    expect(details.filter((d) => /^SCAN products_fts VIRTUAL TABLE INDEX \d+:M/.test(d)).length, details.join(" | ")).toBe(1);
    expect(items!.sql).not.toContain("bm25");
    // The window's rows are read by rowid, one each.
    expect(details, details.join(" | ")).toContain("SEARCH products USING INTEGER PRIMARY KEY (rowid=?)");
    expect(
      details.some((d) => /^SEARCH products USING (COVERING )?INDEX products_normalized_part_number/.test(d)),
      details.join(" | "),
    ).toBe(true);
    expect(
      details.some((d) => /^SEARCH products USING (COVERING )?INDEX products_unprefixed_part_number/.test(d)),
      details.join(" | "),
    ).toBe(true);
  });

  it("the largest search binds at most 100 values per statement (D1's limit) and runs", async () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
    const values = (prefix: string) => Array.from({ length: 50 }, (_, i) => `${prefix} ${i}`);
    const filters: CatalogFilters = { keywords: parseKeywords(words), manufacturers: values("Maker"), categories: values("Category") };
    for (const sortBy of CATALOG_SORT_FIELDS) {
      for (const sortDirection of SORT_DIRECTIONS) {
        const statements = catalogSearchStatements(filters, { limit: 100, offset: 5000, sortBy, sortDirection });
        for (const statement of [...statements.items, ...statements.counts]) {
          expect(statement.params.length, `${sortBy} ${sortDirection}`).toBeLessThanOrEqual(100);
          await env.CATALOG.prepare(statement.sql)
            .bind(...statement.params)
            .all();
        }
      }
    }
  });
});
