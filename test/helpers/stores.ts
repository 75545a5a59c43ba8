import { env, runInDurableObject } from "cloudflare:test";
import type { TenantStore as ApiTenantStore } from "../../src/api/stores/tenant-store";
import type { VendorLines } from "../../src/api/vendors/projection/projection";
import { shardOfTenant, vendorProjectionShard } from "../../src/api/vendors/projection/stub";
import { quotedIdentifier as quoted } from "../../src/db/identifiers";
import type { Bindings } from "../../src/env";
import { clientStatus } from "../../src/shared/auth/client-status";
import { forgetRegisteredTenants } from "../../src/shared/tenants/homes";
import { storeOfId } from "../../src/shared/tenants/id-ranges";
import type { TenantStore } from "../../src/shared/tenants/store";
import { tenantStore } from "../../src/shared/tenants/stub";
import { STORE_ONLY_TABLES, STORE_TABLES } from "../../src/shared/tenants/tables";
import type { TenantStore as TestTenantStore, VendorLines as TestVendorLines } from "./worker";

/** Empties every table of a store, children first, its publishing stopped: as a store that was never written. */
async function clearStore(store: DurableObjectStub<TenantStore>): Promise<void> {
  await store.execute(
    [
      { sql: "UPDATE vendor_projection SET publishing = 0", params: [] },
      ...[...STORE_TABLES].reverse().map((table) => ({ sql: `DELETE FROM ${quoted(table.name)}`, params: [] })),
      ...STORE_ONLY_TABLES.filter((table) => table !== "vendor_projection" && table !== "recall_progress").map((table) => ({
        sql: `DELETE FROM ${quoted(table)}`,
        params: [],
      })),
      { sql: "UPDATE recall_progress SET revision = 0", params: [] },
    ],
    { outbox: false },
  );
}

/**
 * Empty stores for the next test file's tenants: every registered tenant's stores emptied, the registry emptied, the
 * vendors' projections emptied (the next file's seed gives the same line ids again), what isolates remember forgotten.
 */
export async function forgetStores(): Promise<void> {
  // The stores outlive the file's database: emptied, their alarms cancelled, so that the next file's tenants of the
  // same ids (every file's database gives them again) start from empty stores, as a new tenant's do.
  const [homes, vendors] = (
    await env.DB.batch<{ id: number }>([
      env.DB.prepare("SELECT tenant_id AS id FROM tenant_stores"),
      env.DB.prepare("SELECT id FROM vendors"),
    ])
  ).map(({ results }) => results) as [{ id: number }[], { id: number }[]];
  const shards = [...new Set(homes.map(({ id }) => shardOfTenant(env, id)))];
  await Promise.all([
    ...homes.flatMap(({ id }) =>
      [id, -id].map(async (storeTenantId) => {
        const store = tenantStore(env, storeTenantId);
        await clearStore(store);
        await (store as unknown as DurableObjectStub<TestTenantStore>).forgetAlarm();
      }),
    ),
    ...vendors.flatMap(({ id }) => shards.map((shard) => emptyProjection(vendorProjectionShard(env, id, shard)))),
  ]);
  await env.DB.prepare("DELETE FROM tenant_stores").run();
  clientStatus.clear();
  forgetRegisteredTenants();
}

/** Empties a shard of a vendor's projection: its lines, and with them (its triggers) its counts. */
export const emptyProjection = (shard: DurableObjectStub<VendorLines>) =>
  (shard as unknown as DurableObjectStub<TestVendorLines>).emptyLines();

/** The rows one statement reads in tenant `tenantId`'s store (its sandbox twin's when negative), or writes there. */
export const storeRows = async (tenantId: number, sql: string, ...params: (string | number)[]) =>
  (await tenantStore(env, tenantId).execute([{ sql, params }]))[0]!.results;

/** The stores of every tenant in the registry: each tenant's (its id), then its sandbox twin's (the negative id). */
export async function everyStore(): Promise<number[]> {
  const { results } = await env.DB.prepare("SELECT tenant_id AS id FROM tenant_stores ORDER BY tenant_id").all<{ id: number }>();
  return results.flatMap(({ id }) => [id, -id]);
}

/** The rows one statement reads in every tenant's stores (`everyStore`), store after store. */
export async function rowsOfEveryStore(sql: string, ...params: (string | number)[]) {
  return (await Promise.all((await everyStore()).map((storeTenantId) => storeRows(storeTenantId, sql, ...params)))).flat();
}

/** Each named count (a statement reading one row with a number `n`) over every tenant's stores (`everyStore`), added up. */
export async function countsInEveryStore<K extends string>(counts: Record<K, string>): Promise<Record<K, number>> {
  const names = Object.keys(counts) as K[];
  const statements = names.map((name) => ({ sql: counts[name], params: [] }));
  const perStore = await Promise.all((await everyStore()).map((storeTenantId) => tenantStore(env, storeTenantId).execute(statements)));
  return Object.fromEntries(
    names.map((name, index) => [name, perStore.reduce((sum, results) => sum + (results[index]!.results[0]!.n as number), 0)]),
  ) as Record<K, number>;
}

/**
 * The rows one statement reads (or writes) in the store that holds row `id` of a ranged table (a line, an order, an
 * invoice, a return...: src/shared/tenants/id-ranges.ts), whichever tenant's or twin's it is.
 */
export async function storeRowsById(id: number, sql: string, ...params: (string | number)[]) {
  const tenantId = storeOfId(id);
  if (tenantId === null) throw new Error(`${id} is an id of no store's range`);
  return storeRows(tenantId, sql, ...params);
}

/**
 * As `storeRows`, but a write leaves the store's outbox unarmed (src/shared/tenants/store.ts): an undispatched event
 * it writes waits for the store's next alarm instead of going out at once, as a test's precondition.
 */
export const storeRowsUnarmed = async (tenantId: number, sql: string, ...params: (string | number | null)[]) =>
  (await tenantStore(env, tenantId).execute([{ sql, params }], { outbox: false }))[0]!.results;

/**
 * Runs tenant `tenantId`'s store's alarm now, as the runtime would (src/api/stores/tenant-store.ts: it dispatches the
 * store's undispatched events, sends again the deliveries past their due time, publishes its line changes), its
 * delivery messages handed to `events` (a queue that loses or records them) instead of the delivery queue when given.
 */
export async function runStoreAlarm(tenantId: number, events?: Queue): Promise<void> {
  await runInDurableObject(tenantStore(env, tenantId) as unknown as DurableObjectStub, async (object) => {
    const instance = object as unknown as ApiTenantStore;
    // The alarm reads its bindings from the object (DurableObject's `env`): swapped for this run only.
    const store = object as unknown as { env: Bindings };
    const bindings = store.env;
    if (events) store.env = { ...bindings, EVENTS: events };
    try {
      await instance.alarm();
    } finally {
      store.env = bindings;
    }
  });
}
