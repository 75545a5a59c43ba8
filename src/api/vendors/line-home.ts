import { appConfig, type Bindings } from "../../env";
import { Remembered } from "../../platform/remembered";
import { storeOfId } from "../../shared/tenants/id-ranges";
import { tenantStoreDatabase } from "../../shared/tenants/store-database";

/**
 * Where a vendor's line lives (docs/tenant-stores.md): in the store whose range its id is from, or in DB, unless its
 * tenant has switched to its stores since DB gave the id (a switch keeps ids). The line's tenant is looked up only
 * while some tenant has switched (remembered per isolate, like the client status), so a deployment whose tenants all
 * live in DB pays nothing.
 */

type LineEnv = Pick<Bindings, "DB" | "TENANT_STORE" | "CLIENT_STATUS_CACHE_SECONDS">;

const switched = new Remembered<boolean>();

export const anySwitched = (env: LineEnv) =>
  switched.get("any", appConfig(env).CLIENT_STATUS_CACHE_SECONDS, async () =>
    Boolean(await env.DB.prepare("SELECT EXISTS (SELECT 1 FROM tenant_stores WHERE state = 'store') AS switched").first("switched")),
  );

/** Whether tenant `tenantId` (or the tenant of twin -T) lives in its stores. */
const hasSwitched = (env: LineEnv, tenantId: number) =>
  switched.get(String(Math.abs(tenantId)), appConfig(env).CLIENT_STATUS_CACHE_SECONDS, async () =>
    Boolean(
      await env.DB.prepare("SELECT EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = ?1 AND state = 'store') AS switched")
        .bind(Math.abs(tenantId))
        .first("switched"),
    ),
  );

/** The database that holds line `lineId`: DB or a tenant's store. */
export async function lineDatabase(env: LineEnv, lineId: number): Promise<D1Database> {
  const store = storeOfId(lineId);
  // Only a switched tenant's store is asked: an id made up to fall in some range must not call an object into being.
  if (store !== null) return (await hasSwitched(env, store)) ? tenantStoreDatabase(env, store) : env.DB;
  if (!(await anySwitched(env))) return env.DB;
  const row = await env.DB.prepare(
    "SELECT o.tenant_id AS tenant, (SELECT s.state FROM tenant_stores s WHERE s.tenant_id = abs(o.tenant_id)) AS state " +
      "FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.id = ?1",
  )
    .bind(lineId)
    .first<{ tenant: number; state: string | null }>();
  return row?.state === "store" ? tenantStoreDatabase(env, row.tenant) : env.DB;
}

/** Forgets whether a tenant has switched (tests, as CLIENT_STATUS_CACHE_SECONDS passing would). */
export const forgetSwitches = () => switched.clear();
