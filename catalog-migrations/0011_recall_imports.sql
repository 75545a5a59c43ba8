-- FDA recall records through the import jobs (issue 70; docs/recalls.md "Loading recalls"): a job may now be of the
-- kind `recalls`, read from an openFDA JSON document (format `openfda`: the API's answer or the bulk download's
-- `{ meta, results }`) or NDJSON. SQLite cannot widen a CHECK in place, so catalog_imports is rebuilt with the two
-- lists widened. catalog_import_files references it: with foreign keys deferred, the rows are copied aside, the old
-- table dropped (its files' rows orphaned for the moment), the new one named in its place and the rows put back,
-- which answers every orphan before the transaction commits.
PRAGMA defer_foreign_keys = on;

CREATE TABLE catalog_imports_new (
  id TEXT PRIMARY KEY,
  format TEXT NOT NULL CHECK (format IN ('ndjson', 'csv', 'gudid', 'openfda')),
  mode TEXT NOT NULL CHECK (mode IN ('upsert', 'replace')),
  dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
  on_error TEXT NOT NULL CHECK (on_error IN ('rejectAll', 'skipFailedRows')),
  max_errors INTEGER NOT NULL,
  max_withdraw_percent INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('awaiting_upload', 'validating', 'running', 'succeeded', 'failed', 'cancelled')),
  failure_code TEXT,
  failure_message TEXT,
  client_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  bytes_total INTEGER NOT NULL DEFAULT 0,
  bytes_done INTEGER NOT NULL DEFAULT 0,
  rows_read INTEGER NOT NULL DEFAULT 0,
  rows_to_apply INTEGER NOT NULL DEFAULT 0,
  rows_applied INTEGER NOT NULL DEFAULT 0,
  validated_at TEXT,
  created INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL DEFAULT 0,
  unchanged INTEGER NOT NULL DEFAULT 0,
  withdrawn INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  progressed_at TEXT,
  upkeep_started_at TEXT,
  kind TEXT NOT NULL DEFAULT 'catalog' CHECK (kind IN ('catalog', 'offers', 'recalls')),
  vendor_id INTEGER,
  apply_path TEXT CHECK (apply_path IN ('rows', 'bulk')),
  build_phase TEXT,
  build_cursor INTEGER NOT NULL DEFAULT 0,
  build_version TEXT,
  build_rows INTEGER NOT NULL DEFAULT 0,
  files_fingerprint TEXT,
  catalog_version_after TEXT,
  same_as TEXT,
  rows_revalidated INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE catalog_imports_copy AS SELECT * FROM catalog_imports;
DROP TABLE catalog_imports;
ALTER TABLE catalog_imports_new RENAME TO catalog_imports;
INSERT INTO catalog_imports (
  id, format, mode, dry_run, on_error, max_errors, max_withdraw_percent, state, failure_code, failure_message, client_id,
  created_at, started_at, finished_at, bytes_total, bytes_done, rows_read, rows_to_apply, rows_applied, validated_at,
  created, updated, unchanged, withdrawn, rejected, cancel_requested, progressed_at, upkeep_started_at, kind, vendor_id,
  apply_path, build_phase, build_cursor, build_version, build_rows, files_fingerprint, catalog_version_after, same_as,
  rows_revalidated
)
SELECT
  id, format, mode, dry_run, on_error, max_errors, max_withdraw_percent, state, failure_code, failure_message, client_id,
  created_at, started_at, finished_at, bytes_total, bytes_done, rows_read, rows_to_apply, rows_applied, validated_at,
  created, updated, unchanged, withdrawn, rejected, cancel_requested, progressed_at, upkeep_started_at, kind, vendor_id,
  apply_path, build_phase, build_cursor, build_version, build_rows, files_fingerprint, catalog_version_after, same_as,
  rows_revalidated
FROM catalog_imports_copy;
DROP TABLE catalog_imports_copy;
CREATE INDEX catalog_imports_created ON catalog_imports(created_at, id);
CREATE INDEX catalog_imports_vendor ON catalog_imports(vendor_id, created_at, id) WHERE vendor_id IS NOT NULL;
CREATE INDEX catalog_imports_fingerprint ON catalog_imports(files_fingerprint) WHERE files_fingerprint IS NOT NULL;

-- One row per FDA product number of a recall file, written by validation (the first record with a number wins).
-- `record` is the recall to write (src/operator/recalls/openfda.ts RecallRecord, with its scope read), NULL for a record
-- equal to what is stored.
CREATE TABLE recall_import_rows (
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  product_number TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'unchanged')),
  record TEXT,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX recall_import_rows_number ON recall_import_rows(job_id, product_number);
