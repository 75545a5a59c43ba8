import { seedDemoData } from "../../src/dev/seed/seed";
import { compactFullTextIndex } from "../../src/shared/catalog/full-text-index";
import { refreshCatalogPositions } from "../../src/shared/catalog/positions";
import { cliArgs, UsageError } from "../cli";
import { applyLocalMigrations, type LocalState, withLocalBindings } from "./local-platform";

/** `npm run seed -- --products 100000`: migrations, then demo data into the local D1. Re-runnable. */
export async function seedLocal(products: number, state: LocalState = {}): Promise<void> {
  applyLocalMigrations(state);
  const started = Date.now();
  await withLocalBindings(async (env) => {
    await seedDemoData(
      { db: env.DB, catalog: env.CATALOG },
      {
        products,
        onProgress: (done, total) => {
          if (total >= 20_000 && (done % 20_000 === 0 || done === total)) console.log(`  seeded ${done}/${total} products`);
        },
      },
    );
    // What the scheduled housekeeping does after a catalog change, done now so that the first searches have them.
    await refreshCatalogPositions(env.CATALOG);
    // And what its runs converge to: one full-text segment (src/shared/catalog/full-text-index.ts).
    await compactFullTextIndex(env.CATALOG, Number.POSITIVE_INFINITY);
  }, state);
  console.log(`Seeded demo data with ${products} products in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { values } = cliArgs(
    "seed",
    "Applies the migrations to the local D1 databases and loads the demo data (tenants, users, catalog).",
    {
      products: { type: "string", default: "600", help: "catalog size", value: "<n>" },
      "persist-to": { type: "string", help: "the local state directory (default: wrangler's, .wrangler/state)", value: "<dir>" },
    },
  );
  const products = Number(values.products);
  if (!Number.isInteger(products) || products < 1) throw new UsageError(`--products is a positive whole number, not "${values.products}".`);
  await seedLocal(products, { persistTo: values["persist-to"] });
}
