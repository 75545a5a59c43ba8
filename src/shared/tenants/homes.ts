import { appConfig, type Bindings } from "../../env";
import { Remembered } from "../../platform/remembered";
import { storeOfId } from "./id-ranges";
import { tenantStoreDatabase } from "./store-database";

/**
 * Where a row a vendor names by id lives (an order line, an invoice, a return: docs/tenant-stores.md): in the store of
 * the tenant whose id range holds the id (src/shared/tenants/id-ranges.ts). Only a live tenant's store, and only one of a
 * tenant that exists (remembered per isolate, like the client status): an id made up to fall in some range must not
 * call an object into being, and a vendor never sees a sandbox order.
 */

type RowEnv = Pick<Bindings, "DB" | "TENANT_STORE" | "CLIENT_STATUS_CACHE_SECONDS">;

const registered = new Remembered<boolean>();

const tenantRegistered = (env: RowEnv, tenantId: number) =>
  registered.get(String(tenantId), appConfig(env).CLIENT_STATUS_CACHE_SECONDS, async () =>
    Boolean(
      await env.DB.prepare("SELECT EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = ?1) AS registered")
        .bind(tenantId)
        .first("registered"),
    ),
  );

/** The store that holds the row of id `id` (a line, an invoice, a return); null when no live tenant's store can. */
export async function storeOfRow(env: RowEnv, id: number): Promise<D1Database | null> {
  const tenantId = storeOfId(id);
  if (tenantId === null || tenantId < 0 || !(await tenantRegistered(env, tenantId))) return null;
  return tenantStoreDatabase(env, tenantId);
}

/** Forgets which tenants exist (tests, as CLIENT_STATUS_CACHE_SECONDS passing would). */
export const forgetRegisteredTenants = () => registered.clear();
