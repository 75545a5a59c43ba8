import { applyD1Migrations, env } from "cloudflare:test";
import { DEFAULT_PRODUCT_COUNT, seedDemoData } from "../../src/dev/seed/seed";

/** Drops every view, then every table of a D1 database (foreign keys deferred, so the tables' order does not matter). */
export async function dropEverything(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type = 'table'",
    )
    .all<{ type: "table" | "view"; name: string }>();
  if (results.length === 0) return;
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...results.map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`)),
  ]);
}

/**
 * Both databases as every test file starts with: emptied, migrated from migrations/ (DB) and catalog-migrations/
 * (CATALOG), and seeded with the deterministic demo data.
 */
export async function resetDatabases(): Promise<void> {
  await Promise.all([dropEverything(env.DB), dropEverything(env.CATALOG)]);
  await Promise.all([applyD1Migrations(env.DB, env.TEST_MIGRATIONS), applyD1Migrations(env.CATALOG, env.TEST_CATALOG_MIGRATIONS)]);
  await seedDemoData({ db: env.DB, catalog: env.CATALOG }, { products: DEFAULT_PRODUCT_COUNT });
}
