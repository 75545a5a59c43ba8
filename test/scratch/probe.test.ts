import { env } from "cloudflare:test";
import { it } from "vitest";
import { catalogSearchStatements, CATALOG_SORT_FIELDS } from "../../src/search/catalog-query";
import { parseKeywords } from "../../src/search/catalog-keywords";
it("probe", async () => {
  const variants = {
    none: { keywords: null, manufacturers: null, categories: null },
    kw: { keywords: parseKeywords("battery pack"), manufacturers: null, categories: null },
    man: { keywords: null, manufacturers: ["GE Healthcare", "Baxter"], categories: null },
    cat: { keywords: null, manufacturers: null, categories: ["Imaging"] },
    all: { keywords: parseKeywords("12-345 A"), manufacturers: ["GE Healthcare"], categories: ["Imaging"] },
  };
  for (const [name, f] of Object.entries(variants)) for (const sortBy of CATALOG_SORT_FIELDS) {
    const s = catalogSearchStatements(f as any, { limit: 50, offset: 0, sortBy, sortDirection: "Asc" });
    const list = sortBy === "PartNumber" ? { items: s.items, total: s.total, man: s.facets.manufacturer, cat: s.facets.category } : { items: s.items };
    for (const [k, st] of Object.entries(list)) {
      const plan = (await env.DB.prepare("EXPLAIN QUERY PLAN " + st.sql).bind(...st.params).all()).results.map((r: any) => r.detail);
      console.log(`${name}/${sortBy}/${k}: ${plan.join(" | ")}`);
      await env.DB.prepare(st.sql).bind(...st.params).all();
    }
  }
});
