import { createHash } from "node:crypto";
import type { ImportFormat } from "./jobs";
import type { ImportFile } from "./staging";

/**
 * The same file again (docs/decisions.md, "Catalog import"): a catalog import whose uploaded files are byte for byte
 * those of the last job that applied, with the catalog unchanged since, takes that job's result instead of reading
 * every row again. It is the row path's rule for one row (a row whose source hashes to what its product was last
 * written from is unchanged: src/operator/imports/catalog-rows.ts) applied to the whole file: every valid row is
 * unchanged, the same rows are rejected for the same reasons, nothing is withdrawn, nothing is written.
 *
 * The files' fingerprint is a SHA-256 chain over segments of the stored bytes (gzip as uploaded), read in bounded
 * Workflow steps; the job keeps it, so that the next job compares with it.
 */

/** Bytes hashed per R2 read: one segment is held in memory at a time. The fingerprint depends on it. */
export const FINGERPRINT_SEGMENT_BYTES = 8 * 1024 * 1024;
/** How long a fingerprint step reads before it hands its cursor to the next step. */
const FINGERPRINT_STEP_MS = 2_000;

/** Where the fingerprint stands: the file and offset next read, and the chain's digest so far. */
export interface FingerprintCursor {
  file: number;
  offset: number;
  digest: string;
}

const chain = (digest: string, bytes: Uint8Array | string) => createHash("sha256").update(digest).update(bytes).digest("hex");

export const fingerprintStart = (format: ImportFormat): FingerprintCursor => ({
  file: 0,
  offset: 0,
  digest: chain("", `medparts import files 1 ${format}`),
});

/**
 * Hashes segments of the job's files from `cursor` for about `budgetMs` (a file's name counts where the format names
 * its files: gudid): the cursor to go on from, or, once every file is read, the fingerprint, written on the job in the same step. A file missing from R2 gives no fingerprint
 * (null): validation then fails the job with file_missing.
 */
export async function fingerprintStep(
  env: { CATALOG: D1Database; IMPORTS: R2Bucket },
  jobId: string,
  format: ImportFormat,
  files: ImportFile[],
  cursor: FingerprintCursor,
  { budgetMs = FINGERPRINT_STEP_MS, segmentBytes = FINGERPRINT_SEGMENT_BYTES } = {},
): Promise<{ cursor: FingerprintCursor } | { fingerprint: string | null }> {
  const started = Date.now();
  let { file: at, offset, digest } = cursor;
  while (at < files.length) {
    // At least one segment a step, whatever the budget.
    if (Date.now() - started > budgetMs && (at !== cursor.file || offset !== cursor.offset)) {
      return { cursor: { file: at, offset, digest } };
    }
    const file = files[at]!;
    if (offset === 0) digest = chain(digest, `${format === "gudid" ? file.name : ""} ${file.size}`);
    const length = Math.min(segmentBytes, file.size - offset);
    if (length > 0) {
      const segment = await env.IMPORTS.get(file.objectKey, { range: { offset, length } });
      if (!segment) return { fingerprint: null };
      digest = chain(digest, new Uint8Array(await segment.arrayBuffer()));
      offset += length;
    }
    if (offset >= file.size) {
      at++;
      offset = 0;
    }
  }
  await env.CATALOG.prepare("UPDATE catalog_imports SET files_fingerprint = ?2 WHERE id = ?1").bind(jobId, digest).run();
  return { fingerprint: digest };
}

/** The job is still validating and was not cancelled: the guard of every write of the shortcut. */
const STILL_VALIDATING = "EXISTS (SELECT 1 FROM catalog_imports WHERE id = ?1 AND state = 'validating' AND cancel_requested = 0)";

/**
 * The earlier job whose result this one takes, if any: a catalog job with the same fingerprint and format that
 * succeeded and wrote (not a dry run), after which the catalog version has not changed; for a replace, a replace (an
 * upsert's file may lack products a replace would withdraw); and no more rejected rows than this job allows (with
 * more, validation would stop at maxErrors). The latest such job.
 */
const EARLIER_JOB =
  "SELECT e.id FROM catalog_imports j JOIN catalog_imports e ON e.files_fingerprint = j.files_fingerprint AND e.id != j.id " +
  "JOIN catalog_version v ON v.id = 1 AND v.version = e.catalog_version_after " +
  "WHERE j.id = ?1 AND e.kind = 'catalog' AND e.format = j.format AND e.state = 'succeeded' AND e.dry_run = 0 " +
  "AND (j.mode = 'upsert' OR e.mode = 'replace') AND e.rejected <= j.max_errors ORDER BY e.finished_at DESC LIMIT 1";

/**
 * Takes the result of the earlier job with the same files, if there is one (safe to run again): its rejected rows
 * (under this job's file name when it has one file), and its counts, every valid row now unchanged; validation is
 * then over (src/operator/imports/workflow.ts concludes it as usual). The earlier job's id, or null.
 */
export async function takeSameFileResult(catalog: D1Database, jobId: string): Promise<string | null> {
  const earlier = await catalog.prepare(EARLIER_JOB).bind(jobId).first<{ id: string }>();
  if (!earlier) return null;
  const [, taken] = await catalog.batch([
    catalog
      .prepare(
        "INSERT INTO catalog_import_errors (job_id, line, file, product_key, field, code, message) " +
          "SELECT ?1, line, coalesce((SELECT min(name) FROM catalog_import_files WHERE job_id = ?1 HAVING count(*) = 1), file), " +
          `product_key, field, code, message FROM catalog_import_errors WHERE job_id = ?2 AND ${STILL_VALIDATING} ON CONFLICT DO NOTHING`,
      )
      .bind(jobId, earlier.id),
    catalog
      .prepare(
        "UPDATE catalog_imports SET same_as = e.id, rows_read = e.rows_read, bytes_total = e.bytes_total, bytes_done = e.bytes_total, " +
          "created = 0, updated = 0, unchanged = e.created + e.updated + e.unchanged, withdrawn = 0, rejected = e.rejected, progressed_at = ?3 " +
          "FROM (SELECT * FROM catalog_imports WHERE id = ?2) AS e " +
          "WHERE catalog_imports.id = ?1 AND catalog_imports.state = 'validating' AND catalog_imports.cancel_requested = 0 RETURNING same_as",
      )
      .bind(jobId, earlier.id, new Date().toISOString()),
  ]);
  return taken!.results.length > 0 ? earlier.id : null;
}
