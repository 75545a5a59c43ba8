/** Every tenant in the registry of stores (`tenant_stores`: each tenant has its row from its creation), in id order. */
export async function storedTenantIds(db: D1Database): Promise<number[]> {
  const { results } = await db.prepare("SELECT tenant_id AS tenantId FROM tenant_stores ORDER BY tenant_id").all<{ tenantId: number }>();
  return results.map((row) => row.tenantId);
}

/** Every tenant's stores: its own (T) and its sandbox twin's (-T), tenant by tenant. */
export async function storedTenantsAndTwins(db: D1Database): Promise<number[]> {
  return (await storedTenantIds(db)).flatMap((tenantId) => [tenantId, -tenantId]);
}
