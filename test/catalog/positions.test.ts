import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SORT_DIRECTIONS } from "../../src/platform/pagination";
import { POSITIONED_ORDERS, refreshCatalogPositions } from "../../src/shared/catalog/positions";
import { DEMO_PRODUCT_COUNT, insertProducts, search } from "../helpers/catalog";

/**
 * Deep pages of the whole catalog read precomputed positions while they hold for the current catalog version, and
 * walk the sort index otherwise (src/shared/catalog/positions.ts). Both must give the very same pages.
 */
const SORTS = Object.keys(POSITIONED_ORDERS) as (keyof typeof POSITIONED_ORDERS)[];
const OFFSETS = [0, 7, 250, DEMO_PRODUCT_COUNT - 30, DEMO_PRODUCT_COUNT - 1, DEMO_PRODUCT_COUNT, DEMO_PRODUCT_COUNT + 50];

async function pages() {
  const out: Record<string, string[]> = {};
  for (const sortBy of SORTS) {
    for (const sortDirection of SORT_DIRECTIONS) {
      for (const offset of OFFSETS) {
        const result = await search({ pagination: { limit: 40, offset, sortBy, sortDirection } });
        out[`${sortBy} ${sortDirection} @${offset}`] = result.items.map((item) => item.id);
      }
    }
  }
  return out;
}

const builtVersions = async () =>
  (await env.CATALOG.prepare("SELECT sort_by AS sortBy, catalog_version AS version FROM catalog_positions_built ORDER BY sort_by").all())
    .results;

describe("precomputed sort positions of the whole catalog", () => {
  it("give exactly the pages the index walk gives, in both directions, up to and past the end", async () => {
    const walked = await pages();
    expect(await refreshCatalogPositions(env.CATALOG)).toEqual(SORTS);
    const { n } = (await env.CATALOG.prepare("SELECT COUNT(*) AS n FROM catalog_positions").first<{ n: number }>())!;
    expect(n).toBe(DEMO_PRODUCT_COUNT * SORTS.length);
    expect(await pages()).toEqual(walked);
    expect(walked["PartNumber Asc @600"]).toEqual([]);
    expect(walked["PartNumber Desc @599"]).toHaveLength(1);
    // Proof that the pages came from the positions: swap the first two (the catalog version stays) and look.
    const { results: firstTwo } = await env.CATALOG.prepare(
      "SELECT product_rowid AS r FROM catalog_positions WHERE sort_by = 'PartNumber' AND position IN (1, 2) ORDER BY position",
    ).all<{ r: number }>();
    const setRowid = env.CATALOG.prepare("UPDATE catalog_positions SET product_rowid = ? WHERE sort_by = 'PartNumber' AND position = ?");
    await env.CATALOG.batch([setRowid.bind(firstTwo[1]!.r, 1), setRowid.bind(firstTwo[0]!.r, 2)]);
    const swapped = await search({ pagination: { limit: 2, sortBy: "PartNumber" } });
    expect(swapped.items.map((item) => item.id)).toEqual(walked["PartNumber Asc @0"]!.slice(0, 2).reverse());
  });

  it("are rebuilt only when stale; after a catalog change the search walks the index (and sees the change) until then", async () => {
    await refreshCatalogPositions(env.CATALOG);
    expect(await refreshCatalogPositions(env.CATALOG)).toEqual([]);
    const before = await builtVersions();
    // A product whose part number sorts first: the positions no longer know it.
    await insertProducts([
      {
        id: "MP-FIRST",
        partNumber: "0000FIRST",
        displayPartNumber: "0000-FIRST",
        title: "First",
        description: "First part",
        manufacturerId: 1,
        categories: [],
      },
    ]);
    const first = await search({ pagination: { limit: 3, sortBy: "PartNumber" } });
    expect(first.items[0]!.id).toBe("MP-FIRST");
    expect(await refreshCatalogPositions(env.CATALOG)).toEqual(SORTS);
    expect(await builtVersions()).not.toEqual(before);
    expect((await search({ pagination: { limit: 3, sortBy: "PartNumber" } })).items.map((i) => i.id)).toEqual(first.items.map((i) => i.id));
    await env.CATALOG.prepare("DELETE FROM products WHERE id = 'MP-FIRST'").run();
  });
});
