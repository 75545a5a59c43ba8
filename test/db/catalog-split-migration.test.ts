import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoOrders, orderStatements } from "../../src/dev/seed/orders";
import { DEFAULT_PRODUCT_COUNT, seedDemoData } from "../../src/dev/seed/seed";
import { dropEverything, resetDatabases } from "../helpers/databases";

/**
 * Migration 0012 moves the catalog out of DB on a live database: it rebuilds vendor_offers, quotes, order_lines and
 * shipping_document_lines without their foreign keys to products, then drops the catalog. Here it runs over a loaded
 * database (the demo data, catalog and orders included, as it was before 0012), as it will in production.
 */
const SPLIT = "0012_";
const KEPT = ["vendor_offers", "quotes", "order_lines", "shipping_document_lines", "orders", "shipping_documents"];

const counts = async () =>
  Object.fromEntries(
    await Promise.all(
      KEPT.map(async (table) => [table, (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n]),
    ),
  );

describe("migration 0012 (the catalog in its own database) over a loaded database", () => {
  it("keeps every row that referred to a product, drops the catalog, and leaves no foreign key broken", async () => {
    await dropEverything(env.DB);
    await applyD1Migrations(
      env.DB,
      env.TEST_MIGRATIONS.filter((m) => m.name < SPLIT),
    );
    // Before 0012 the catalog lived in DB: seed it there, as it was then (device identifiers, SKUs and the tenant
    // stores came later), and the demo orders with it, which lived in DB too.
    await seedDemoData(
      { db: env.DB, catalog: env.DB },
      {
        products: DEFAULT_PRODUCT_COUNT,
        deviceIdentifiers: false,
        offerSkus: false,
        productCodes: false,
        userNames: false,
        tenantStores: false,
      },
    );
    await env.DB.batch(orderStatements(env.DB, demoOrders(DEFAULT_PRODUCT_COUNT)));
    const before = await counts();
    expect(before.order_lines).toBeGreaterThan(0);
    expect(before.shipping_document_lines).toBeGreaterThan(0);

    await applyD1Migrations(
      env.DB,
      env.TEST_MIGRATIONS.filter((m) => m.name.startsWith(SPLIT)),
    );

    expect(await counts()).toEqual(before);
    const tables = (
      await env.DB.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all<{ name: string }>()
    ).results.map((r) => r.name);
    for (const gone of [
      "products",
      "manufacturers",
      "product_categories",
      "products_fts",
      "product_search_documents",
      "catalog_manufacturer_counts",
    ]) {
      expect(tables).not.toContain(gone);
    }
    expect((await env.DB.prepare("PRAGMA foreign_key_check").all()).results).toEqual([]);
    // The foreign keys that stay still hold: a line of an unknown quote is refused.
    await expect(
      env.DB.prepare(
        "INSERT INTO order_lines (order_id, line_number, quote_id, product_id, vendor_id, part_number, requested_part_number, description, quantity, price_cents, extended_price_cents, status_name) " +
          "SELECT id, 99, 'no-such-quote', 'MP-0000001', 1, 'X', 'X', 'X', 1, 1, 1, 'Ordered' FROM orders LIMIT 1",
      ).run(),
    ).rejects.toThrow(/FOREIGN KEY/);

    // Back to the schema every other test file expects.
    await resetDatabases();
  });
});
