import { createHash } from "node:crypto";
import type { ImportFormat } from "./jobs";
import { SOURCE_RECIPE } from "./records";

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
 * The files' fingerprint is one SHA-256 over the job's format, the row source recipe (SOURCE_RECIPE) and each file's
 * size and digest (and name, where the format names its files: gudid). A file's digest is computed as its bytes are
 * uploaded (src/operator/imports/uploads.ts), so comparing costs no read of the files; a file uploaded before digests
 * existed has none, and its job reads its rows.
 */

/** A job's file as the fingerprint reads it. */
export interface DigestedFile {
  name: string;
  size: number;
  digest: string | null;
}

/** The fingerprint of a job's files (in the order validation reads them), or null when one has no digest. */
export function filesFingerprint(format: ImportFormat, files: readonly DigestedFile[]): string | null {
  if (files.length === 0 || files.some((file) => file.digest === null)) return null;
  const parts = files.map((file) => `${format === "gudid" ? file.name : ""}/${file.size}/${file.digest}`);
  return createHash("sha256")
    .update(`medparts import files/${SOURCE_RECIPE}/${format}\n${parts.join("\n")}`)
    .digest("hex");
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
 * Writes the job's fingerprint, then takes the result of the earlier job with the same files if there is one, in one
 * guarded batch (safe to run again): its rows read, every one of them now unchanged; validation is then over
 * (src/operator/imports/workflow.ts concludes it as usual, with this job's own dry run). The earlier job's id, or null.
 */
export async function takeSameFileResult(catalog: D1Database, jobId: string, fingerprint: string | null): Promise<string | null> {
  const validating = "catalog_imports.id = ?1 AND catalog_imports.state = 'validating' AND catalog_imports.cancel_requested = 0";
  const [, taken] = await catalog.batch([
    catalog.prepare(`UPDATE catalog_imports SET files_fingerprint = ?2 WHERE ${validating}`).bind(jobId, fingerprint),
    catalog
      .prepare(
        "UPDATE catalog_imports SET same_as = e.id, rows_read = e.rows_read, bytes_total = e.bytes_total, bytes_done = e.bytes_total, " +
          "created = 0, updated = 0, unchanged = e.created + e.updated + e.unchanged, withdrawn = 0, rejected = 0, progressed_at = ?2 " +
          `FROM (SELECT * FROM catalog_imports WHERE id = (${EARLIER_JOB})) AS e WHERE ${validating} RETURNING same_as`,
      )
      .bind(jobId, new Date().toISOString()),
  ]);
  return (taken!.results[0] as { same_as: string } | undefined)?.same_as ?? null;
}
