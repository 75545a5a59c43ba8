/** The names of tenant stores: one per tenant and one per sandbox twin (docs/tenant-stores.md). */

/** The name of tenant `tenantId`'s store; a sandbox twin (id -T) has a store of its own. */
export const tenantStoreName = (tenantId: number) => `tenant:${tenantId}`;

/** The tenant a store's name names (`tenant:<id>`), or null for another name. */
export function tenantOfStoreName(name: string | undefined): number | null {
  const tenantId = Number(/^tenant:(-?\d+)$/.exec(name ?? "")?.[1]);
  return Number.isSafeInteger(tenantId) && tenantId !== 0 ? tenantId : null;
}
