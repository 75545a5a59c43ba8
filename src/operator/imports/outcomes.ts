import type { JobState } from "./jobs";

/** How a job ended: its final state, and for a failure a code and a message (docs/api.md, "Catalog import"). */
export type JobOutcome = { state: Extract<JobState, "succeeded" | "cancelled"> } | { state: "failed"; code: string; message?: string };

const DEFAULT_MESSAGES: Record<string, string> = {
  too_many_errors: "More rows were rejected than maxErrors allows; nothing was applied.",
  job_not_startable: "The job was not waiting to start.",
};

/** The event the operator follows (GET /admin/api/events): one per finished import. */
export const IMPORT_FINISHED_EVENT = "catalog.import.finished";
/** The same for a vendor's price file (its data names the vendor). */
export const OFFER_IMPORT_FINISHED_EVENT = "offers.import.finished";

/**
 * Ends the job once, in one transaction with its event: a job already in a final state keeps it (a step that runs
 * again changes nothing, and no second event is written). A catalog job that succeeded (not a dry run) keeps the catalog version it left,
 * which the next job with the same files compares with (src/operator/imports/same-file.ts).
 */
export async function finishJob(catalog: D1Database, jobId: string, outcome: JobOutcome): Promise<JobOutcome> {
  const now = new Date().toISOString();
  const code = outcome.state === "failed" ? outcome.code : null;
  const message = outcome.state === "failed" ? (outcome.message ?? DEFAULT_MESSAGES[outcome.code] ?? outcome.code) : null;
  await catalog.batch([
    catalog
      .prepare(
        "UPDATE catalog_imports SET state = ?2, failure_code = ?3, failure_message = ?4, finished_at = ?5, " +
          "catalog_version_after = CASE WHEN ?2 = 'succeeded' AND kind = 'catalog' AND dry_run = 0 THEN (SELECT version FROM catalog_version WHERE id = 1) END " +
          "WHERE id = ?1 AND state NOT IN ('succeeded', 'failed', 'cancelled') RETURNING id",
      )
      .bind(jobId, outcome.state, code, message, now),
    catalog
      .prepare(
        "INSERT INTO operator_events (id, type, created_at, data) SELECT ?2, CASE kind WHEN 'offers' THEN ?5 ELSE ?3 END, ?4, " +
          "json_object('importId', id, 'vendorId', vendor_id, 'state', state, " +
          "'dryRun', json(CASE WHEN dry_run = 1 THEN 'true' ELSE 'false' END), 'failure', CASE WHEN failure_code IS NULL THEN NULL " +
          "ELSE json_object('code', failure_code, 'message', failure_message) END, 'counts', json_object('read', rows_read, 'created', created, " +
          "'updated', updated, 'unchanged', unchanged, 'withdrawn', withdrawn, 'rejected', rejected)) FROM catalog_imports " +
          "WHERE id = ?1 AND finished_at = ?4 ON CONFLICT (id) DO NOTHING",
      )
      .bind(jobId, `evt_import_${jobId}`, IMPORT_FINISHED_EVENT, now, OFFER_IMPORT_FINISHED_EVENT),
  ]);
  return outcome;
}

/** The job is in its upkeep (src/operator/imports/workflow.ts catalogUpkeep) and moving. */
export async function markUpkeep(catalog: D1Database, jobId: string): Promise<void> {
  const now = new Date().toISOString();
  await catalog
    .prepare("UPDATE catalog_imports SET upkeep_started_at = coalesce(upkeep_started_at, ?2), progressed_at = ?2 WHERE id = ?1")
    .bind(jobId, now)
    .run();
}

/** Validation starts: the total size of the files (decompressed), from which its progress is measured. */
export async function recordProgressStart(catalog: D1Database, jobId: string, bytesTotal: number): Promise<void> {
  await catalog
    .prepare("UPDATE catalog_imports SET bytes_total = ?, progressed_at = ? WHERE id = ?")
    .bind(bytesTotal, new Date().toISOString(), jobId)
    .run();
}

/** Staging rows removed per statement once a job has ended (its errors stay, for GET .../errors): 50,000 held the catalog database for about a second. */
const CLEANUP_ROWS = 5_000;

/** The staging tables and their keys within a job (they are WITHOUT ROWID tables). */
const STAGING_KEYS = {
  catalog_import_rows: "seq",
  catalog_import_device_ids: "agency, device_id",
  catalog_import_gudid: "primary_di, kind, seq",
  offer_import_rows: "seq",
  recall_import_rows: "seq",
};

/** Removes a slice of the ended job's staging rows; true when none are left. */
export async function cleanUpStaging(catalog: D1Database, jobId: string): Promise<boolean> {
  const results = await catalog.batch(
    Object.entries(STAGING_KEYS).map(([table, key]) =>
      catalog
        .prepare(
          `DELETE FROM ${table} WHERE job_id = ?1 AND (${key}) IN (SELECT ${key} FROM ${table} WHERE job_id = ?1 LIMIT ${CLEANUP_ROWS})`,
        )
        .bind(jobId),
    ),
  );
  return results.every((result) => result.meta.changes < CLEANUP_ROWS);
}
