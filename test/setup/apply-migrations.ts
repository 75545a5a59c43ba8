import { applyD1Migrations, env } from "cloudflare:test";
import { clientStatus } from "../../src/auth/client-status";
import { DEFAULT_PRODUCT_COUNT, seedDemoData } from "../../src/seed/seed";
import { forgetGrantedAccess } from "../../src/users/access";
import { forgetCachedTokens } from "../helpers/api";

/**
 * Runs before each test file. Test files share one Worker per vitest worker (`isolate: false`, which saves a
 * workerd start per file), so both D1 databases are reset here: every table is dropped, then the schemas come
 * from migrations/ (DB) and catalog-migrations/ (CATALOG), and the deterministic demo data set is seeded. Each file starts from the same database.
 */
async function dropEverything(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .all<{ type: "table" | "view"; name: string }>();
  if (results.length === 0) return;
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...results.map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`)),
  ]);
}

forgetCachedTokens();
clientStatus.clear(); // the demo clients' ids repeat in every file's fresh database
forgetGrantedAccess();
await Promise.all([dropEverything(env.DB), dropEverything(env.CATALOG)]);
await Promise.all([applyD1Migrations(env.DB, env.TEST_MIGRATIONS), applyD1Migrations(env.CATALOG, env.TEST_CATALOG_MIGRATIONS)]);
await seedDemoData({ db: env.DB, catalog: env.CATALOG }, { products: DEFAULT_PRODUCT_COUNT });
