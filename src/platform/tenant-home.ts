import type { Context } from "hono";
import type { AppEnv } from "../env";

/**
 * The database a buyer request reads and writes its tenant's own data in: the tenant's store (its sandbox twin's in
 * test mode), set by the bearer check (src/shared/auth/bearer.ts). Choosing costs no round trip. Only a buyer route
 * asks, after its bearer check.
 */
export function tenantDatabase(c: Context<AppEnv>): D1Database {
  const store = c.get("tenantDb");
  if (!store) throw new Error("tenantDatabase outside a buyer request: no tenant store was chosen");
  return store;
}
