import type { Bindings } from "../../env";
import { pushDirectoryChanges } from "../../operator/tenant-stores/directory-mirror";
import { StoreDatabase } from "../../shared/tenants/store-database";
import { tenantStore } from "../../shared/tenants/stub";
import { DEMO_PRODUCT_RANGE, demoOrders, orderStatements } from "./orders";
import { TENANTS } from "./organizations";

/**
 * The demo tenants' stores as the seed leaves them: their directory pushed from `DB` (the changes its seed recorded),
 * their demo orders written, and their lines published to the vendors' projections. Safe to run again: the orders are
 * INSERT OR IGNORE, a push skips what a store already applied, and publishing starts once. Runs inside workerd: the
 * tests' setup, and the dev Worker's seed route that every local runtime calls once live (scripts/dev/worker.ts). The
 * demo orders are those of the catalog the seed wrote (its first products).
 */
export async function seedDemoStores(env: Pick<Bindings, "DB" | "CATALOG" | "TENANT_STORE">): Promise<void> {
  await pushDirectoryChanges(env);
  const products = await env.CATALOG.prepare("SELECT count(*) AS n FROM (SELECT 1 FROM products LIMIT ?1)")
    .bind(DEMO_PRODUCT_RANGE)
    .first<number>("n");
  const orders = demoOrders(products ?? 0);
  await Promise.all(
    TENANTS.map(async ({ id }) => {
      const store = tenantStore(env, id);
      const own = orders.filter((order) => order.tenantId === id);
      if (own.length > 0) {
        const db = new StoreDatabase(store);
        await db.batch(orderStatements(db, own));
      }
      await store.startPublishing();
    }),
  );
}
