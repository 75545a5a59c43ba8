import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { insertProducts, search } from "../helpers/catalog";

/** A product's categories have one source, products.categories; product_categories follows it (catalog-migrations/0003). */
const categoriesOf = async (productId: string) =>
  (
    await env.CATALOG.prepare("SELECT category FROM product_categories WHERE product_id = ? ORDER BY category")
      .bind(productId)
      .all<{ category: string }>()
  ).results.map((row) => row.category);

const countOf = async (category: string) =>
  (await env.CATALOG.prepare("SELECT product_count FROM catalog_category_counts WHERE category = ?")
    .bind(category)
    .first<number>("product_count")) ?? 0;

const insertProduct = (id: string, categories: string[]) =>
  insertProducts([{ id, partNumber: id, title: "Wombat clamp", description: "Wombat clamp", manufacturerId: 1, categories }]);

describe("product_categories follows products.categories", () => {
  it("on insert, update and delete, with a repeated name counted once; filters and counts agree", async () => {
    const before = { surgical: await countOf("Surgical"), imaging: await countOf("Imaging") };
    await insertProduct("WB-1", ["Surgical", "Imaging", "Surgical"]);
    expect(await categoriesOf("WB-1")).toEqual(["Imaging", "Surgical"]);
    expect(await countOf("Surgical")).toBe(before.surgical + 1);

    const filtered = await search({ filters: { query: "wombat", facets: [{ field: "category", values: ["Imaging"] }] } });
    expect(filtered.items.map((item) => item.id)).toEqual(["WB-1"]);
    const counted = await search({ filters: { query: "wombat" } });
    expect(counted.facets.find((f) => f.field === "category")!.values).toEqual([
      { value: "Imaging", count: 1 },
      { value: "Surgical", count: 1 },
    ]);

    await env.CATALOG.prepare("UPDATE products SET categories = ? WHERE id = 'WB-1'")
      .bind(JSON.stringify(["Imaging"]))
      .run();
    expect(await categoriesOf("WB-1")).toEqual(["Imaging"]);
    expect(await countOf("Surgical")).toBe(before.surgical);
    expect((await search({ filters: { query: "wombat", facets: [{ field: "category", values: ["Surgical"] }] } })).items).toEqual([]);

    await env.CATALOG.prepare("DELETE FROM products WHERE id = 'WB-1'").run();
    expect(await categoriesOf("WB-1")).toEqual([]);
    expect(await countOf("Imaging")).toBe(before.imaging);
  });
});
