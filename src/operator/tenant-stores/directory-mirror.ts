import type { MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import type { DirectoryChange, StoreValue } from "../../shared/tenants/statements";
import { tenantStore } from "../../shared/tenants/stub";
import { STORE_TABLES } from "../../shared/tenants/tables";

/**
 * The directory of a switched tenant (docs/tenant-stores.md, "The directory"): the control database stays its one
 * writer, and records each write in `directory_changes` (migrations/0030, in the write's transaction). This pushes the
 * changed rows, as they are now, to the tenant's store and its sandbox twin's, then deletes each change it pushed
 * unless the row changed again meanwhile. The operator plane pushes after each of its writes, before answering, and
 * from its Cron Trigger for whatever a failed push left.
 */

/** Changes read and pushed at a time (one batch of reads, one call per store). */
const PUSH_LIMIT = 100;

interface ChangeRow {
  tenant_id: number;
  table_name: string;
  row_key: string;
  changed_at: number;
}

type MirrorEnv = Pick<Bindings, "DB" | "TENANT_STORE">;

/** The changed rows as they are now, in one batch: null for a row gone. */
async function currentRows(db: D1Database, changes: readonly ChangeRow[]): Promise<DirectoryChange[]> {
  const statements = changes.map((change) => {
    const table = STORE_TABLES.find((t) => t.name === change.table_name && t.directory);
    if (!table) throw new Error(`directory_changes names ${change.table_name}, which is not a directory table`);
    const key = JSON.parse(change.row_key) as StoreValue[];
    return db.prepare(`SELECT * FROM "${table.name}" WHERE ${table.key.map((column) => `"${column}" = ?`).join(" AND ")}`).bind(...key);
  });
  const read = await db.batch<Record<string, StoreValue>>(statements);
  return changes.map((change, i) => ({
    table: change.table_name,
    key: JSON.parse(change.row_key) as StoreValue[],
    row: read[i]!.results[0] ?? null,
  }));
}

/** One tenant's changes to its store and its twin's, then forgotten unless changed again since they were read. */
async function pushTenant(env: MirrorEnv, tenantId: number, changes: readonly ChangeRow[]): Promise<void> {
  const rows = await currentRows(env.DB, changes);
  await Promise.all([tenantStore(env, tenantId).applyDirectory(rows), tenantStore(env, -tenantId).applyDirectory(rows)]);
  await env.DB.batch(
    changes.map((change) =>
      env.DB.prepare("DELETE FROM directory_changes WHERE tenant_id = ? AND table_name = ? AND row_key = ? AND changed_at = ?").bind(
        change.tenant_id,
        change.table_name,
        change.row_key,
        change.changed_at,
      ),
    ),
  );
}

/**
 * Pushes every pending change (`tenantId`: that tenant's only), PUSH_LIMIT at a time; the number pushed. A tenant whose
 * push fails keeps its changes for the next push, and the others go on; the first failure is thrown at the end.
 */
export async function pushDirectoryChanges(env: MirrorEnv, tenantId?: number): Promise<number> {
  let pushed = 0;
  const failed: number[] = [];
  let failure: unknown;
  for (;;) {
    const { results } = await env.DB.prepare(
      "SELECT * FROM directory_changes WHERE (?1 IS NULL OR tenant_id = ?1) AND tenant_id NOT IN (SELECT value FROM json_each(?2)) " +
        "ORDER BY tenant_id, changed_at LIMIT ?3",
    )
      .bind(tenantId ?? null, JSON.stringify(failed), PUSH_LIMIT)
      .all<ChangeRow>();
    const byTenant = new Map<number, ChangeRow[]>();
    for (const change of results) byTenant.set(change.tenant_id, [...(byTenant.get(change.tenant_id) ?? []), change]);
    for (const [tenant, changes] of byTenant) {
      try {
        await pushTenant(env, tenant, changes);
        pushed += changes.length;
      } catch (error) {
        logEvent("warn", { event: "tenant.directory.push", tenantId: tenant, message: errorMessage(error) });
        failed.push(tenant);
        failure ??= error;
      }
    }
    if (results.length < PUSH_LIMIT) break;
  }
  if (failure !== undefined) throw failure;
  return pushed;
}

/**
 * After each successful write of the operator plane (organizations, SCIM, whatever wrote a switched tenant's
 * directory), its changes reach the tenant's stores before the answer: a user deactivated by SCIM can no longer order
 * once the identity provider has its 2xx. A failed push does not undo the write (the control database committed it);
 * it is logged, and the Cron Trigger pushes it.
 */
export const pushDirectoryAfterWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.res.status >= 400) return;
  await pushDirectoryChanges(c.env).catch(() => {
    // Logged per tenant by pushDirectoryChanges; left to the Cron Trigger.
  });
};
