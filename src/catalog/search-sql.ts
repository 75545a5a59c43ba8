import type { Page, SortDirection } from "../platform/pagination";
import { facetNarrowing, type KeywordSearch } from "./keywords";

/**
 * SQL for POST /catalog/search, built from bound fragments (no input is ever concatenated).
 * Every statement is shaped so SQLite answers it from an index, the FTS5 index or the facet counters:
 * never by scanning products (test/catalog/query-plan.test.ts runs EXPLAIN QUERY PLAN on each).
 */

export const CATALOG_SORT_FIELDS = ["PartNumber", "Description", "Manufacturer", "Relevance"] as const;
export type CatalogSortField = (typeof CATALOG_SORT_FIELDS)[number];

export const FACET_FIELDS = ["manufacturer", "category"] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/** Values within a facet are alternatives (OR); different facets and the keywords must all hold (AND). */
export interface CatalogFilters {
  keywords: KeywordSearch | null;
  manufacturers: readonly string[] | null;
  categories: readonly string[] | null;
}

export interface CatalogPage extends Page {
  sortBy: CatalogSortField;
  sortDirection: SortDirection;
}

export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** Most values returned per facet, largest counts first. */
export const MAX_FACET_VALUES = 100;

/**
 * bm25() weights, in products_fts column order: part_number, display_part_number, part_keys, title,
 * description, manufacturer, categories. A hit in a part number outweighs one in running text.
 */
const BM25 = "bm25(products_fts, 10.0, 10.0, 10.0, 4.0, 1.0, 3.0, 2.0)";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

interface Candidates {
  /** FROM and JOIN clauses, with products always present as `products`. */
  from: string;
  where: string;
  params: unknown[];
}

const hasAnyFilter = (f: CatalogFilters) => f.keywords !== null || f.manufacturers !== null || f.categories !== null;

/**
 * The FTS5 expression for keywords and facets together. The facet phrases narrow the matches inside the
 * full-text index, so only the (few) products of the chosen facets are read from the products table to
 * check the facets exactly. They would also add to bm25(), so a relevance order keeps the keywords alone.
 */
function fullTextMatch(keywords: KeywordSearch, filters: CatalogFilters, ranked: boolean): string {
  if (ranked) return keywords.match;
  const narrowing = [
    filters.manufacturers && facetNarrowing("manufacturer", filters.manufacturers),
    filters.categories && facetNarrowing("categories", filters.categories),
  ].filter((phrase): phrase is string => Boolean(phrase));
  return narrowing.length === 0 ? keywords.match : [`(${keywords.match})`, ...narrowing].join(" AND ");
}

/** The products matching the filters. The FTS5 index drives the join when there are keywords. */
function candidates(filters: CatalogFilters, ranked = false): Candidates {
  const conditions: string[] = [];
  const params: unknown[] = [];
  let from = "products";
  if (filters.keywords) {
    from = "products_fts JOIN products ON products.rowid = products_fts.rowid";
    conditions.push("products_fts MATCH ?");
    params.push(fullTextMatch(filters.keywords, filters, ranked));
  }
  if (filters.manufacturers) {
    conditions.push("products.manufacturer_id IN (SELECT id FROM manufacturers WHERE name IN (SELECT value FROM json_each(?)))");
    params.push(JSON.stringify(filters.manufacturers));
  }
  if (filters.categories) {
    // Category names match case-insensitively through the (small) category dictionary, then the
    // product_categories primary key (category, product_id) yields the products.
    conditions.push(
      "products.id IN (SELECT product_id FROM product_categories WHERE category IN " +
        "(SELECT category FROM catalog_category_counts WHERE category COLLATE NOCASE IN (SELECT value FROM json_each(?))))",
    );
    params.push(JSON.stringify(filters.categories));
  }
  return { from, where: conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "", params };
}

interface SortTerm {
  /** SQL expression over products (and manufacturers for the Manufacturer sort). */
  expr: string;
  ascending: boolean;
}

interface SortOrder {
  terms: SortTerm[];
  params: unknown[];
}

/** A total order (id breaks every tie) so that successive offsets never repeat or skip a product. */
function sortOrder(filters: CatalogFilters, page: CatalogPage): SortOrder {
  const asc = page.sortDirection === "Asc";
  const by = (...exprs: string[]) => exprs.map((expr) => ({ expr, ascending: asc }));
  switch (page.sortBy) {
    case "PartNumber":
      return { terms: by("products.part_number", "products.id"), params: [] };
    case "Description":
      return { terms: by("products.description", "products.id"), params: [] };
    case "Manufacturer":
      return { terms: by("manufacturers.name", "products.part_number", "products.id"), params: [] };
    case "Relevance": {
      // Desc = most relevant first: the exact part number, then bm25 (lower is better), then id.
      // Without keywords every product is equally relevant and only the id tie-break remains.
      if (!filters.keywords) return { terms: [{ expr: "products.id", ascending: !asc }], params: [] };
      const key = filters.keywords.partNumberKey;
      return {
        terms: [
          { expr: `(products.normalized_part_number = ? OR ltrim(products.normalized_part_number, '${LETTERS}') = ?)`, ascending: asc },
          { expr: BM25, ascending: !asc },
          { expr: "products.id", ascending: !asc },
        ],
        params: [key, key],
      };
    }
  }
}

const sortKey = (index: number) => `sort_${index}`;
const orderBySortKeys = (terms: SortTerm[], table = "") =>
  terms.map((term, index) => `${table}${sortKey(index)} ${term.ascending ? "ASC" : "DESC"}`).join(", ");

/**
 * One page of catalog items (spec 2.4). A late row lookup: the `page` subquery finds the page's rowids
 * by walking only the sort index (or the FTS matches) past the skipped rows, and the wide product
 * columns are read for the page's rows alone. A deep offset then costs index steps, not row reads.
 */
export function itemsStatement(filters: CatalogFilters, page: CatalogPage): SqlStatement {
  const c = candidates(filters, page.sortBy === "Relevance");
  const order = sortOrder(filters, page);
  const keys = order.terms.map((term, index) => `${term.expr} AS ${sortKey(index)}`).join(", ");
  const readsManufacturer = order.terms.some((term) => term.expr.startsWith("manufacturers."));
  const manufacturerJoin = readsManufacturer ? " JOIN manufacturers ON manufacturers.id = products.manufacturer_id" : "";
  return {
    sql:
      `WITH page AS MATERIALIZED (SELECT products.rowid AS product_rowid, ${keys} FROM ${c.from}${manufacturerJoin} ${c.where} ` +
      `ORDER BY ${orderBySortKeys(order.terms)} LIMIT ? OFFSET ?) ` +
      "SELECT products.id AS id, products.part_number AS partNumber, products.display_part_number AS displayPartNumber, " +
      "products.description AS description, manufacturers.name AS oem, products.categories AS categories " +
      "FROM page JOIN products ON products.rowid = page.product_rowid JOIN manufacturers ON manufacturers.id = products.manufacturer_id " +
      `ORDER BY ${orderBySortKeys(order.terms, "page.")}`,
    params: [...order.params, ...c.params, page.limit, page.offset],
  };
}

/** Number of products matching the filters, as `total`. */
export function countStatement(filters: CatalogFilters): SqlStatement {
  if (!hasAnyFilter(filters)) {
    return { sql: "SELECT COALESCE(SUM(product_count), 0) AS total FROM catalog_manufacturer_counts", params: [] };
  }
  if (filters.manufacturers === null && filters.categories === null && filters.keywords) {
    return { sql: "SELECT COUNT(*) AS total FROM products_fts WHERE products_fts MATCH ?", params: [filters.keywords.match] };
  }
  const c = candidates(filters);
  return { sql: `SELECT COUNT(*) AS total FROM ${c.from} ${c.where}`, params: c.params };
}

/**
 * Counts per value of one facet. The facet's own selection is left out (the other filters apply), so
 * the counts tell a buyer what each alternative would give and several values can be combined.
 */
export function facetStatement(field: FacetField, filters: CatalogFilters): SqlStatement {
  const others: CatalogFilters = field === "manufacturer" ? { ...filters, manufacturers: null } : { ...filters, categories: null };
  const tail = `ORDER BY count DESC, value ASC LIMIT ${MAX_FACET_VALUES}`;
  if (!hasAnyFilter(others)) {
    return field === "manufacturer"
      ? {
          sql:
            "SELECT manufacturers.name AS value, catalog_manufacturer_counts.product_count AS count FROM catalog_manufacturer_counts " +
            `JOIN manufacturers ON manufacturers.id = catalog_manufacturer_counts.manufacturer_id WHERE catalog_manufacturer_counts.product_count > 0 ${tail}`,
          params: [],
        }
      : {
          sql: `SELECT category AS value, product_count AS count FROM catalog_category_counts WHERE product_count > 0 ${tail}`,
          params: [],
        };
  }
  const c = candidates(others);
  return field === "manufacturer"
    ? {
        sql:
          `SELECT manufacturers.name AS value, COUNT(*) AS count FROM ${c.from} ` +
          `JOIN manufacturers ON manufacturers.id = products.manufacturer_id ${c.where} GROUP BY products.manufacturer_id ${tail}`,
        params: c.params,
      }
    : {
        sql:
          `SELECT product_categories.category AS value, COUNT(*) AS count FROM ${c.from} ` +
          `JOIN product_categories ON product_categories.product_id = products.id ${c.where} GROUP BY product_categories.category ${tail}`,
        params: c.params,
      };
}

export interface CatalogSearchStatements {
  items: SqlStatement;
  total: SqlStatement;
  facets: Record<FacetField, SqlStatement>;
}

export function catalogSearchStatements(filters: CatalogFilters, page: CatalogPage): CatalogSearchStatements {
  return {
    items: itemsStatement(filters, page),
    total: countStatement(filters),
    facets: { manufacturer: facetStatement("manufacturer", filters), category: facetStatement("category", filters) },
  };
}
