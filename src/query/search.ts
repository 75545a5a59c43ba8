import { count, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteSelect, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import type { Page, SortDirection } from "../platform/pagination";
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

/** A search's page of a dynamic select (`db.select(...).from(table).$dynamic()`): filter, order, limit, offset. */
export function pageOf<T extends SQLiteSelect>(query: T, where: SQL | undefined, plan: SearchPlan, page: Page) {
  return query
    .where(where)
    .orderBy(...plan.orderBy)
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Runs a page query, the count of all matching rows and any `related` queries (rows of the page's records, chosen
 * with `pageIds`) in one D1 batch: one round trip, one snapshot, and `total` uses exactly the page's filter.
 */
export async function pageWithTotal<Q extends BatchItem<"sqlite">, R extends BatchItem<"sqlite">[] = []>(
  db: Database,
  rows: Q,
  table: SQLiteTable,
  where: SQL | undefined,
  related: [...R] = [] as unknown as [...R],
) {
  const [page, totals, ...more] = await db.batch([rows, db.select({ total: count() }).from(table).where(where), ...related]);
  return {
    rows: page as Q["_"]["result"],
    total: (totals as { total: number }[])[0]?.total ?? 0,
    related: more as { [K in keyof R]: R[K]["_"]["result"] },
  };
}
