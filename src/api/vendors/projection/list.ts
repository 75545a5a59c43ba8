import type { Bindings } from "../../../env";
import { type Page, type Pagination, paginationOf } from "../../../platform/pagination";
import type { VendorLineFilter, VendorOrderLine } from "../lines";
import { vendorProjection } from "./stub";

type ListEnv = Pick<Bindings, "VENDOR_LINES">;

/**
 * The vendor's list of lines (GET /vendor/api/order-lines), from its projection alone (docs/tenant-stores.md, "Vendors'
 * lines"), in the list's order (oldest order first, then line id).
 */
export async function listLinesOfVendor(
  env: ListEnv,
  vendorId: number,
  filter: VendorLineFilter,
  page: Page,
): Promise<{ lines: VendorOrderLine[]; pagination: Pagination }> {
  const { rows, total } = await vendorProjection(env, vendorId).query({ ...filter, ...page });
  const lines = rows.map((row) => JSON.parse(row.line!) as VendorOrderLine);
  return { lines, pagination: paginationOf(page, total, lines.length) };
}
