import { appConfig, type Bindings } from "../../env";
import { Remembered } from "../../platform/remembered";
import { storeOfId } from "./id-ranges";
import { tenantStoreDatabase } from "./store-database";

/**
 * Where a vendor's line (or invoice) lives (docs/tenant-stores.md): in the store whose range its id is from, or in DB, unless its
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

/** The SQL that finds the tenant of a row of DB by its id (?1), per kind of id a vendor names. */
const TENANT_OF = {
  line: "SELECT o.tenant_id AS tenant FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.id = ?1",
  invoice: "SELECT tenant_id AS tenant FROM invoices WHERE id = ?1",
  return: "SELECT tenant_id AS tenant FROM unit_returns WHERE id = ?1",
} as const;

/** The database that holds the row of id `id` (an order line, an invoice): DB or a tenant's store. */
async function homeOfId(env: LineEnv, id: number, kind: keyof typeof TENANT_OF): Promise<D1Database> {
  const store = storeOfId(id);
  // Only a switched tenant's store is asked: an id made up to fall in some range must not call an object into being.
  if (store !== null) return (await hasSwitched(env, store)) ? tenantStoreDatabase(env, store) : env.DB;
  if (!(await anySwitched(env))) return env.DB;
  const row = await env.DB.prepare(
    `SELECT t.tenant, (SELECT s.state FROM tenant_stores s WHERE s.tenant_id = abs(t.tenant)) AS state FROM (${TENANT_OF[kind]}) t`,
  )
    .bind(id)
    .first<{ tenant: number; state: string | null }>();
  return row?.state === "store" ? tenantStoreDatabase(env, row.tenant) : env.DB;
}

/** The database that holds line `lineId`: DB or a tenant's store. */
export const lineDatabase = (env: LineEnv, lineId: number) => homeOfId(env, lineId, "line");

/** The database that holds invoice (or credit memo) `invoiceId`. */
export const invoiceDatabase = (env: LineEnv, invoiceId: number) => homeOfId(env, invoiceId, "invoice");

/** The database that holds return (core, loaner, repair, rma) `returnId`. */
export const returnDatabase = (env: LineEnv, returnId: number) => homeOfId(env, returnId, "return");

/** The database that holds tenant `tenantId`'s own data (a sandbox twin -T: T's): DB, or its store once it switched. */
export const tenantHomeDatabase = async (env: LineEnv, tenantId: number): Promise<D1Database> =>
  (await hasSwitched(env, tenantId)) ? tenantStoreDatabase(env, tenantId) : env.DB;

/** Forgets whether a tenant has switched (tests, as CLIENT_STATUS_CACHE_SECONDS passing would). */
export const forgetSwitches = () => switched.clear();
