import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type SearchBody, search } from "../helpers/catalog";

/**
 * Migration 0006 rebuilds the full-text index with prefix indexes. In the test database it ran before
 * the catalog was seeded; here it runs again over the loaded catalog, as it does on a live database.
 */

const REBUILD = env.TEST_MIGRATIONS.find((migration) => migration.name.startsWith("0006_"));

const SEARCHES: SearchBody[] = [
  { filters: { query: "battery pack" } },
  { filters: { query: "ge" } },
  { filters: { query: "oly 1" }, pagination: { sortBy: "PartNumber" } },
  {
    filters: { query: "valve", facets: [{ field: "manufacturer", values: ["Olympus", "GE Healthcare"] }] },
    pagination: { sortBy: "Description" },
  },
  { filters: { query: "sensor adult" }, pagination: { sortBy: "Relevance", sortDirection: "Asc" } },
];

async function snapshot() {
  const results = [];
  for (const body of SEARCHES) {
    const result = await search({ ...body, pagination: { limit: 10_000, ...body.pagination } });
    results.push({ ids: result.items.map((item) => item.id), total: result.pagination.total, facets: result.facets });
  }
  return results;
}

describe("migration 0006: full-text index with prefix indexes", () => {
  it("declares 2- and 3-character prefix indexes", async () => {
    const table = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'products_fts'").first<{ sql: string }>();
    expect(table?.sql).toMatch(/prefix\s*=\s*'2 3'/);
  });

  it("rebuilt over a loaded catalog, it gives every search the same results", async () => {
    expect(REBUILD?.queries.length).toBeGreaterThan(0);
    const before = await snapshot();
    expect(before.every((result) => result.total > 0)).toBe(true);
    await env.DB.batch(REBUILD!.queries.map((sql) => env.DB.prepare(sql)));
    expect(await snapshot()).toEqual(before);
  });
});
