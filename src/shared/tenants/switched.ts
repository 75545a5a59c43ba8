/** The tenants served from their stores (registry state 'store'), in id order. */
export async function switchedTenantIds(db: D1Database): Promise<number[]> {
  const { results } = await db.prepare("SELECT tenant_id AS tenantId FROM tenant_stores WHERE state = 'store' ORDER BY tenant_id").all<{
    tenantId: number;
  }>();
  return results.map((row) => row.tenantId);
}
