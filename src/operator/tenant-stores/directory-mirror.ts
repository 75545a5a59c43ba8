import type { MiddlewareHandler } from "hono";
import { quotedIdentifier as quoted } from "../../db/identifiers";
import type { AppEnv, Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import type { DirectoryChange, StoreValue } from "../../shared/tenants/statements";
import { tenantStore } from "../../shared/tenants/stub";
import { DIRECTORY_TABLES, type DirectoryTable } from "../../shared/tenants/tables";

/**
 * A tenant's directory (docs/tenant-stores.md, "The directory"): the control database stays its one
 * writer, and records each write in `directory_changes` with a version (migrations/0030, in the write's transaction).
 * This pushes a tenant's changed rows, as they are now, to its store and its sandbox twin's, then deletes each change
 * at the version it pushed (a row written again meanwhile stays to push). A store skips a change older than the one it
 * applied, so pushes may overlap. The operator plane pushes after each of its writes, before answering, and from its
 * Cron Trigger, every minute, for whatever a failed push or a crash left.
 */

/** A tenant's changes pushed in one call to each store, oldest first: parents and children of a write arrive together. */
const PUSH_LIMIT = 1000;
/** Pushes of one tenant per call at most (a tenant written faster than it is pushed cannot hold the others back). */
const MAX_PUSHES_PER_TENANT = 10;
/**
 * Tenants pushed side by side, the oldest changes' first: a push is four round trips (its changes, its two stores, the
 * deletion), so tenants one after the other made the Cron Trigger's pass grow with the tenants written since the last.
 */
const TENANTS_PUSHED_AT_ONCE = 8;
/** How long a write's answer may wait for pushes; the rest is left to the Cron Trigger. */
const PUSH_BUDGET_MS = 2000;

type MirrorEnv = Pick<Bindings, "DB" | "TENANT_STORE">;

/**
 * The tenant's oldest PUSH_LIMIT changes of `table` with each row as it is now (its columns null when gone, or when it
 * no longer belongs to the tenant), read with the other tables' in one batch: one snapshot.
 */
function changedRows(db: D1Database, tenantId: number, table: DirectoryTable): D1PreparedStatement {
  const joined = table.key.map((column, i) => `t.${quoted(column)} = c.row_key ->> ${i}`).join(" AND ");
  const upTo = `(SELECT max(version) FROM (SELECT version FROM directory_changes WHERE tenant_id = ?1 ORDER BY version LIMIT ${PUSH_LIMIT}))`;
  return db
    .prepare(
      `SELECT c.row_key AS "__key", c.version AS "__version", t.* FROM directory_changes c ` +
        `LEFT JOIN ${quoted(table.name)} t ON ${joined} AND abs(${table.owner}) = c.tenant_id ` +
        `WHERE c.tenant_id = ?1 AND c.table_name = ?2 AND c.version <= ${upTo}`,
    )
    .bind(tenantId, table.name);
}

/**
 * The changes to one store. Skipping a change older than the one the store applied is usual (two pushes overlapping);
 * but a store that holds versions the control database has not given yet saw a database since restored from a backup:
 * it forgets its versions and takes these changes, the database's present.
 */
async function applyTo(env: MirrorEnv, tenantId: number, storeTenantId: number, changes: DirectoryChange[]): Promise<void> {
  const store = tenantStore(env, storeTenantId);
  const { applied, newestVersion } = await store.applyDirectory(tenantId, changes);
  if (applied === changes.length) return;
  const current = await env.DB.prepare("SELECT version FROM directory_sequence").first<number>("version");
  if (current === null || newestVersion <= current) return;
  logEvent("warn", { event: "tenant.directory.ahead", tenantId, storeTenantId, storeVersion: newestVersion, databaseVersion: current });
  await store.forgetDirectoryVersions(tenantId);
  await store.applyDirectory(tenantId, changes);
}

/** One tenant's oldest changes to its store and its twin's, then deleted at the versions pushed; how many. */
async function pushTenant(env: MirrorEnv, tenantId: number): Promise<number> {
  const read = await env.DB.batch<Record<string, StoreValue>>(DIRECTORY_TABLES.map((table) => changedRows(env.DB, tenantId, table)));
  const changes: DirectoryChange[] = DIRECTORY_TABLES.flatMap((table, i) =>
    read[i]!.results.map(({ __key, __version, ...row }) => ({
      table: table.name,
      key: __key as string,
      version: __version as number,
      row: row[table.key[0]!] === null ? null : row,
    })),
  );
  if (changes.length === 0) return 0;
  await Promise.all([tenantId, -tenantId].map((storeTenantId) => applyTo(env, tenantId, storeTenantId, changes)));
  await env.DB.prepare(
    "DELETE FROM directory_changes WHERE tenant_id = ?1 AND (table_name, row_key, version) IN " +
      "(SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?2))",
  )
    .bind(tenantId, JSON.stringify(changes.map((change) => [change.table, change.key, change.version])))
    .run();
  return changes.length;
}

/**
 * Pushes the pending changes of every tenant, TENANTS_PUSHED_AT_ONCE tenants at a time (those with the oldest changes
 * first), until none is left or `budgetMs` has passed; how many were pushed. A tenant whose push fails keeps its changes for the next push and the
 * others go on; the first failure is thrown at the end.
 */
export async function pushDirectoryChanges(env: MirrorEnv, budgetMs = Number.POSITIVE_INFINITY): Promise<number> {
  const started = Date.now();
  /** Tenants left for the next push: failed, or pushed MAX_PUSHES_PER_TENANT times already by this one. */
  const done: number[] = [];
  const pushes = new Map<number, number>();
  let pushed = 0;
  let failure: unknown;
  while (Date.now() - started < budgetMs) {
    const { results: tenants } = await env.DB.prepare(
      "SELECT tenant_id AS tenantId FROM directory_changes WHERE tenant_id NOT IN (SELECT value FROM json_each(?1)) " +
        "GROUP BY tenant_id ORDER BY min(version) LIMIT ?2",
    )
      .bind(JSON.stringify(done), TENANTS_PUSHED_AT_ONCE)
      .all<{ tenantId: number }>();
    if (tenants.length === 0) break;
    await Promise.all(
      tenants.map(async ({ tenantId: tenant }) => {
        pushes.set(tenant, (pushes.get(tenant) ?? 0) + 1);
        if (pushes.get(tenant) === MAX_PUSHES_PER_TENANT) done.push(tenant);
        try {
          pushed += await pushTenant(env, tenant);
        } catch (error) {
          logEvent("warn", { event: "tenant.directory.push", tenantId: tenant, message: errorMessage(error) });
          if (!done.includes(tenant)) done.push(tenant);
          failure ??= error;
        }
      }),
    );
  }
  if (failure !== undefined) throw failure;
  return pushed;
}

/**
 * Whether a change of one directory row is still owed to its tenant's stores once a push has been tried now. A write
 * that finds nothing left to write (a DELETE sent again, answered 404) may be the resend of one whose push a crash
 * lost: it is not over while this holds.
 */
export async function directoryRowOwed(env: MirrorEnv, tenantId: number, table: string, key: (string | number)[]): Promise<boolean> {
  const owed = async () =>
    (await env.DB.prepare("SELECT 1 AS owed FROM directory_changes WHERE tenant_id = ?1 AND table_name = ?2 AND row_key = ?3")
      .bind(Math.abs(tenantId), table, JSON.stringify(key))
      .first()) !== null;
  if (!(await owed())) return false;
  await pushDirectoryChanges(env, PUSH_BUDGET_MS).catch(() => {
    // Logged per tenant by pushDirectoryChanges.
  });
  return owed();
}

/**
 * After each write request of the operator plane (organizations, SCIM, whatever wrote a tenant's directory),
 * its changes reach the tenant's stores before the answer: a user deactivated by SCIM can no longer order once the
 * identity provider has its 2xx. A refused write pushes too (a resend after a crash that lost the first attempt's push
 * may find nothing left to write); an unauthenticated one does not. A failed push does not undo the write (the control
 * database committed it); it is logged, and the Cron Trigger pushes it within a minute (src/operator/crons.ts).
 */
export const pushDirectoryAfterWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.res.status === 401 || c.res.status === 403) return;
  await pushDirectoryChanges(c.env, PUSH_BUDGET_MS).catch(() => {
    // Logged per tenant by pushDirectoryChanges; left to the Cron Trigger.
  });
};
