import { type Database, database } from "../../../db/client";
import type { Bindings } from "../../../env";
import { type Page, type Pagination, paginationOf } from "../../../platform/pagination";
import { anySwitched } from "../../../shared/tenants/homes";
import { findVendorLines, listVendorLineKeys, listVendorLines, type VendorLineFilter, type VendorOrderLine } from "../lines";
import type { ListedKey } from "./messages";
import { vendorProjection } from "./stub";

type ListEnv = Pick<Bindings, "DB" | "TENANT_STORE" | "VENDOR_LINES" | "CLIENT_STATUS_CACHE_SECONDS">;

/** Pages that end within this many lines are merged from whole lines of both sides; deeper ones by their keys first. */
const WHOLE_LINES_WINDOW = 200;

const before = (a: ListedKey, b: ListedKey) => (a.orderDate === b.orderDate ? a.lineId < b.lineId : a.orderDate < b.orderDate);

/** Two lists sorted as the vendor's list is, merged. */
function merged<A extends ListedKey, B extends ListedKey>(a: readonly A[], b: readonly B[]): (A | B)[] {
  const out: (A | B)[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && before(a[i]!, b[j]!))) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

const parsed = (rows: { line?: string }[]) => rows.map((row) => JSON.parse(row.line!) as VendorOrderLine);

/**
 * The vendor's list of lines (GET /vendor/api/order-lines): the lines of tenants served from DB, and those of switched
 * tenants from the vendor's projection, merged in the list's order (oldest order first, then line id). While no tenant
 * has switched, DB alone answers. With both, the two are read side by side (one round trip); a page ending deeper than
 * WHOLE_LINES_WINDOW takes a second one, reading first only the places of the lines before it.
 */
export async function listLinesOfVendor(
  env: ListEnv,
  vendorId: number,
  filter: VendorLineFilter,
  page: Page,
  wholeLinesWindow = WHOLE_LINES_WINDOW,
): Promise<{ lines: VendorOrderLine[]; pagination: Pagination }> {
  const db: Database = database(env.DB);
  if (!(await anySwitched(env))) return listVendorLines(db, vendorId, filter, page);
  const projection = vendorProjection(env, vendorId);
  const end = page.offset + page.limit;
  const query = { statuses: filter.statuses, orderNumber: filter.orderNumber, offset: 0, limit: end };
  if (end <= wholeLinesWindow) {
    const [fromDb, projected] = await Promise.all([
      listVendorLines(db, vendorId, filter, { offset: 0, limit: end }),
      projection.query(query),
    ]);
    const lines = merged(fromDb.lines, parsed(projected.rows)).slice(page.offset, end);
    return { lines, pagination: paginationOf(page, fromDb.pagination.total + projected.total, lines.length) };
  }
  const [dbKeys, projectedKeys] = await Promise.all([
    listVendorLineKeys(db, vendorId, filter, end),
    projection.query({ ...query, keysOnly: true }),
  ]);
  const window = merged(
    dbKeys.keys.map((key) => ({ ...key, inDb: true })),
    projectedKeys.rows.map((key) => ({ ...key, inDb: false })),
  ).slice(page.offset, end);
  const [fromDb, projected] = await Promise.all([
    findVendorLines(
      db,
      vendorId,
      window.filter((key) => key.inDb).map((key) => key.lineId),
    ),
    projection.query({ lineIds: window.filter((key) => !key.inDb).map((key) => key.lineId) }),
  ]);
  const lines = merged(fromDb, parsed(projected.rows));
  return { lines, pagination: paginationOf(page, dbKeys.total + projectedKeys.total, lines.length) };
}
