import type { Page, SortDirection } from "../http/pagination";
import type { KeywordSearch } from "./catalog-keywords";

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

/** The products matching the filters. The FTS5 index drives the join when there are keywords. */
function candidates(filters: CatalogFilters): Candidates {
  const conditions: string[] = [];
  const params: unknown[] = [];
  let from = "products";
  if (filters.keywords) {
    from = "products_fts JOIN products ON products.rowid = products_fts.rowid";
    conditions.push("products_fts MATCH ?");
    params.push(filters.keywords.match);
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

function orderBy(filters: CatalogFilters, page: CatalogPage): { sql: string; params: unknown[] } {
  const desc = page.sortDirection === "Desc";
  const dir = (ascending: boolean) => (ascending ? "ASC" : "DESC");
  switch (page.sortBy) {
    case "PartNumber":
      return { sql: `products.part_number ${dir(!desc)}, products.id ${dir(!desc)}`, params: [] };
    case "Description":
      return { sql: `products.description ${dir(!desc)}, products.id ${dir(!desc)}`, params: [] };
    case "Manufacturer":
      return {
        sql: `manufacturers.name ${dir(!desc)}, products.part_number ${dir(!desc)}, products.id ${dir(!desc)}`,
        params: [],
      };
    case "Relevance": {
      // Desc = most relevant first: the exact part number, then bm25 (lower is better), then id.
      // Without keywords every product is equally relevant and only the id tie-break remains.
      if (!filters.keywords) return { sql: `products.id ${dir(desc)}`, params: [] };
      const key = filters.keywords.partNumberKey;
      return {
        sql:
          `(products.normalized_part_number = ? OR ltrim(products.normalized_part_number, '${LETTERS}') = ?) ${dir(!desc)}, ` +
          `${BM25} ${dir(desc)}, products.id ${dir(desc)}`,
        params: [key, key],
      };
    }
  }
}

/** One page of catalog items (spec 2.4), in a total order so that paging never repeats or skips. */
export function itemsStatement(filters: CatalogFilters, page: CatalogPage): SqlStatement {
  const c = candidates(filters);
  const order = orderBy(filters, page);
  return {
    sql:
      "SELECT products.id AS id, products.part_number AS partNumber, products.display_part_number AS displayPartNumber, " +
      "products.description AS description, manufacturers.name AS oem, products.categories AS categories " +
      `FROM ${c.from} JOIN manufacturers ON manufacturers.id = products.manufacturer_id ${c.where} ` +
      `ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
    params: [...c.params, ...order.params, page.limit, page.offset],
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
  const others: CatalogFilters =
    field === "manufacturer" ? { ...filters, manufacturers: null } : { ...filters, categories: null };
  const tail = `ORDER BY count DESC, value ASC LIMIT ${MAX_FACET_VALUES}`;
  if (!hasAnyFilter(others)) {
    return field === "manufacturer"
      ? {
          sql:
            "SELECT manufacturers.name AS value, catalog_manufacturer_counts.product_count AS count FROM catalog_manufacturer_counts " +
            `JOIN manufacturers ON manufacturers.id = catalog_manufacturer_counts.manufacturer_id WHERE catalog_manufacturer_counts.product_count > 0 ${tail}`,
          params: [],
        }
      : { sql: `SELECT category AS value, product_count AS count FROM catalog_category_counts WHERE product_count > 0 ${tail}`, params: [] };
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
