import { manufacturers } from "../../db/catalog-schema";
import type { Database } from "../../db/client";
import { type Page, paginationOf } from "../../platform/pagination";
import { pageWithTotal, planSearch, type SearchRequest } from "../../query/search";
import { manufacturerSearch } from "./search-fields";

/** Manufacturers (spec 2.11) matching the query; the list is global, not tenant scoped. */
export async function searchManufacturers(db: Database, request: SearchRequest, page: Page) {
  const { filter, orderBy } = planSearch(manufacturerSearch, request);
  const { rows, total } = await pageWithTotal(
    db,
    db
      .select({ manufacturerId: manufacturers.id, name: manufacturers.name })
      .from(manufacturers)
      .where(filter)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    manufacturers,
    filter,
  );
  return { items: rows, pagination: paginationOf(page, total, rows.length) };
}
