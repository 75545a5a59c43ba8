-- Catalog import jobs (issue 30; docs/api.md "Catalog import", docs/architecture.md "Catalog imports"). They live in
-- the catalog database beside the products they write, so that a step's writes and its progress commit together.

-- What a product row was last written from: a hash of its normalized import record (src/imports/records.ts). A
-- record whose hash equals the stored one writes nothing: no trigger fires, the catalog version stays. NULL for
-- products written otherwise (the seed): their first import rewrites them once.
ALTER TABLE products ADD COLUMN content_hash TEXT;

CREATE TABLE catalog_imports (
  id TEXT PRIMARY KEY,
  format TEXT NOT NULL CHECK (format IN ('ndjson', 'csv', 'gudid')),
  mode TEXT NOT NULL CHECK (mode IN ('upsert', 'replace')),
  dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
  on_error TEXT NOT NULL CHECK (on_error IN ('rejectAll', 'skipFailedRows')),
  max_errors INTEGER NOT NULL,
  -- replace: the most of the active catalog (percent) the job may withdraw; more fails the job before it applies
  max_withdraw_percent INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('awaiting_upload', 'validating', 'running', 'succeeded', 'failed', 'cancelled')),
  failure_code TEXT,
  failure_message TEXT,
  client_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  -- progress of the pass under way (bytes of all files read by validation; staged rows applied by running)
  bytes_total INTEGER NOT NULL DEFAULT 0,
  bytes_done INTEGER NOT NULL DEFAULT 0,
  rows_read INTEGER NOT NULL DEFAULT 0,
  rows_to_apply INTEGER NOT NULL DEFAULT 0,
  rows_applied INTEGER NOT NULL DEFAULT 0,
  validated_at TEXT,
  -- counts, final once validation ends (what the job will do; a dry run stops there)
  created INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL DEFAULT 0,
  unchanged INTEGER NOT NULL DEFAULT 0,
  withdrawn INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  cancel_requested INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX catalog_imports_created ON catalog_imports(created_at, id);

-- The files of a job (one for ndjson and csv; device.txt and its companions for gudid), uploaded to R2 in one request
-- or in multipart parts. `upload_id` is R2's multipart upload under way; its parts are rows below (R2 cannot list
-- them), so an interrupted upload resumes with the parts it lacks.
CREATE TABLE catalog_import_files (
  job_id TEXT NOT NULL REFERENCES catalog_imports(id),
  name TEXT NOT NULL,
  object_key TEXT NOT NULL,
  size INTEGER,
  gzip INTEGER NOT NULL DEFAULT 0,
  upload_id TEXT,
  uploaded_at TEXT,
  PRIMARY KEY (job_id, name)
) WITHOUT ROWID;

CREATE TABLE catalog_import_parts (
  job_id TEXT NOT NULL,
  name TEXT NOT NULL,
  part_number INTEGER NOT NULL,
  etag TEXT NOT NULL,
  size INTEGER NOT NULL,
  PRIMARY KEY (job_id, name, part_number)
) WITHOUT ROWID;

-- One row per product key of the file, written by validation, read by the apply pass and by replace (what the file
-- lacks). The first line with a key wins; a later one is rejected (duplicate_key). `action` is decided against the
-- catalog as validation found it; `record` (the normalized record as JSON) only for rows that create or update.
CREATE TABLE catalog_import_rows (
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'unchanged')),
  content_hash TEXT NOT NULL,
  record TEXT,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX catalog_import_rows_product ON catalog_import_rows(job_id, product_id);

-- The device identifiers the file's rows claim, so that two rows claiming one identifier are caught across ranges.
CREATE TABLE catalog_import_device_ids (
  job_id TEXT NOT NULL,
  agency TEXT NOT NULL,
  device_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  PRIMARY KEY (job_id, agency, device_id)
) WITHOUT ROWID;

-- GUDID companion files, staged by PrimaryDI before device.txt is read (identifiers, GMDN terms, product codes).
CREATE TABLE catalog_import_gudid (
  job_id TEXT NOT NULL,
  primary_di TEXT NOT NULL,
  kind TEXT NOT NULL,
  seq INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (job_id, primary_di, kind, seq)
) WITHOUT ROWID;

CREATE TABLE catalog_import_errors (
  job_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  file TEXT NOT NULL,
  product_key TEXT,
  field TEXT,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (job_id, file, line)
) WITHOUT ROWID;

-- What the operator follows: one event per finished import (GET /admin/api/events).
CREATE TABLE operator_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  data TEXT NOT NULL
);
