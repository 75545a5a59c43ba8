import { createHash } from "node:crypto";
import type { ImportFormat } from "./jobs";
import type { ImportFile } from "./staging";

/**
 * The same file again (docs/decisions.md, "Catalog import"): a catalog import whose uploaded files are byte for byte
 * those of an earlier job takes that job's result instead of reading every row, when reading them would repeat it.
 * That holds when the earlier job succeeded (not a dry run), the catalog version has not changed since it ended, it
 * rejected no row, and every row it staged named its own id and was left with its source hash stored (created,
 * updated, or unchanged with the same source; `rows_revalidated` is 0). Reading the file again would then find every
 * row unchanged by the row path's own rule (a row whose source hashes to what its product was last written from is
 * not validated: src/operator/imports/catalog-rows.ts), and a replace would find nothing to withdraw. Rejected rows
 * and rows matched through the catalog are validated again on every read (a deploy may change what is rejected; the
 * job may have moved what they match), so a file with any of them is read again.
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
 * its files: gudid), with the job's progress: the cursor to go on from, or, once every file is read, the fingerprint,
 * written on the job in the same step. No fingerprint (null) for a file missing from R2 (validation then fails the job
 * with file_missing), nor for a job whose validation has begun (an instance that started before this step existed).
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
  // Progress moves with each step (a job standing still for 30 s is nudged: src/operator/imports/sweep.ts).
  const job = await env.CATALOG.prepare(
    "UPDATE catalog_imports SET progressed_at = ?2 WHERE id = ?1 AND state = 'validating' AND bytes_total = 0 RETURNING id",
  )
    .bind(jobId, new Date().toISOString())
    .first();
  if (!job) return { fingerprint: null };
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

/**
 * The earlier job whose result this one takes, if any (same-file.ts, above): the latest catalog job with the same
 * fingerprint and format that succeeded (not a dry run), after which the catalog version has not changed, that
 * rejected no row and staged no row that reading the file again would validate again; for a replace, a replace (an
 * upsert's file may lack products a replace would withdraw).
 */
const EARLIER_JOB =
  "SELECT e.id FROM catalog_imports j JOIN catalog_imports e ON e.files_fingerprint = j.files_fingerprint AND e.id != j.id " +
  "JOIN catalog_version v ON v.id = 1 AND v.version = e.catalog_version_after " +
  "WHERE j.id = ?1 AND e.kind = 'catalog' AND e.format = j.format AND e.state = 'succeeded' AND e.dry_run = 0 " +
  "AND e.rejected = 0 AND e.rows_revalidated = 0 AND (j.mode = 'upsert' OR e.mode = 'replace') ORDER BY e.finished_at DESC LIMIT 1";

/**
 * Takes the result of the earlier job with the same files, if there is one, in one guarded statement (safe to run
 * again): its rows read, every one of them now unchanged; validation is then over (src/operator/imports/workflow.ts
 * concludes it as usual, with this job's own dry run). The earlier job's id, or null.
 */
export async function takeSameFileResult(catalog: D1Database, jobId: string): Promise<string | null> {
  const taken = await catalog
    .prepare(
      "UPDATE catalog_imports SET same_as = e.id, rows_read = e.rows_read, bytes_total = e.bytes_total, bytes_done = e.bytes_total, " +
        "created = 0, updated = 0, unchanged = e.created + e.updated + e.unchanged, withdrawn = 0, rejected = 0, progressed_at = ?2 " +
        `FROM (SELECT * FROM catalog_imports WHERE id = (${EARLIER_JOB})) AS e ` +
        "WHERE catalog_imports.id = ?1 AND catalog_imports.state = 'validating' AND catalog_imports.cancel_requested = 0 RETURNING same_as",
    )
    .bind(jobId, new Date().toISOString())
    .first<{ same_as: string }>();
  return taken?.same_as ?? null;
}
