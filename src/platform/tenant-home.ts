import type { Context } from "hono";
import type { AppEnv } from "../env";

/**
 * Where a buyer tenant's own data lives (the tenant registry, docs/tenant-stores.md): the control database `DB`, or
 * the tenant's stores once it has been switched to them.
 */
export type TenantHome = "database" | "store";

/**
 * The database a buyer request reads and writes its tenant's own data in: the tenant's store (its sandbox twin's in
 * test mode) once the registry says it lives there, set by the bearer check with the client's status
 * (src/shared/auth/bearer.ts), else `DB` (the request's D1 session). Choosing costs no round trip.
 */
export const tenantDatabase = (c: Context<AppEnv>): D1Database => c.get("tenantDb") ?? c.env.DB;
