import { PART_NUMBER_AGENCY, type ProductCode } from "../../shared/catalog/product-codes";
import type { JobKind } from "./jobs";

/**
 * The apply pass (docs/architecture.md, "Catalog imports"): the staged rows that create or update, in line order, a
 * chunk per Workflow step, written by SQL from the staging table (no row travels through the Worker again). Every
 * statement is safe to run twice: an upsert whose content hash is already stored writes nothing, so a step that runs
 * again after its batch committed changes nothing. New products are inserted in line order, so their rowids (the
 * static rank of search, catalog-migrations/0001) follow the file's order after the products already there.
 */

/**
 * Staged rows applied per step: one D1 batch of about 0.3 s locally. D1 runs one query at a time per database, so
 * every catalog read on the primary waits for a batch under way: larger chunks import a little faster (10,000 rows:
 * about 2 s per batch) and stall searches for that long.
 */
export const APPLY_CHUNK_ROWS = 2000;

const field = (path: string) => `json_extract(r.record, '$.${path}')`;

/** The product columns a staged record (`r`, a catalog_import_rows row) writes, and their values; without and with its id. */
export const RECORD_FIELD_COLUMNS =
  "part_number, display_part_number, normalized_part_number, title, description, manufacturer_id, categories, status, content_hash, source_hash";
export const RECORD_FIELD_VALUES =
  `${field("partNumber")}, ${field("displayPartNumber")}, ${field("normalizedPartNumber")}, ${field("title")}, ` +
  `${field("description")}, (SELECT id FROM manufacturers WHERE name = ${field("manufacturer")}), json(${field("categories")}), ` +
  `${field("status")}, r.content_hash, r.source_hash`;
const RECORD_COLUMNS = `id, ${RECORD_FIELD_COLUMNS}`;
export const RECORD_VALUES = `r.product_id, ${RECORD_FIELD_VALUES}`;

/** The new manufacturers of the staged records in `where` (over `r`, a catalog_import_rows row). */
export const newManufacturers = (where: string) =>
  `INSERT INTO manufacturers (name) SELECT DISTINCT ${field("manufacturer")} FROM catalog_import_rows r WHERE ${where} ON CONFLICT (name) DO NOTHING`;

/** The device identifiers of the staged records in `where`, for `table` (without a key: appended, never upserted). */
export const stagedDeviceIdentifiers = (table: string, where: string, { keyed = true } = {}) =>
  `INSERT INTO ${table} (agency, device_id, product_id, contains_device_id, quantity) ` +
  "SELECT json_extract(d.value, '$.agency'), json_extract(d.value, '$.deviceId'), r.product_id, " +
  "json_extract(d.value, '$.containsDeviceId'), json_extract(d.value, '$.quantity') " +
  `FROM catalog_import_rows r, json_each(r.record, '$.deviceIdentifiers') d WHERE ${where}` +
  (keyed
    ? " ON CONFLICT (agency, device_id) DO UPDATE SET product_id = excluded.product_id, " +
      "contains_device_id = excluded.contains_device_id, quantity = excluded.quantity"
    : "");

const RANGE = "r.job_id = ?1 AND r.seq > ?2 AND r.seq <= ?3 AND r.record IS NOT NULL";

/** The staging table of each kind of job. */
export const STAGED_ROWS = { catalog: "catalog_import_rows", offers: "offer_import_rows", recalls: "recall_import_rows" } as const;

/** The last line of the next chunk after `afterSeq`, and how many rows it holds (0: nothing left). */
export async function nextChunk(
  catalog: D1Database,
  kind: JobKind,
  jobId: string,
  afterSeq: number,
): Promise<{ lastSeq: number; rows: number }> {
  const row = await catalog
    .prepare(
      `SELECT max(seq) AS lastSeq, count(*) AS rows FROM (SELECT seq FROM ${STAGED_ROWS[kind]} ` +
        "WHERE job_id = ?1 AND seq > ?2 AND record IS NOT NULL ORDER BY seq LIMIT ?3)",
    )
    .bind(jobId, afterSeq, APPLY_CHUNK_ROWS)
    .first<{ lastSeq: number | null; rows: number }>();
  return { lastSeq: row?.lastSeq ?? afterSeq, rows: row?.rows ?? 0 };
}

/** The job's rows applied so far, with the time it moved (its progress). */
export const rowsAppliedStatement = (catalog: D1Database, jobId: string, rowsApplied: number) =>
  catalog
    .prepare("UPDATE catalog_imports SET rows_applied = max(rows_applied, ?2), progressed_at = ?3 WHERE id = ?1")
    .bind(jobId, rowsApplied, new Date().toISOString());

/**
 * The records a kind that writes outside the catalog database staged for (afterSeq, lastSeq]: those that write
 * something (a row equal to what is stored has none), in the file's order.
 */
export async function stagedRecords<T>(catalog: D1Database, kind: "offers" | "recalls", jobId: string, afterSeq: number, lastSeq: number) {
  const { results } = await catalog
    .prepare(`SELECT record FROM ${STAGED_ROWS[kind]} WHERE job_id = ?1 AND seq > ?2 AND seq <= ?3 AND record IS NOT NULL ORDER BY seq`)
    .bind(jobId, afterSeq, lastSeq)
    .all<{ record: string }>();
  return results.map((row) => JSON.parse(row.record) as T);
}

/** Writes the staged rows of (afterSeq, lastSeq] to the catalog, with the job's progress, in one transaction. */
export async function applyChunk(
  catalog: D1Database,
  jobId: string,
  afterSeq: number,
  lastSeq: number,
  appliedBefore: number,
  rows: number,
) {
  await catalog.batch([
    catalog.prepare(newManufacturers(RANGE)).bind(jobId, afterSeq, lastSeq),
    catalog
      .prepare(
        `DELETE FROM device_identifiers WHERE product_id IN (SELECT r.product_id FROM catalog_import_rows r WHERE ${RANGE} AND r.action = 'update')`,
      )
      .bind(jobId, afterSeq, lastSeq),
    catalog
      .prepare(
        `INSERT INTO products (${RECORD_COLUMNS}) SELECT ${RECORD_VALUES} FROM catalog_import_rows r WHERE ${RANGE} ORDER BY r.seq ` +
          "ON CONFLICT (id) DO UPDATE SET part_number = excluded.part_number, display_part_number = excluded.display_part_number, " +
          "normalized_part_number = excluded.normalized_part_number, title = excluded.title, description = excluded.description, " +
          "manufacturer_id = excluded.manufacturer_id, categories = excluded.categories, status = excluded.status, " +
          "content_hash = excluded.content_hash, source_hash = excluded.source_hash WHERE products.content_hash IS NOT excluded.content_hash",
      )
      .bind(jobId, afterSeq, lastSeq),
    catalog.prepare(stagedDeviceIdentifiers("device_identifiers", RANGE)).bind(jobId, afterSeq, lastSeq),
    rowsAppliedStatement(catalog, jobId, appliedBefore + rows),
  ]);
}

/**
 * The codes of the products staged in (afterSeq, lastSeq] (device identifiers, then the normalized part number), and
 * those products, for the main database's copy (src/shared/catalog/product-codes.ts).
 */
export async function stagedProductCodes(
  catalog: D1Database,
  jobId: string,
  afterSeq: number,
  lastSeq: number,
): Promise<{ productIds: string[]; codes: ProductCode[] }> {
  const results = await catalog
    .prepare(
      "SELECT d.value ->> 'agency' AS agency, d.value ->> 'deviceId' AS code, r.product_id " +
        `FROM catalog_import_rows r, json_each(r.record, '$.deviceIdentifiers') d WHERE ${RANGE} ` +
        `UNION ALL SELECT ?4, r.record ->> 'normalizedPartNumber', r.product_id FROM catalog_import_rows r WHERE ${RANGE}`,
    )
    .bind(jobId, afterSeq, lastSeq, PART_NUMBER_AGENCY)
    .raw<[string, string, string]>();
  return { productIds: [...new Set(results.map(([, , productId]) => productId))], codes: results };
}

/** Products the file lacks that a replace withdraws: active or discontinued, and not staged by this job. */
const LACKING = "p.status != 'withdrawn' AND NOT EXISTS (SELECT 1 FROM catalog_import_rows r WHERE r.job_id = ?1 AND r.product_id = p.id)";

export async function countLacking(catalog: D1Database, jobId: string): Promise<{ lacking: number; active: number }> {
  const row = await catalog
    .prepare(
      `SELECT (SELECT count(*) FROM products p WHERE ${LACKING}) AS lacking, (SELECT count(*) FROM products WHERE status != 'withdrawn') AS active`,
    )
    .bind(jobId)
    .first<{ lacking: number; active: number }>();
  return row ?? { lacking: 0, active: 0 };
}

/** Products withdrawn per step by a replace, walking rowids. */
export const WITHDRAW_CHUNK_ROWIDS = 20_000;

/**
 * Withdraws the lacking products with rowids in (afterRowid, afterRowid + WITHDRAW_CHUNK_ROWIDS]; returns the next
 * start or null at the end. The content hash is cleared: the same record imported again later restores the product.
 */
export async function withdrawChunk(catalog: D1Database, jobId: string, afterRowid: number): Promise<number | null> {
  const [, last] = await catalog.batch([
    catalog
      .prepare(
        `UPDATE products AS p SET status = 'withdrawn', content_hash = NULL, source_hash = NULL WHERE p.rowid > ?2 AND p.rowid <= ?3 AND ${LACKING}`,
      )
      .bind(jobId, afterRowid, afterRowid + WITHDRAW_CHUNK_ROWIDS),
    catalog.prepare("SELECT max(rowid) AS last FROM products"),
  ]);
  const lastRowid = (last!.results[0] as { last: number | null }).last ?? 0;
  return afterRowid + WITHDRAW_CHUNK_ROWIDS >= lastRowid ? null : afterRowid + WITHDRAW_CHUNK_ROWIDS;
}
