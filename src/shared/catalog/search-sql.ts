import type { Page, SortDirection } from "../../platform/pagination";
import { facetNarrowing, type KeywordSearch } from "./keywords";
import { isPositionedSort, POSITIONS_ARE_CURRENT, type PositionedSort } from "./positions";

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
 * Matches scored for a relevance order: the first RANK_WINDOW matches in static rank order (rowid, see
 * catalog-migrations/0001_catalog.sql). Scoring every match would cost O(matches).
 */
export const RANK_WINDOW = 500;

/**
 * `total` and facet counts are exact up to this many matches (or up to the page's end, if further); beyond it they
 * count this many and say so (`totalRelation`/`countsRelation` "gte"), as counting every match costs O(matches).
 */
export const EXACT_COUNT_LIMIT = 1000;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

interface Candidates {
  /** FROM and JOIN clauses: `products` (or its manufacturer index), with or without `products_fts`, or `products_fts` alone. */
  from: string;
  where: string;
  params: unknown[];
}

const hasAnyFilter = (f: CatalogFilters) => f.keywords !== null || f.manufacturers !== null || f.categories !== null;

/**
 * The FTS5 expression for keywords and facets together. The facet phrases narrow the matches inside the
 * full-text index, so only the (few) products of the chosen facets are read from the products table to
 * check the facets exactly.
 */
function fullTextMatch(keywords: KeywordSearch, filters: CatalogFilters): string {
  const narrowing = [
    filters.manufacturers && facetNarrowing("manufacturer", filters.manufacturers),
    filters.categories && facetNarrowing("categories", filters.categories),
  ].filter((phrase): phrase is string => Boolean(phrase));
  return narrowing.length === 0 ? keywords.match : [`(${keywords.match})`, ...narrowing].join(" AND ");
}

/** The products matching the filters. The FTS5 index drives the join when there are keywords. */
function candidates(filters: CatalogFilters, { readsProducts = true, coveredByManufacturerIndex = false } = {}): Candidates {
  const conditions: string[] = [];
  const params: unknown[] = [];
  let from = "products";
  if (filters.keywords && filters.manufacturers && coveredByManufacturerIndex) {
    // Keywords within chosen manufacturers, reading only what the (manufacturer, part number, id) index covers: walk
    // those manufacturers' index entries and keep the ones in the full-text matches. No product row is read, where
    // reading the matches' rows one by one costs a page each (docs/benchmarks.md, "Catalog at scale").
    // The unary + keeps the planner from driving the walk by the matches' rowids: the manufacturer condition is then
    // the only one an index serves, and the (manufacturer, part number, id) index is the one that starts with it. No
    // index is named: an import's switch alternates index names (src/operator/imports/next-catalog/schema.ts).
    conditions.push("+products.rowid IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ?)");
    params.push(fullTextMatch(filters.keywords, filters));
  } else if (filters.keywords) {
    const needsProducts = readsProducts || filters.manufacturers !== null || filters.categories !== null;
    from = needsProducts ? "products_fts JOIN products ON products.rowid = products_fts.rowid" : "products_fts";
    conditions.push("products_fts MATCH ?");
    params.push(fullTextMatch(filters.keywords, filters));
  }
  conditions.push(...facetConditions(filters, params));
  return { from, where: conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "", params };
}

/** The exact facet conditions over `products` (values within a facet OR, facets AND); their values go to `params`. */
function facetConditions(filters: CatalogFilters, params: unknown[]): string[] {
  const conditions: string[] = [];
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
  return conditions;
}

interface SortTerm {
  /** SQL expression over products (and manufacturers for the Manufacturer sort). */
  expr: string;
  ascending: boolean;
}

/** A total order (id breaks every tie) so that successive offsets never repeat or skip a product. */
function sortTerms(page: CatalogPage): SortTerm[] {
  const asc = page.sortDirection === "Asc";
  const by = (...exprs: string[]) => exprs.map((expr) => ({ expr, ascending: asc }));
  switch (page.sortBy) {
    case "PartNumber":
      return by("products.part_number", "products.id");
    case "Description":
      return by("products.description", "products.id");
    case "Manufacturer":
      return by("manufacturers.name", "products.part_number", "products.id");
    case "Relevance":
      // Without keywords every product is equally relevant: catalog order (id), first first for Desc.
      return [{ expr: "products.id", ascending: !asc }];
  }
}

const sortKey = (index: number) => `sort_${index}`;
const orderBySortKeys = (terms: SortTerm[], table = "") =>
  terms.map((term, index) => `${table}${sortKey(index)} ${term.ascending ? "ASC" : "DESC"}`).join(", ");

const ITEM_COLUMNS =
  "products.id AS id, products.part_number AS partNumber, products.display_part_number AS displayPartNumber, " +
  "products.description AS description, manufacturers.name AS oem, products.categories AS categories";

/** The page's products, read by rowid from `page` (with `product_rowid`), in `order`. */
const readPage = (order: string) =>
  `SELECT ${ITEM_COLUMNS} FROM page JOIN products ON products.rowid = page.product_rowid ` +
  `JOIN manufacturers ON manufacturers.id = products.manufacturer_id ORDER BY ${order}`;

/**
 * One page of catalog items (spec 2.4), as one or two statements whose rows are the page (the caller concatenates
 * them: at most one has rows). A late row lookup: the `page` subquery finds the page's rowids by walking only the
 * sort index, the FTS matches or the precomputed positions, and the wide columns are read for the page alone.
 */
export function itemsStatements(filters: CatalogFilters, page: CatalogPage): SqlStatement[] {
  if (page.sortBy === "Relevance" && filters.keywords) return [relevancePage(filters, filters.keywords, page)];
  if (hasAnyFilter(filters) || !isPositionedSort(page.sortBy)) return [sortedPage(filters, page)];
  // The whole catalog in a sort order with positions: a range of them while current, the walk otherwise.
  const stale = { condition: `NOT ${POSITIONS_ARE_CURRENT}`, params: [page.sortBy] };
  return [positionedPage(page.sortBy, page), sortedPage(filters, page, stale)];
}

/**
 * Matches sorted by a column: the sort index is walked past the offset, or, with keywords, every match is read to
 * sort them (few, once narrowed by keywords and facets). `onlyIf`: a condition for the walk to run at all, in the
 * LIMIT (a WHERE condition would still walk the index past the offset, testing it on every entry).
 */
function sortedPage(filters: CatalogFilters, page: CatalogPage, onlyIf?: { condition: string; params: unknown[] }): SqlStatement {
  // Part number and manufacturer orders read only what the manufacturer index covers; a description order reads rows.
  const c = candidates(filters, { coveredByManufacturerIndex: page.sortBy === "PartNumber" || page.sortBy === "Manufacturer" });
  const terms = sortTerms(page);
  const keys = terms.map((term, index) => `${term.expr} AS ${sortKey(index)}`).join(", ");
  const readsManufacturer = terms.some((term) => term.expr.startsWith("manufacturers."));
  const manufacturerJoin = readsManufacturer ? " JOIN manufacturers ON manufacturers.id = products.manufacturer_id" : "";
  const limit = onlyIf ? `(CASE WHEN ${onlyIf.condition} THEN ? ELSE 0 END)` : "?";
  return {
    sql:
      `WITH page AS MATERIALIZED (SELECT products.rowid AS product_rowid, ${keys} FROM ${c.from}${manufacturerJoin} ${c.where} ` +
      `ORDER BY ${orderBySortKeys(terms)} LIMIT ${limit} OFFSET ?) ${readPage(orderBySortKeys(terms, "page."))}`,
    params: [...c.params, ...(onlyIf?.params ?? []), page.limit, page.offset],
  };
}

/** The page as a range of precomputed positions (from the end for Desc); no rows unless they are current. */
function positionedPage(sortBy: PositionedSort, page: CatalogPage): SqlStatement {
  const desc = page.sortDirection === "Desc";
  const last = "(SELECT COALESCE(MAX(position), 0) FROM catalog_positions WHERE sort_by = ?)";
  const range = desc ? `position > ${last} - ? - ? AND position <= ${last} - ?` : "position > ? AND position <= ? + ?";
  const params = desc ? [sortBy, page.offset, page.limit, sortBy, page.offset] : [page.offset, page.offset, page.limit];
  return {
    sql:
      `SELECT ${ITEM_COLUMNS} FROM catalog_positions JOIN products ON products.rowid = catalog_positions.product_rowid ` +
      "JOIN manufacturers ON manufacturers.id = products.manufacturer_id " +
      `WHERE catalog_positions.sort_by = ? AND ${range} AND ${POSITIONS_ARE_CURRENT} ORDER BY catalog_positions.position ${desc ? "DESC" : "ASC"}`,
    params: [sortBy, ...params, sortBy],
  };
}

/**
 * What relevance weighs, highest first: a query word found at the start of a word of the field adds the field's weight
 * (a short word found whole adds it again). Only fields read with the product's row: scoring needs no pass over the
 * full-text index, where bm25() first counts every product of each term (4.6 ms of 5.2 at 1M products for "battery
 * pack", docs/benchmarks.md), and which field a word is in tells a buyer's intent (the part, the device, the maker).
 * `text` is lower-cased and padded with spaces; the characters that separate words in it become spaces.
 */
const RANKED_FIELDS = [
  { name: "part_numbers", text: "products.part_number || ' ' || replace(products.display_part_number, '-', ' ')", weight: 10 },
  { name: "title", text: "replace(products.title, '-', ' ')", weight: 4 },
  { name: "manufacturer", text: "manufacturers.name", weight: 3 },
  // A JSON array of names: its quotes open and close words.
  { name: "categories", text: "replace(products.categories, '\"', ' ')", weight: 2 },
] as const;

/**
 * Relevance (Desc = most relevant first): the product whose part number is the query comes first; then the first
 * RANK_WINDOW matches in static rank order, by their score over RANKED_FIELDS (higher first, then rank order); then
 * the other matches in rank order. Asc is the exact reverse. Matches are read once, in rowid order, and LIMIT stops
 * the full-text read early: a page costs O(window + offset + limit), not O(matches).
 */
function relevancePage(filters: CatalogFilters, keywords: KeywordSearch, page: CatalogPage): SqlStatement {
  const c = candidates(filters, { readsProducts: false });
  const facetParams: unknown[] = [];
  const exactFacets = facetConditions(filters, facetParams)
    .map((condition) => ` AND ${condition}`)
    .join("");
  const desc = page.sortDirection === "Desc";
  const matchLimit = desc ? RANK_WINDOW + page.offset + page.limit : -1;
  const direction = desc ? "ASC" : "DESC";
  const fields = RANKED_FIELDS.map((field) => `' ' || lower(${field.text}) || ' ' AS ${field.name}`).join(", ");
  // One row of terms (t0, t1, ...) beside each window row: the score is one expression, no subquery per product.
  // parseKeywords gives at least one term (a query without a word has no keywords).
  const terms = keywords.rankTerms.map((_, i) => `? AS t${i}`).join(", ");
  const score = keywords.rankTerms
    .flatMap((_, i) => RANKED_FIELDS.map((field) => `${field.weight} * (instr(windowed.${field.name}, terms.t${i}) > 0)`))
    .join(" + ");
  return {
    sql:
      "WITH exact AS MATERIALIZED (" +
      `SELECT products.rowid AS r FROM products WHERE products.normalized_part_number = ?${exactFacets} UNION ` +
      `SELECT products.rowid FROM products WHERE ltrim(products.normalized_part_number, '${LETTERS}') = ?${exactFacets}), ` +
      `matched AS MATERIALIZED (SELECT products_fts.rowid AS r FROM ${c.from} ${c.where} LIMIT ?), ` +
      `edge AS MATERIALIZED (SELECT COALESCE((SELECT r FROM matched ORDER BY r LIMIT 1 OFFSET ${RANK_WINDOW - 1}), ${Number.MAX_SAFE_INTEGER}) AS r), ` +
      // The window's fields (null outside it, and when the exact part number was found: then the rest is in rank order).
      `windowed AS MATERIALIZED (SELECT matched.r AS r, matched.r <= edge.r AS in_window, ${fields} FROM matched JOIN edge ` +
      "LEFT JOIN products ON products.rowid = matched.r AND matched.r <= edge.r AND NOT EXISTS (SELECT 1 FROM exact) " +
      "LEFT JOIN manufacturers ON manufacturers.id = products.manufacturer_id), " +
      `terms AS MATERIALIZED (SELECT ${terms}), ` +
      // Lower sorts first, as in the other orders: the score is negated.
      "ranked AS (SELECT r, 0 AS tier, 0.0 AS score FROM exact UNION ALL " +
      `SELECT r, CASE WHEN in_window THEN 1 ELSE 2 END, CASE WHEN in_window THEN -(${score}) ELSE 0 END ` +
      "FROM windowed JOIN terms WHERE r NOT IN (SELECT r FROM exact)), " +
      `page AS MATERIALIZED (SELECT r AS product_rowid, tier, score FROM ranked ORDER BY tier ${direction}, score ${direction}, r ${direction} LIMIT ? OFFSET ?) ` +
      readPage(`page.tier ${direction}, page.score ${direction}, page.product_rowid ${direction}`),
    params: [
      keywords.partNumberKey,
      ...facetParams,
      keywords.partNumberKey,
      ...facetParams,
      ...c.params,
      matchLimit,
      ...keywords.rankTerms,
      page.limit,
      page.offset,
    ],
  };
}

/** How far counting goes: EXACT_COUNT_LIMIT, or the page's end if further (so `hasMore` is always right). */
const countBound = (page: CatalogPage) => Math.max(EXACT_COUNT_LIMIT, page.offset + page.limit);

export type CountKind = "total" | FacetField;

/** A row of a counts statement: the total (value null) or a facet value, and how many matches were counted. */
export interface CountRow {
  kind: CountKind;
  value: string | null;
  count: number;
  sampled: number;
}

const facetTail = `ORDER BY count DESC, value ASC LIMIT ${MAX_FACET_VALUES}`;

/**
 * The total and/or facet counts over one candidate set, in one statement of CountRow rows. Over the whole catalog
 * they come from the counters (exact). Otherwise the candidates are read once, up to one past the count bound (in
 * rank order, or in the manufacturer index's order with a manufacturer facet), and everything is counted over that
 * sample: when `sampled` exceeds the bound, the counts are lower bounds (totalRelation / countsRelation "gte").
 */
function countsStatement(filters: CatalogFilters, kinds: readonly CountKind[], page: CatalogPage): SqlStatement {
  const parts: Record<CountKind, string> = hasAnyFilter(filters)
    ? {
        total: "SELECT 'total' AS kind, NULL AS value, COUNT(*) AS count, COUNT(*) AS sampled FROM sample",
        manufacturer:
          "SELECT * FROM (SELECT 'manufacturer' AS kind, manufacturers.name AS value, COUNT(*) AS count, (SELECT COUNT(*) FROM sample) AS sampled " +
          `FROM sample JOIN manufacturers ON manufacturers.id = sample.manufacturer_id GROUP BY sample.manufacturer_id ${facetTail})`,
        category:
          "SELECT * FROM (SELECT 'category' AS kind, categories.value AS value, COUNT(DISTINCT sample.r) AS count, (SELECT COUNT(*) FROM sample) AS sampled " +
          // The categories come from the row already read (products.categories, which product_categories follows by
          // trigger): a product_categories search per counted match costs 4 ms for 1,001 at 1M products. DISTINCT: a
          // name the array repeats is one category, as in product_categories.
          `FROM sample, json_each(sample.categories) AS categories GROUP BY categories.value ${facetTail})`,
      }
    : {
        total:
          "SELECT 'total' AS kind, NULL AS value, COALESCE(SUM(product_count), 0) AS count, 0 AS sampled FROM catalog_manufacturer_counts",
        manufacturer:
          "SELECT * FROM (SELECT 'manufacturer' AS kind, manufacturers.name AS value, catalog_manufacturer_counts.product_count AS count, 0 AS sampled " +
          "FROM catalog_manufacturer_counts JOIN manufacturers ON manufacturers.id = catalog_manufacturer_counts.manufacturer_id " +
          `WHERE catalog_manufacturer_counts.product_count > 0 ${facetTail})`,
        category:
          "SELECT * FROM (SELECT 'category' AS kind, category AS value, product_count AS count, 0 AS sampled FROM catalog_category_counts " +
          `WHERE product_count > 0 ${facetTail})`,
      };
  const union = kinds.map((kind) => parts[kind]).join(" UNION ALL ");
  if (!hasAnyFilter(filters)) return { sql: union, params: [] };
  const c = candidates(filters, { coveredByManufacturerIndex: !kinds.includes("category") });
  return {
    sql:
      "WITH sample AS MATERIALIZED (SELECT products.rowid AS r, products.manufacturer_id AS manufacturer_id, products.categories AS categories " +
      `FROM ${c.from} ${c.where} LIMIT ?) ${union}`,
    params: [...c.params, countBound(page) + 1],
  };
}

/**
 * The counts statements of a search: the total and every facet without a selection share the search's own
 * candidates (one statement, one full-text read); a facet with a selection is counted without it (the other filters
 * apply), so the counts tell a buyer what each alternative would give and several values can be combined.
 */
export function countsStatements(filters: CatalogFilters, page: CatalogPage): SqlStatement[] {
  const selected = (field: FacetField) => (field === "manufacturer" ? filters.manufacturers : filters.categories) !== null;
  const own: CountKind[] = ["total", ...FACET_FIELDS.filter((field) => !selected(field))];
  const withoutOwnSelection = FACET_FIELDS.filter(selected).map((field) =>
    countsStatement(field === "manufacturer" ? { ...filters, manufacturers: null } : { ...filters, categories: null }, [field], page),
  );
  return [countsStatement(filters, own, page), ...withoutOwnSelection];
}

export interface CatalogSearchStatements {
  items: SqlStatement[];
  /** Rows of CountRow: the total and the facet counts. */
  counts: SqlStatement[];
  /** Counts above this are lower bounds: the bound is reported with relation "gte". */
  countBound: number;
}

export function catalogSearchStatements(filters: CatalogFilters, page: CatalogPage): CatalogSearchStatements {
  return { items: itemsStatements(filters, page), counts: countsStatements(filters, page), countBound: countBound(page) };
}
