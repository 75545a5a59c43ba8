import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { facetNarrowing } from "../../src/shared/catalog/keywords";
import { facetOf, insertProducts, search } from "../helpers/catalog";

/**
 * With keywords, the chosen facet values also narrow the full-text match (src/shared/catalog/search-sql.ts).
 * That narrowing must never change a result: names nested in other names, punctuation, quotes,
 * accents and values without any letter all give exactly what the exact facet condition gives.
 */

const KEYWORD = "zzwidget";
const MANUFACTURERS = ["Medi", "Medi Tech", "Medi-Tech Labs", '"Q" Devices', "+++", "Médi"];
const CATEGORIES = ["Lab", "Lab Supplies", "Supplies", "+-+"];

interface Fixture {
  id: string;
  partNumber: string;
  manufacturer: string;
  categories: string[];
}

const FIXTURES: Fixture[] = Array.from({ length: 36 }, (_, i) => ({
  id: `ZZ-${String(i).padStart(4, "0")}`,
  partNumber: `ZZ${String(1000 + ((i * 7) % 36)).padStart(4, "0")}`,
  manufacturer: MANUFACTURERS[i % MANUFACTURERS.length]!,
  categories: i % 3 === 0 ? [CATEGORIES[i % 4]!, CATEGORIES[(i + 1) % 4]!] : [CATEGORIES[i % 4]!],
}));

beforeAll(async () => {
  const manufacturerIds = new Map(MANUFACTURERS.map((name, i) => [name, 9000 + i]));
  await env.CATALOG.batch(
    MANUFACTURERS.map((name) =>
      env.CATALOG.prepare("INSERT INTO manufacturers (id, name) VALUES (?, ?)").bind(manufacturerIds.get(name), name),
    ),
  );
  await insertProducts(
    FIXTURES.map((p) => ({
      id: p.id,
      partNumber: p.partNumber,
      title: `${p.manufacturer} part`,
      description: `A ${KEYWORD} by ${p.manufacturer}`,
      manufacturerId: manufacturerIds.get(p.manufacturer)!,
      categories: p.categories,
    })),
  );
});

/** SQLite's NOCASE: only ASCII letters fold. */
const nocase = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const selects = (values: string[] | undefined, candidate: string) => !values || values.some((v) => nocase(v) === nocase(candidate));

function expected(manufacturers?: string[], categories?: string[]) {
  const matches = (p: Fixture, m: string[] | undefined, c: string[] | undefined) =>
    selects(m, p.manufacturer) && (!c || p.categories.some((category) => selects(c, category)));
  const countBy = (products: Fixture[], keysOf: (p: Fixture) => string[]) => {
    const counts = new Map<string, number>();
    for (const p of products) for (const key of keysOf(p)) counts.set(key, (counts.get(key) ?? 0) + 1);
    return counts;
  };
  return {
    ids: FIXTURES.filter((p) => matches(p, manufacturers, categories))
      .sort((a, b) => a.partNumber.localeCompare(b.partNumber))
      .map((p) => p.id),
    manufacturerFacet: countBy(
      FIXTURES.filter((p) => matches(p, undefined, categories)),
      (p) => [p.manufacturer],
    ),
    categoryFacet: countBy(
      FIXTURES.filter((p) => matches(p, manufacturers, undefined)),
      (p) => p.categories,
    ),
  };
}

const SELECTIONS: { manufacturers?: string[]; categories?: string[] }[] = [
  { manufacturers: ["Medi"] },
  { manufacturers: ["medi tech"] },
  { manufacturers: ["MEDI-TECH LABS"] },
  { manufacturers: ['"q" devices'] },
  { manufacturers: ["+++"] },
  { manufacturers: ["Medi", "+++"] },
  { manufacturers: ["Médi"] },
  { manufacturers: ["médi"] },
  { manufacturers: ['"'] },
  { categories: ["Lab"] },
  { categories: ["lab supplies"] },
  { categories: ["Supplies", "+-+"] },
  { manufacturers: ["Medi Tech", "Médi"], categories: ["LAB"] },
  { manufacturers: ["medi"], categories: ["+-+"] },
];

describe("POST /catalog/search: facet values narrowing a keyword search", () => {
  it.each(SELECTIONS)("%j gives exactly the products, total and counts of the exact facet match", async (selection) => {
    const facets = [
      ...(selection.manufacturers ? [{ field: "manufacturer", values: selection.manufacturers }] : []),
      ...(selection.categories ? [{ field: "category", values: selection.categories }] : []),
    ];
    const want = expected(selection.manufacturers, selection.categories);
    for (const sortBy of ["PartNumber", "Relevance"]) {
      const result = await search({ filters: { query: KEYWORD, facets }, pagination: { limit: 100, sortBy, sortDirection: "Asc" } });
      const ids = result.items.map((item) => item.id);
      if (sortBy === "PartNumber") expect(ids).toEqual(want.ids);
      else expect([...ids].sort()).toEqual([...want.ids].sort());
      expect(result.pagination.total).toBe(want.ids.length);
      expect(facetOf(result, "manufacturer")).toEqual(want.manufacturerFacet);
      expect(facetOf(result, "category")).toEqual(want.categoryFacet);
    }
  });

  it("the fixture exercises both narrowing and its fallback, and the selections are not all empty", () => {
    expect(facetNarrowing("manufacturer", ["Medi", '"Q" Devices'])).toBe('(manufacturer : "Medi" OR manufacturer : """Q"" Devices")');
    expect(facetNarrowing("categories", ["Lab", "+-+"])).toBeNull();
    expect(SELECTIONS.filter((s) => expected(s.manufacturers, s.categories).ids.length > 0).length).toBeGreaterThan(8);
  });

  it("a relevance order is the same with and without the facet, restricted to the facet", async () => {
    const all = await search({
      filters: { query: `${KEYWORD} medi` },
      pagination: { limit: 100, sortBy: "Relevance", sortDirection: "Desc" },
    });
    const selected = ["Medi Tech", "Medi-Tech Labs"];
    const narrowed = await search({
      filters: { query: `${KEYWORD} medi`, facets: [{ field: "manufacturer", values: selected }] },
      pagination: { limit: 100, sortBy: "Relevance", sortDirection: "Desc" },
    });
    expect(narrowed.items.length).toBeGreaterThan(0);
    expect(narrowed.items.map((i) => i.id)).toEqual(all.items.filter((i) => selected.includes(i.oem)).map((i) => i.id));
  });
});
