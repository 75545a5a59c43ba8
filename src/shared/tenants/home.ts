import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { StoreDatabase } from "./store-database";
import { tenantStore } from "./stub";

/**
 * The database a buyer request reads its tenant's own data from (docs/tenant-stores.md): the tenant's store (its sandbox
 * twin's in test mode) once the registry says it lives there, else `DB` (the request's D1 session). The home is learned
 * with the client's status (src/shared/auth/client-status.ts), so choosing costs no round trip.
 */
export function tenantDatabase(c: Context<AppEnv>): D1Database {
  if (c.get("tenantHome") !== "store") return c.env.DB;
  return new StoreDatabase(tenantStore(c.env, c.get("principal").dataTenantId)).asD1();
}
