import type { Bindings } from "../../../env";
import { type Page, type Pagination, paginationOf } from "../../../platform/pagination";
import { storedLineNow, type VendorLineFilter, type VendorOrderLine } from "../lines";
import type { ListedKey, ProjectionPage } from "./messages";
import { vendorProjectionShards } from "./stub";

type ListEnv = Pick<Bindings, "VENDOR_LINES" | "VENDOR_PROJECTION_SHARDS">;

/** Pages that end within this many lines are read whole from every shard at once; deeper ones by their keys first. */
const WHOLE_LINES_WINDOW = 200;

const before = (a: ListedKey, b: ListedKey) => (a.orderDate === b.orderDate ? a.lineId < b.lineId : a.orderDate < b.orderDate);

/** The first `count` rows of lists each sorted as the vendor's list is, merged in that order. */
function merged<Row extends ListedKey>(lists: readonly (readonly Row[])[], count: number): Row[] {
  const heads = lists.map(() => 0);
  const out: Row[] = [];
  while (out.length < count) {
    let first: number | undefined;
    for (let index = 0; index < lists.length; index++) {
      const row = lists[index]![heads[index]!];
      if (row !== undefined && (first === undefined || before(row, lists[first]![heads[first]!]!))) first = index;
    }
    if (first === undefined) break;
    out.push(lists[first]![heads[first]!++]!);
  }
  return out;
}

const parsed = (rows: readonly { line?: string }[]) => rows.map((row) => storedLineNow(JSON.parse(row.line!) as VendorOrderLine));

const totalOf = (pages: readonly ProjectionPage[]) => pages.reduce((sum, page) => sum + page.total, 0);

/**
 * The vendor's list of lines (GET /vendor/api/order-lines), from its projection alone (docs/tenant-stores.md, "Vendors'
 * lines"): every shard is asked side by side for its first lines of the page's filter, in the list's order (oldest
 * order first, then line id), and their answers are merged in that order; the total is the sum of theirs. A page ending
 * within `wholeLinesWindow` lines takes one round trip; a deeper one takes two, the shards' sort keys first and then
 * that page's lines from the shards that hold them, rather than every shard's whole lines before it.
 */
export async function listLinesOfVendor(
  env: ListEnv,
  vendorId: number,
  filter: VendorLineFilter,
  page: Page,
  wholeLinesWindow = WHOLE_LINES_WINDOW,
): Promise<{ lines: VendorOrderLine[]; pagination: Pagination }> {
  const shards = vendorProjectionShards(env, vendorId);
  const end = page.offset + page.limit;
  const query = {
    statuses: filter.statuses,
    orderNumber: filter.orderNumber,
    attention: filter.attention,
    where: filter.where,
    offset: 0,
    limit: end,
  };
  if (end <= wholeLinesWindow) {
    const pages = await Promise.all(shards.map((shard) => shard.query(query)));
    const lines = parsed(
      merged(
        pages.map((shardPage) => shardPage.rows),
        end,
      ).slice(page.offset),
    );
    return { lines, pagination: paginationOf(page, totalOf(pages), lines.length) };
  }
  const keyPages = await Promise.all(shards.map((shard) => shard.query({ ...query, keysOnly: true })));
  const window = merged(
    keyPages.map((keyPage, shard) => keyPage.rows.map((key) => ({ ...key, shard }))),
    end,
  ).slice(page.offset);
  const pages = await Promise.all(
    shards.map(async (shard, index) => {
      const lineIds = window.filter((key) => key.shard === index).map((key) => key.lineId);
      return lineIds.length === 0 ? [] : (await shard.query({ lineIds })).rows;
    }),
  );
  const lines = parsed(merged(pages, window.length));
  return { lines, pagination: paginationOf(page, totalOf(keyPages), lines.length) };
}
