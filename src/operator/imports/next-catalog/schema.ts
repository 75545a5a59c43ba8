import { quotedIdentifier as quoted } from "../../../db/identifiers";

/**
 * The catalog's versioned tables and how a next version of them is made and switched to (docs/architecture.md,
 * "Catalog imports"). The next version's tables are the live ones' definitions, read from the schema itself and renamed
 * `next_*`, so catalog-migrations/ stay the one source of the catalog's schema; the switch renames the live tables
 * `old_*` and the next ones live in one transaction. SQLite cannot rename an index, so each index of a next table takes
 * the other of two names (`x` or `x__next`): the live index names alternate from one build to the next, and no query
 * names an index.
 */

/** The tables a catalog version is made of. Manufacturers are shared: an import only adds to them. */
export const VERSIONED_TABLES = [
  "products",
  "product_categories",
  "device_identifiers",
  "products_fts",
  "catalog_manufacturer_counts",
  "catalog_category_counts",
  "catalog_positions",
  "catalog_positions_built",
] as const;
export type VersionedTable = (typeof VERSIONED_TABLES)[number];

/** What the full-text index of a version reads (catalog-migrations/0001): renamed with the tables. */
export const SEARCH_DOCUMENTS_VIEW = "product_search_documents";

export const nextName = (name: string) => `next_${name}`;
export const oldName = (name: string) => `old_${name}`;

/** Renames, in a definition, every table (or view) of a set it names. */
export type ReferenceRenamer = (sql: string, rename: (name: string) => string) => string;

/**
 * The renamer of `names`: a definition with every one of them it names renamed by `rename`. Its comments are left
 * out, so that prose naming a table is not renamed with it (the definitions renamed hold no string naming a table).
 */
export function referenceRenamer(names: readonly string[]): ReferenceRenamer {
  const longestFirst = [...names].sort((a, b) => b.length - a.length);
  const reference = new RegExp(`(["\`]?)\\b(${longestFirst.join("|")})\\b\\1`, "g");
  return (sql, rename) =>
    sql.replace(/--[^\n]*/g, "").replace(reference, (_, quote: string, name: string) => `${quote}${rename(name)}${quote}`);
}

/** The catalog version's renamer: its tables and the view. */
export const renameReferences = referenceRenamer([...VERSIONED_TABLES, SEARCH_DOCUMENTS_VIEW]);

const INDEX_NAME = /^(CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?)(["`]?)(\w+)\2/i;
const NEXT_SUFFIX = "__next";
/** The other of an index's two names. */
export const otherIndexName = (name: string) => (name.endsWith(NEXT_SUFFIX) ? name.slice(0, -NEXT_SUFFIX.length) : `${name}${NEXT_SUFFIX}`);

export interface SchemaObject {
  type: "table" | "index" | "view" | "trigger";
  name: string;
  tbl_name: string;
  sql: string;
}

/** The live catalog's definitions of what a version is made of, and every trigger (the switch drops and recreates them). */
export async function liveDefinitions(catalog: D1Database): Promise<{ objects: SchemaObject[]; triggers: SchemaObject[] }> {
  const { results } = await catalog
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid")
    .all<SchemaObject>();
  const versioned = new Set<string>(VERSIONED_TABLES);
  const objects = results.filter(
    (o) =>
      (o.type === "table" && versioned.has(o.name)) ||
      (o.type === "index" && versioned.has(o.tbl_name)) ||
      (o.type === "view" && o.name === SEARCH_DOCUMENTS_VIEW),
  );
  const missing = VERSIONED_TABLES.filter((name) => !objects.some((o) => o.type === "table" && o.name === name));
  if (missing.length > 0) throw new Error(`the live catalog lacks ${missing.join(", ")}`);
  return { objects, triggers: results.filter((o) => o.type === "trigger") };
}

/** The definition of an object's next version: its tables renamed `next_*`, an index under its other name. */
export function nextDefinition(object: SchemaObject, renamer: ReferenceRenamer = renameReferences): string {
  const renamed = renamer(object.sql, nextName);
  if (object.type !== "index") return renamed;
  return renamed.replace(INDEX_NAME, (_, head: string, quote: string, name: string) => `${head}${quote}${otherIndexName(name)}${quote}`);
}

/**
 * The tables filled in file order, whose clustering key is not: they are filled as heaps (no key, appended), then
 * copied into their real table in key order in one statement (src/operator/imports/next-catalog/build.ts).
 */
export const HEAPED_TABLES = ["product_categories", "device_identifiers"] as const;
export const heapName = (name: string) => `${nextName(name)}_heap`;

/**
 * Statements that create the next version's empty tables, their heaps and the view. Its indexes come once the tables
 * are full (nextIndexes): an index built by sorting what is there is many times cheaper than one kept up to date row
 * by row (docs/benchmarks.md, "Catalog import").
 */
export async function createNextVersion(catalog: D1Database): Promise<string[]> {
  const { objects } = await liveDefinitions(catalog);
  return [
    ...objects.filter((o) => o.type !== "index").map((object) => nextDefinition(object)),
    ...HEAPED_TABLES.map((name) => `CREATE TABLE ${quoted(heapName(name))} AS SELECT * FROM ${quoted(name)} WHERE false`),
  ];
}

/** The next version's indexes not made yet, as statements, in the live definitions' order. */
export async function missingNextIndexes(catalog: D1Database): Promise<string[]> {
  const [{ objects }, existing] = await Promise.all([
    liveDefinitions(catalog),
    catalog.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").all<{ name: string }>(),
  ]);
  return indexesToMake(
    objects,
    existing.results.map((r) => r.name),
    renameReferences,
  );
}

/**
 * Each live index among `objects` that the next version lacks, as the statement that makes it on the next tables
 * under its other name (SQLite cannot rename an index); `made` is the index names that exist.
 */
export function indexesToMake(objects: SchemaObject[], made: readonly string[], renamer: ReferenceRenamer): string[] {
  const existing = new Set(made);
  return objects
    .filter((o) => o.type === "index" && !existing.has(otherIndexName(o.name)))
    .map((object) => nextDefinition(object, renamer));
}

/**
 * The switch, one transaction: every trigger and the view are dropped (SQLite would rewrite them to follow the renamed
 * tables), the live tables become `old_*`, the next ones live, and the view and triggers are created again as they were.
 */
export async function switchStatements(catalog: D1Database): Promise<string[]> {
  const { objects, triggers } = await liveDefinitions(catalog);
  const view = objects.find((o) => o.type === "view");
  return [
    ...triggers.map((t) => `DROP TRIGGER ${quoted(t.name)}`),
    `DROP VIEW IF EXISTS ${quoted(SEARCH_DOCUMENTS_VIEW)}`,
    `DROP VIEW IF EXISTS ${quoted(nextName(SEARCH_DOCUMENTS_VIEW))}`,
    ...VERSIONED_TABLES.map((name) => `ALTER TABLE ${quoted(name)} RENAME TO ${quoted(oldName(name))}`),
    ...VERSIONED_TABLES.map((name) => `ALTER TABLE ${quoted(nextName(name))} RENAME TO ${quoted(name)}`),
    ...(view ? [view.sql] : []),
    ...triggers.map((t) => t.sql),
  ];
}

/** Tables left by a version: the old one after a switch, or a next one a failed build left. */
export async function leftoverTables(catalog: D1Database): Promise<string[]> {
  const names = [...VERSIONED_TABLES.flatMap((name) => [oldName(name), nextName(name)]), ...HEAPED_TABLES.map(heapName)];
  // Children before the products they reference.
  return (await existingObjects(catalog, names)).sort((a, b) => dropOrder(a) - dropOrder(b));
}

/** Which of `names` exist in the database as objects of `type`. */
export async function existingObjects(db: D1Database, names: string[], type: "table" | "index" = "table"): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT name FROM sqlite_schema WHERE type = ?1 AND name IN (SELECT value FROM json_each(?2))")
    .bind(type, JSON.stringify(names))
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

const DROP_FIRST = [
  "product_categories",
  "device_identifiers",
  "catalog_positions",
  "catalog_positions_built",
  "catalog_manufacturer_counts",
  "catalog_category_counts",
];
const dropOrder = (name: string) => {
  const base = name.replace(/^(old|next)_/, "").replace(/_heap$/, "");
  if (DROP_FIRST.includes(base)) return 0;
  return base === "products" ? 1 : 2;
};

/** Rows removed per statement from a leftover table before it is dropped: each statement stays short. */
export const CLEANUP_CHUNK_ROWS = 20_000;

/** The primary key of each versioned table without rowid (the others are emptied by rowid). */
const WITHOUT_ROWID_KEYS: Partial<Record<VersionedTable, string>> = {
  product_categories: "category, product_id",
  device_identifiers: "agency, device_id",
  catalog_category_counts: "category",
  catalog_positions: "sort_by, position",
  catalog_positions_built: "sort_by",
};

/**
 * One bounded statement of a leftover table's removal: a chunk of its rows, or the drop once it is empty. A full-text
 * index is dropped whole: its shadow tables may not be written to (docs/benchmarks.md, "Catalog import", measures it).
 * Returns false when nothing of it is left.
 */
export async function removeLeftoverChunk(catalog: D1Database, table: string): Promise<boolean> {
  const base = table.replace(/^(old|next)_/, "") as VersionedTable;
  const wholeAtOnce = base === "products_fts" || table.endsWith("_heap");
  return removeTableChunk(catalog, table, wholeAtOnce ? null : (WITHOUT_ROWID_KEYS[base] ?? "rowid"), CLEANUP_CHUNK_ROWS);
}

/**
 * One bounded statement of a table's removal: `rows` of its rows by `key` (its primary key, or rowid), or the drop once
 * it is empty (at once without a key). Returns false once it is dropped. Each is a batch of its own (one transaction).
 */
export async function removeTableChunk(db: D1Database, table: string, key: string | null, rows: number): Promise<boolean> {
  const name = quoted(table);
  if (key !== null) {
    const [deleted] = await db.batch([db.prepare(`DELETE FROM ${name} WHERE (${key}) IN (SELECT ${key} FROM ${name} LIMIT ${rows})`)]);
    if (deleted!.meta.changes > 0) return true;
  }
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = on"), db.prepare(`DROP TABLE IF EXISTS ${name}`)]);
  return false;
}
