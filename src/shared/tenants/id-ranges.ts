/**
 * The ids a tenant store gives new rows of its transactional tables (orders, lines, shipping documents, shipped units,
 * webhook deliveries, invoices; AUTOINCREMENT tables, tenant-migrations/0000): a range of 2^32 ids per store, above every id the control database has
 * given (a D1 table's rowids stay far below 2^32), so that an id names one row among all stores and the control
 * database, and a line id says which store holds it. Slots: tenant T's store is 2T, its sandbox twin's 2T + 1; ids
 * stay exact JSON numbers up to slot 2^21 - 2, about a million tenants.
 */

const RANGE_SIZE = 2 ** 32;
/** The slots a store can have: ids of the last one still end below 2^53. */
const MAX_SLOT = Math.floor(Number.MAX_SAFE_INTEGER / RANGE_SIZE) - 1;
/** The tables whose new ids come from the store's range (AUTOINCREMENT tables in tenant-migrations/0000). */
export const RANGED_TABLES = [
  "orders",
  "order_lines",
  "shipping_documents",
  "shipped_units",
  "webhook_deliveries",
  "invoices",
  "unit_returns",
] as const;

const slotOf = (tenantId: number) => (tenantId > 0 ? 2 * tenantId : 2 * -tenantId + 1);

/** The last id before the range of tenant `tenantId`'s store (its sandbox twin's when negative). */
export function rangeFloor(tenantId: number): number {
  if (!Number.isSafeInteger(tenantId) || tenantId === 0) throw new RangeError(`no store range for tenant ${tenantId}`);
  const slot = slotOf(tenantId);
  if (slot > MAX_SLOT) throw new RangeError(`tenant ${tenantId} is beyond the store id ranges`);
  return slot * RANGE_SIZE;
}

/** The tenant whose store's range holds `id`; null for an id of the control database or beyond every range. */
export function storeOfId(id: number): number | null {
  const slot = Math.floor(id / RANGE_SIZE);
  if (slot < 2 || slot > MAX_SLOT) return null;
  return slot % 2 === 0 ? slot / 2 : -(slot - 1) / 2;
}
