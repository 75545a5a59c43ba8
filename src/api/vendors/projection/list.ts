import type { Bindings } from "../../../env";
import { type Page, type Pagination, paginationOf } from "../../../platform/pagination";
import type { VendorLineFilter, VendorOrderLine } from "../lines";
import { vendorProjection } from "./stub";

type ListEnv = Pick<Bindings, "VENDOR_LINES">;

/**
 * The vendor's list of lines (GET /vendor/api/order-lines), from its projection alone (docs/tenant-stores.md, "Vendors'
 * lines"): the lines of every tenant it fulfils, in the list's order (oldest order first, then line id).
 */
export async function listLinesOfVendor(
  env: ListEnv,
  vendorId: number,
  filter: VendorLineFilter,
  page: Page,
): Promise<{ lines: VendorOrderLine[]; pagination: Pagination }> {
  const projected = await vendorProjection(env, vendorId).query({
    statuses: filter.statuses,
    orderNumber: filter.orderNumber,
    offset: page.offset,
    limit: page.limit,
  });
  const lines = projected.rows.map((row) => JSON.parse(row.line!) as VendorOrderLine);
  return { lines, pagination: paginationOf(page, projected.total, lines.length) };
}
