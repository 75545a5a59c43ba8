import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDeviceIdentifiers } from "../../src/dev/seed/catalog";
import { gtin14Of } from "../../src/shared/catalog/gtin";
import { expectProblem, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { type CatalogItem, DEMO_PRODUCT_COUNT, facetOf, type SearchBody, search, searchRaw } from "../helpers/catalog";

const ALL = { limit: 10_000 };
const ids = (items: CatalogItem[]) => items.map((i) => i.id);
const words = (item: CatalogItem) =>
  `${item.partNumber} ${item.displayPartNumber} ${item.description} ${item.oem} ${item.categories.join(" ")}`
    .toLowerCase()
    .split(/[^a-z0-9]+/);

describe("POST /catalog/search: keywords", () => {
  it("an empty query lists the whole catalog, sorted by part number, with the envelope", async () => {
    const res = await searchRaw({});
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body).toMatchObject({ success: true, correlationId: expect.any(String), timestamp: expect.any(String) });
    expect(body.data.pagination).toEqual({ total: DEMO_PRODUCT_COUNT, limit: 50, offset: 0, hasMore: true, totalRelation: "eq" });
    expect(body.data.sort).toEqual({ sortBy: "PartNumber", sortDirection: "Asc" });
    expect(body.data.items).toHaveLength(50);
    expect(Object.keys(body.data.items[0]).sort()).toEqual(["categories", "description", "displayPartNumber", "id", "oem", "partNumber"]);
  });

  it("a query of punctuation only, or whitespace, also lists everything", async () => {
    for (const query of ["  ", "--- / ---", ""]) {
      expect((await search({ filters: { query } })).pagination.total).toBe(DEMO_PRODUCT_COUNT);
    }
  });

  it("matches every keyword (AND), each as a word prefix", async () => {
    const result = await search({ filters: { query: "batter pack" }, pagination: ALL });
    expect(result.pagination.total).toBeGreaterThan(0);
    expect(result.pagination.total).toBeLessThan(DEMO_PRODUCT_COUNT);
    for (const item of result.items) {
      const w = words(item);
      expect(w.some((x) => x.startsWith("batter"))).toBe(true);
      expect(w.some((x) => x.startsWith("pack"))).toBe(true);
    }
    // "pack" is a prefix: the same products as the whole word, since no longer word starts with it.
    expect(ids((await search({ filters: { query: "battery pack" }, pagination: ALL })).items).sort()).toEqual(ids(result.items).sort());
  });

  it("a short prefix finds the longer words", async () => {
    const result = await search({ filters: { query: "defib" }, pagination: ALL });
    expect(result.pagination.total).toBeGreaterThan(0);
    for (const item of result.items) expect(item.description).toMatch(/Defibrillator/);
  });

  it("searches the manufacturer name and the categories", async () => {
    const medtronic = await search({ filters: { query: "medtronic" }, pagination: ALL });
    expect(medtronic.pagination.total).toBe(DEMO_PRODUCT_COUNT / 24);
    expect(new Set(medtronic.items.map((i) => i.oem))).toEqual(new Set(["Medtronic"]));

    const all = await search({});
    const endoscopy = await search({ filters: { query: "endoscopy" }, pagination: ALL });
    expect(endoscopy.pagination.total).toBe(facetOf(all, "category").get("Endoscopy"));
    for (const item of endoscopy.items) expect(item.categories).toContain("Endoscopy");
  });

  it("is case- and accent-insensitive", async () => {
    const plain = ids((await search({ filters: { query: "mounting bracket" }, pagination: ALL })).items);
    expect(plain.length).toBeGreaterThan(0);
    expect(ids((await search({ filters: { query: "MOUNTING Bracket" }, pagination: ALL })).items)).toEqual(plain);
    expect(ids((await search({ filters: { query: "mountíng brácket" }, pagination: ALL })).items)).toEqual(plain);
  });

  it("a query that matches nothing returns an empty page", async () => {
    const result = await search({ filters: { query: "zzzqqq" } });
    expect(result.items).toEqual([]);
    expect(result.pagination).toEqual({ total: 0, limit: 50, offset: 0, hasMore: false, totalRelation: "eq" });
  });

  it("FTS5 syntax in the query is taken as plain text, never as operators", async () => {
    for (const query of ['"unbalanced', "NEAR(a b)", "part_number: GE*", "a OR b NOT c", "^x", "(((", "*"]) {
      expect((await searchRaw({ filters: { query } })).status).toBe(200);
    }
  });
});

describe("POST /catalog/search: part numbers and relevance", () => {
  // MP-0000003 is SH115838A, displayed "SH-115-838 A".
  it.each(["115-838 A", "115838a", "115838A", "115 838 a", "SH-115-838 A", "sh115838a", "SH115838A"])(
    "%s finds part SH115838A first (relevance by default)",
    async (query) => {
      const result = await search({ filters: { query } });
      expect(result.sort).toEqual({ sortBy: "Relevance", sortDirection: "Desc" });
      expect(result.items[0]).toMatchObject({ id: "MP-0000003", partNumber: "SH115838A", displayPartNumber: "SH-115-838 A" });
    },
  );

  it("a part-number prefix finds the parts starting with it", async () => {
    const result = await search({ filters: { query: "GE-100" }, pagination: ALL });
    expect(ids(result.items)).toContain("MP-0000001");
    expect(result.items[0]!.partNumber.startsWith("GE100")).toBe(true);
  });

  it("ranks a part-number hit above products that only mention the words", async () => {
    // "Module" appears in titles and descriptions; the exact part comes first nonetheless.
    const result = await search({ filters: { query: "GE100000" }, pagination: ALL });
    expect(result.items[0]!.id).toBe("MP-0000001");
  });
});

describe("POST /catalog/search: a GTIN typed or scanned", () => {
  // MP-0000003 (index 2) has the unit GTIN 00614100000022 (src/dev/seed/catalog.ts).
  const unit = generateDeviceIdentifiers(2)[0]!.deviceId;

  it.each([unit, unit.slice(2), ` ${unit}\r\n`])(
    "%j finds its product first, with the counts of its part number's search",
    async (query) => {
      const result = await search({ filters: { query }, pagination: ALL });
      expect(result.items[0]).toMatchObject({ id: "MP-0000003", partNumber: "SH115838A" });
      const byPartNumber = await search({ filters: { query: "SH115838A" }, pagination: ALL });
      expect(result.pagination.total).toBe(byPartNumber.pagination.total);
      expect(ids(result.items)).toEqual(ids(byPartNumber.items));
    },
  );

  describe("an HIBCC device identifier, or a package level no longer in commercial distribution", () => {
    // Stored as GUDID writes HIBCC DIs (with the + flag) and without it; a case of 10 that old stock still carries.
    const PACKAGE = gtin14Of("5061410000002");
    beforeAll(async () => {
      await env.CATALOG.prepare(
        "INSERT INTO device_identifiers (agency, device_id, product_id, contains_device_id, quantity) VALUES " +
          "('HIBCC', '+H729BP03000', 'MP-0000003', NULL, NULL), ('HIBCC', 'H729SD12000', 'MP-0000003', NULL, NULL), ('GS1', ?1, 'MP-0000003', ?2, 10)",
      )
        .bind(PACKAGE, unit)
        .run();
    });

    it.each(["+H729BP03000", "+h729bp03000", " +H729SD12000\r\n", PACKAGE])("%j finds its product first, like its GTIN", async (query) => {
      const result = await search({ filters: { query }, pagination: ALL });
      const byGtin = await search({ filters: { query: unit }, pagination: ALL });
      expect(result.items[0]).toMatchObject({ id: "MP-0000003" });
      expect(ids(result.items)).toEqual(ids(byGtin.items));
    });

    it("an HIBCC DI without its + flag finds it too (GUDID writes either form), stored either way", async () => {
      const byGtin = await search({ filters: { query: unit }, pagination: ALL });
      for (const query of ["H729BP03000", "h729sd12000"]) {
        expect(ids((await search({ filters: { query }, pagination: ALL })).items), query).toEqual(ids(byGtin.items));
      }
    });

    it("an HIBCC DI of no product is searched as typed", async () => {
      for (const query of ["+H729BP03009", "H729BP03009"]) {
        expect(ids((await search({ filters: { query }, pagination: ALL })).items), query).not.toContain("MP-0000003");
      }
    });
  });

  it("digits that are not a GTIN of the catalog (a wrong check digit, an unknown GTIN) are searched as typed", async () => {
    const wrongCheckDigit = `${unit.slice(0, -1)}${(Number(unit.at(-1)) + 1) % 10}`;
    for (const query of [wrongCheckDigit, "00000000000000"]) {
      const result = await search({ filters: { query } });
      expect(ids(result.items)).not.toContain("MP-0000003");
    }
  });
});

describe("POST /catalog/search: facets", () => {
  it("returns manufacturer and category counts for the whole catalog", async () => {
    const result = await search({});
    expect(result.facets.map((f) => f.field)).toEqual(["manufacturer", "category"]);
    const manufacturers = facetOf(result, "manufacturer");
    expect(manufacturers.size).toBe(24);
    expect([...manufacturers.values()].reduce((a, b) => a + b, 0)).toBe(DEMO_PRODUCT_COUNT);
    const categories = facetOf(result, "category");
    expect(categories.size).toBe(10);
    expect([...categories.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(DEMO_PRODUCT_COUNT);
    // Largest first.
    const counts = result.facets[1]!.values.map((v) => v.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("counts follow the query, and filtering by a value yields exactly its count", async () => {
    const query = "sensor";
    const result = await search({ filters: { query } });
    const manufacturers = facetOf(result, "manufacturer");
    expect([...manufacturers.values()].reduce((a, b) => a + b, 0)).toBe(result.pagination.total);
    const [name, count] = [...manufacturers.entries()][0]!;
    const narrowed = await search({ filters: { query, facets: [{ field: "manufacturer", values: [name] }] }, pagination: ALL });
    expect(narrowed.pagination.total).toBe(count);
    expect(new Set(narrowed.items.map((i) => i.oem))).toEqual(new Set([name]));
    // The manufacturer facet still offers the alternatives (its own selection is left out).
    expect(facetOf(narrowed, "manufacturer")).toEqual(manufacturers);
  });

  it("category counts follow the query and a manufacturer, and filtering by each category yields exactly its count", async () => {
    const filters = { query: "cable", facets: [{ field: "manufacturer", values: ["GE Healthcare"] }] };
    const result = await search({ filters, pagination: ALL });
    const categories = facetOf(result, "category");
    expect(categories.size).toBeGreaterThan(1);
    // A product in two categories counts once in each.
    expect([...categories.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(result.pagination.total);
    for (const [category, count] of categories) {
      const narrowed = await search({
        filters: { ...filters, facets: [...filters.facets, { field: "category", values: [category] }] },
        pagination: ALL,
      });
      expect(narrowed.pagination.total, category).toBe(count);
      expect(narrowed.items.every((item) => item.categories.includes(category))).toBe(true);
    }
  });

  it("values of one facet are alternatives, different facets all apply, names match case-insensitively", async () => {
    const result = await search({
      filters: {
        facets: [
          { field: "manufacturer", values: ["ge healthcare", "BAXTER"] },
          { field: "category", values: ["imaging", "Infusion"] },
        ],
      },
      pagination: ALL,
    });
    expect(result.pagination.total).toBeGreaterThan(0);
    for (const item of result.items) {
      expect(["GE Healthcare", "Baxter"]).toContain(item.oem);
      expect(item.categories.some((c) => c === "Imaging" || c === "Infusion")).toBe(true);
    }
    const byCategory = facetOf(result, "category");
    const imagingOnly = await search({
      filters: {
        facets: [
          { field: "manufacturer", values: ["GE Healthcare", "Baxter"] },
          { field: "category", values: ["Imaging"] },
        ],
      },
    });
    expect(imagingOnly.pagination.total).toBe(byCategory.get("Imaging"));
  });

  it("an unknown facet value matches nothing", async () => {
    const result = await search({ filters: { facets: [{ field: "manufacturer", values: ["Acme"] }] } });
    expect(result.pagination.total).toBe(0);
  });

  it("an unknown facet field is a 400 naming the valid fields", async () => {
    const body = await expectProblem(await searchRaw({ filters: { facets: [{ field: "color", values: ["red"] }] } }), 400);
    expect(body.errors["filters.facets[0].field"][0]).toContain("manufacturer, category");
  });
});

describe("POST /catalog/search: sorting", () => {
  const lower = (s: string) => s.toLowerCase();
  const keys: Record<string, (i: CatalogItem) => string[]> = {
    PartNumber: (i) => [i.partNumber, i.id],
    Description: (i) => [i.description, i.id],
    Manufacturer: (i) => [lower(i.oem), i.partNumber, i.id],
  };
  const compare = (a: string[], b: string[]) => {
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! < b[k]! ? -1 : 1;
    return 0;
  };

  it.each(Object.keys(keys))("%s sorts ascending and descending, with the id as tie-break", async (sortBy) => {
    const asc = await search({ pagination: { ...ALL, sortBy, sortDirection: "Asc" } });
    const desc = await search({ pagination: { ...ALL, sortBy, sortDirection: "Desc" } });
    expect(asc.sort).toEqual({ sortBy, sortDirection: "Asc" });
    expect(desc.sort).toEqual({ sortBy, sortDirection: "Desc" });
    expect(asc.items).toHaveLength(DEMO_PRODUCT_COUNT);
    const key = keys[sortBy]!;
    expect(ids(asc.items)).toEqual(ids([...asc.items].sort((a, b) => compare(key(a), key(b)))));
    expect(ids(desc.items)).toEqual(ids(asc.items).reverse());
  });

  it("sortDirection defaults to Asc for fields", async () => {
    expect((await search({ pagination: { sortBy: "Description" } })).sort).toEqual({ sortBy: "Description", sortDirection: "Asc" });
  });

  it("Relevance Desc puts the best match first, Asc is its exact reverse", async () => {
    const query = "monitor bracket";
    const desc = await search({ filters: { query }, pagination: { ...ALL, sortBy: "Relevance", sortDirection: "Desc" } });
    const asc = await search({ filters: { query }, pagination: { ...ALL, sortBy: "Relevance", sortDirection: "Asc" } });
    expect(desc.items.length).toBeGreaterThan(1);
    expect(desc.items[0]!.description).toMatch(/^Monitor Mounting Bracket/);
    expect(ids(asc.items)).toEqual(ids(desc.items).reverse());
  });

  it("Relevance without keywords: all equal, so Desc is catalog (id) order and Asc its reverse", async () => {
    const desc = await search({ pagination: { limit: 3, sortBy: "Relevance" } });
    expect(desc.sort).toEqual({ sortBy: "Relevance", sortDirection: "Desc" });
    expect(ids(desc.items)).toEqual(["MP-0000001", "MP-0000002", "MP-0000003"]);
    const asc = await search({ pagination: { limit: 3, sortBy: "Relevance", sortDirection: "Asc" } });
    expect(ids(asc.items)).toEqual(["MP-0000600", "MP-0000599", "MP-0000598"]);
  });

  it("a keyword search can be sorted by a field", async () => {
    const result = await search({ filters: { query: "cable" }, pagination: { ...ALL, sortBy: "PartNumber", sortDirection: "Desc" } });
    const parts = result.items.map((i) => i.partNumber);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts).toEqual([...parts].sort().reverse());
  });

  it("an unknown sortBy is a 400 listing the valid values", async () => {
    const body = await expectProblem(await searchRaw({ pagination: { sortBy: "Price" } }), 400);
    expect(body.errors["pagination.sortBy"][0]).toContain("PartNumber, Description, Manufacturer, Relevance");
  });

  it("an unknown field anywhere is a 400 naming it, never ignored: a misspelt filter would have listed the whole catalog", async () => {
    for (const [body, errors] of [
      [{ filters: { querry: "pump" } }, { "filters.querry": ["Unknown field; did you mean query?"] }],
      [
        { pagination: { sortBy: "PartNumber", sortDir: "Desc" } },
        { "pagination.sortDir": ["Unknown field; expected one of: limit, offset, sortBy, sortDirection."] },
      ],
      [{ filters: { facets: [{ field: "category", values: ["Imaging"], op: "or" }] } }, { "filters.facets[0].op": [expect.any(String)] }],
      [{ facilityID: 1001 }, { facilityID: ["Unknown field; did you mean facilityId?"] }],
    ]) {
      expect((await expectProblem(await searchRaw(body as SearchBody), 400)).errors, JSON.stringify(body)).toEqual(errors);
    }
  });

  it("an unknown sortDirection is a 400 listing Asc and Desc", async () => {
    const body = await expectProblem(await searchRaw({ pagination: { sortBy: "PartNumber", sortDirection: "up" } }), 400);
    expect(body.errors["pagination.sortDirection"][0]).toContain("Asc, Desc");
  });
});

describe("POST /catalog/search: pagination (spec 4.16)", () => {
  it.each([
    [{ limit: 0 }, { limit: 50, offset: 0 }],
    [{ limit: -5 }, { limit: 50, offset: 0 }],
    [{ limit: 20_000 }, { limit: 10_000, offset: 0 }],
    [
      { limit: 10, offset: -1 },
      { limit: 10, offset: 0 },
    ],
    [
      { limit: "25", offset: "5" },
      { limit: 25, offset: 5 },
    ],
    [{}, { limit: 50, offset: 0 }],
  ])("%j is corrected silently to %j", async (pagination, used) => {
    const result = await search({ pagination });
    expect(result.pagination).toMatchObject(used);
    expect(result.items).toHaveLength(Math.min(used.limit, DEMO_PRODUCT_COUNT - used.offset));
  });

  it("an offset beyond the end gives an empty page with the total", async () => {
    const result = await search({ pagination: { offset: 5000 } });
    expect(result.items).toEqual([]);
    expect(result.pagination).toEqual({ total: DEMO_PRODUCT_COUNT, limit: 50, offset: 5000, hasMore: false, totalRelation: "eq" });
  });

  it.each([
    ["the whole catalog by part number", {}, { sortBy: "PartNumber" }, 97],
    ["the whole catalog by description (many equal values)", {}, { sortBy: "Description", sortDirection: "Desc" }, 97],
    ["a keyword query by relevance (many equal scores)", { query: "sensor" }, {}, 7],
    ["the whole catalog by manufacturer, descending", {}, { sortBy: "Manufacturer", sortDirection: "Desc" }, 61],
    [
      "a keyword and facet query by part number",
      { query: "cable", facets: [{ field: "category", values: ["Imaging", "Patient Monitoring"] }] },
      { sortBy: "PartNumber" },
      3,
    ],
  ])("paging until hasMore is false visits %s exactly once, in the order of one big page", async (_name, filters, sort, limit) => {
    const seen: string[] = [];
    let offset = 0;
    let total = -1;
    for (let pages = 0; pages < 100; pages++) {
      const { items, pagination } = await search({ filters, pagination: { ...sort, limit, offset } });
      seen.push(...ids(items));
      total = pagination.total;
      if (!pagination.hasMore) break;
      offset += pagination.limit;
    }
    expect(total).toBeGreaterThan(limit * 3);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual(ids((await search({ filters, pagination: { ...sort, limit: total } })).items));
  });
});

describe("POST /catalog/search: validation and access", () => {
  it("requesterId and facilityId are required integers", async () => {
    const body = await expectProblem(await searchRaw({ requesterId: undefined, facilityId: "x" }), 400);
    expect(Object.keys(body.errors).sort()).toEqual(["facilityId", "requesterId"]);
  });

  it("a query longer than 200 characters is a 400", async () => {
    const body = await expectProblem(await searchRaw({ filters: { query: "a".repeat(201) } }), 400);
    expect(body.errors["filters.query"]).toBeDefined();
  });

  it("a requester without access to the facility is 403 (user 4 has none)", async () => {
    await expectProblem(await searchRaw({ requesterId: 50004, facilityId: 1001 }), 403);
  });

  it("a facility of another tenant is 403", async () => {
    await expectProblem(await searchRaw({ requesterId: 50001, facilityId: 2001 }), 403);
  });

  it("a tenant-2 token naming a tenant-1 requester is 403, its own requester is fine", async () => {
    const tokenB = await tokenFor(TENANT_B);
    await expectProblem(await searchRaw({ requesterId: 50001, facilityId: 1001 }, tokenB), 403);
    expect((await searchRaw({ requesterId: 60001, facilityId: 2001 }, tokenB)).status).toBe(200);
  });

  it("needs the catalog:read scope and a token", async () => {
    await expectProblem(await searchRaw({}, await tokenFor(TENANT_A, ["users:read"])), 403);
    await expectProblem(await searchRaw({}, "not-a-token"), 401);
  });
});
