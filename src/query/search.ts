import { count, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import type { SortDirection } from "../platform/pagination";
import type { Query } from "./ast";
import { compileQuery } from "./compile";
import type { SearchResource } from "./fields";
import { parseQuery } from "./parser";
import { orderByFor } from "./sort";

export interface SearchRequest {
  q?: string | undefined;
  sortBy?: string | undefined;
  sortDir?: SortDirection | undefined;
}

export interface SearchPlan {
  /** The compiled `q`, undefined when there is nothing to filter on. */
  filter: SQL | undefined;
  orderBy: SQL[];
}

/** Validates and compiles `q`, `sortBy` and `sortDir` against the resource's field registry. */
export function planSearch(resource: SearchResource, request: SearchRequest): SearchPlan {
  const query = request.q?.trim() ? parseQuery(request.q) : { clauses: [] };
  return planQuery(resource, query, request);
}

/** The plan for an already parsed (or built) query. */
export function planQuery(resource: SearchResource, query: Query, sort: Omit<SearchRequest, "q"> = {}): SearchPlan {
  return { filter: compileQuery(resource, query), orderBy: orderByFor(resource, sort.sortBy, sort.sortDir) };
}

/**
 * Runs a page query together with the count of all matching rows in one D1 batch, so both see the
 * same snapshot and `total` uses exactly the page's filter.
 */
export async function pageWithTotal<Q extends BatchItem<"sqlite">>(db: Database, rows: Q, table: SQLiteTable, where: SQL | undefined) {
  const [page, totals] = await db.batch([rows, db.select({ total: count() }).from(table).where(where)]);
  return { rows: page as Q["_"]["result"], total: (totals as { total: number }[])[0]?.total ?? 0 };
}

/**
 * `column IN (ids)` with the ids as one JSON parameter, so a page of any size stays within D1's
 * limit on bound parameters.
 */
export function inIds(column: SQLiteColumn, ids: readonly number[]): SQL {
  return sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;
}
