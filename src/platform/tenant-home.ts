/**
 * Where a buyer tenant's own data lives (the tenant registry, docs/tenant-stores.md): the control database `DB`, or
 * the tenant's stores once it has been switched to them.
 */
export type TenantHome = "database" | "store";
