import type { Bindings } from "../../src/env";
import { clearStore, columnsIn, copyPages, NOT_STARTED, type TableProgress } from "../../src/operator/tenant-stores/copy";
import { tenantStore } from "../../src/shared/tenants/stub";
import { STORE_TABLES } from "../../src/shared/tenants/tables";

/** POST ?tenant=N on the bench Worker: the bench's switch of tenant N to its stores (the bench runtime only). */
export const BENCH_SWITCH_PATH = "/__bench/switch-tenant";

/**
 * The bench's own switch of a tenant to its stores (`npm run bench -- --tenants`), inside the bench Worker, which runs
 * the API Worker without the operator plane and its move Workflow: the same copy (src/operator/tenant-stores/copy.ts)
 * of the tenant's and its twin's rows, page by page, then the registry set to 'store' and the store's publishing
 * started, as the move's last steps do. Not verified by digests: the bench's data is its own seed.
 */
export async function switchForBench(env: Bindings, tenantId: number): Promise<void> {
  const at = new Date().toISOString();
  await env.DB.prepare(
    "INSERT INTO tenant_stores (tenant_id, state, move_id, started_at, copied_rows) VALUES (?1, 'copying', 'bench', ?2, 0) " +
      "ON CONFLICT (tenant_id) DO UPDATE SET state = 'copying', move_id = 'bench', started_at = ?2",
  )
    .bind(tenantId, at)
    .run();
  const columns = await Promise.all(STORE_TABLES.map((table) => columnsIn(env.DB, table)));
  for (const storeTenantId of [tenantId, -tenantId]) {
    const store = tenantStore(env, storeTenantId);
    await clearStore(store);
    for (const [index, table] of STORE_TABLES.entries()) {
      let progress: TableProgress = NOT_STARTED;
      while (!progress.done) progress = await copyPages(env.DB, store, table, columns[index]!, storeTenantId, progress);
    }
  }
  await env.DB.prepare("UPDATE tenant_stores SET state = 'store', finished_at = ?2 WHERE tenant_id = ?1")
    .bind(tenantId, new Date().toISOString())
    .run();
  await tenantStore(env, tenantId).startPublishing();
}
