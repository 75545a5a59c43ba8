import { beforeAll, describe, expect, it } from "vitest";
import { EXACT_COUNT_LIMIT, RANK_WINDOW } from "../../src/shared/catalog/search-sql";
import { type CatalogItem, insertProducts, search } from "../helpers/catalog";

/**
 * Relevance scores a bounded window of matches and counts stop at a bound (src/shared/catalog/search-sql.ts). 1,100
 * products share the word "quokka", more than both bounds, so every limit is crossed here: the order must stay a
 * total order across the window's edge, and the counts must say when they stopped.
 */
const MATCHES = 1_100;
const MANUFACTURERS = 24;
const hasWordInPartNumber = (i: number) => i % 10 === 3 && i !== MATCHES - 1;
const hasWordInTitle = (i: number) => i % 5 === 0;

beforeAll(async () => {
  expect(MATCHES).toBeGreaterThan(EXACT_COUNT_LIMIT);
  expect(MATCHES).toBeGreaterThan(RANK_WINDOW);
  await insertProducts(
    Array.from({ length: MATCHES }, (_, i) => ({
      id: `QK-${i}`,
      // The last one's part number is what a buyer types as "quokka 7": an exact part number, far past the window.
      partNumber: i === MATCHES - 1 ? "QUOKKA7" : hasWordInPartNumber(i) ? `QUOKKA${i}` : `QK${String(i).padStart(5, "0")}`,
      // Every product has the word in its description; some also in the part number or the title, which weigh more, so
      // the window is really reordered.
      title: hasWordInTitle(i) ? `Quokka bracket ${i}` : `Bracket ${i}`,
      description: `Quokka bracket ${i}`,
      manufacturerId: (i % MANUFACTURERS) + 1,
      categories: ["Surgical"],
    })),
  );
});

const ids = (items: CatalogItem[]) => items.map((item) => item.id);

async function allPages(sortDirection: "Asc" | "Desc", limit: number) {
  const seen: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await search({ filters: { query: "quokka" }, pagination: { limit, offset, sortBy: "Relevance", sortDirection } });
    seen.push(...ids(page.items));
    if (!page.pagination.hasMore) return seen;
  }
}

describe("catalog search past the ranking window and the count bound", () => {
  it("total stops at the bound and says so; hasMore stays exact; the last pages count exactly", async () => {
    const first = await search({ filters: { query: "quokka" } });
    expect(first.pagination).toEqual({ total: EXACT_COUNT_LIMIT, limit: 50, offset: 0, hasMore: true, totalRelation: "gte" });
    const nearEnd = await search({ filters: { query: "quokka" }, pagination: { offset: MATCHES - 50, limit: 50 } });
    expect(nearEnd.pagination).toEqual({ total: MATCHES, limit: 50, offset: MATCHES - 50, hasMore: false, totalRelation: "eq" });
    const past = await search({ filters: { query: "quokka" }, pagination: { offset: EXACT_COUNT_LIMIT, limit: 10 } });
    expect(past.pagination).toMatchObject({ total: EXACT_COUNT_LIMIT + 10, hasMore: true, totalRelation: "gte" });
  });

  it("facet counts past the bound are those of the first matches, marked as lower bounds", async () => {
    const result = await search({ filters: { query: "quokka" } });
    const manufacturer = result.facets.find((f) => f.field === "manufacturer")!;
    expect(manufacturer.countsRelation).toBe("gte");
    expect(manufacturer.values.reduce((sum, v) => sum + v.count, 0)).toBe(EXACT_COUNT_LIMIT + 1);
    const narrowed = await search({ filters: { query: "quokka", facets: [{ field: "manufacturer", values: ["Baxter"] }] } });
    // The category facet counts Baxter's quokkas only (manufacturer 5), all of them, exactly.
    const baxters = Array.from({ length: MATCHES }, (_, i) => i).filter((i) => (i % MANUFACTURERS) + 1 === 5).length;
    const category = narrowed.facets.find((f) => f.field === "category")!;
    expect(category).toEqual({ field: "category", values: [{ value: "Surgical", count: baxters }], countsRelation: "eq" });
    expect(narrowed.pagination).toMatchObject({ total: baxters, totalRelation: "eq" });
  });

  it("paging by relevance visits every match once, in one order across the window's edge; Asc is its reverse", async () => {
    const desc = await allPages("Desc", 97);
    expect(desc).toHaveLength(MATCHES);
    expect(new Set(desc).size).toBe(MATCHES);
    const asc = await allPages("Asc", 250);
    expect(asc).toEqual([...desc].reverse());
  });

  it("inside the window the field a word is in orders (part number, then title), then rank order; after it, rank order", async () => {
    const desc = await allPages("Desc", 500);
    const window = Array.from({ length: RANK_WINDOW }, (_, i) => i);
    // The window holds the first RANK_WINDOW matches in rank order (insertion order here).
    expect(desc.slice(0, RANK_WINDOW)).toEqual(
      [
        ...window.filter(hasWordInPartNumber),
        ...window.filter(hasWordInTitle),
        ...window.filter((i) => !hasWordInPartNumber(i) && !hasWordInTitle(i)),
      ].map((i) => `QK-${i}`),
    );
    const rest = desc.slice(RANK_WINDOW).map((id) => Number(id.slice(3)));
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
  });

  it("the exact part number comes first, even when it is far past the window", async () => {
    const result = await search({ filters: { query: "quokka 7" }, pagination: { limit: 5 } });
    expect(result.items[0]!.id).toBe(`QK-${MATCHES - 1}`);
    expect(result.items[0]!.partNumber).toBe("QUOKKA7");
  });
});
