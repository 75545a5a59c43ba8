-- A catalog import whose files are byte for byte those of an earlier job whose result reading them again would repeat,
-- with the catalog unchanged since, takes that job's result instead of reading every row again
-- (src/operator/imports/same-file.ts; docs/decisions.md).

-- SHA-256 over the SHA-256 of each 16 MiB segment of a file's stored bytes, computed as they were uploaded
-- (src/operator/imports/uploads.ts); a part's own SHA-256 (each part is one segment). NULL for uploads before.
ALTER TABLE catalog_import_files ADD COLUMN digest TEXT;
-- the R2 object version the file's digest describes: a digest counts only while R2 holds that version
ALTER TABLE catalog_import_files ADD COLUMN object_version TEXT;
ALTER TABLE catalog_import_parts ADD COLUMN digest TEXT;
-- the job's files as one SHA-256 (format, names for gudid, sizes and digests), written when validation starts
ALTER TABLE catalog_imports ADD COLUMN files_fingerprint TEXT;
-- the catalog version when the job ended, for a catalog job that succeeded (not a dry run)
ALTER TABLE catalog_imports ADD COLUMN catalog_version_after TEXT;
-- the earlier job whose result this one took (its files were the same and the catalog had not changed since)
ALTER TABLE catalog_imports ADD COLUMN same_as TEXT;
-- 1 once a staged row would be validated again if the file were read again after the job (a row without its own id,
-- or one unchanged in content but not in source): such a job's result is never taken
ALTER TABLE catalog_imports ADD COLUMN rows_revalidated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX catalog_imports_fingerprint ON catalog_imports(files_fingerprint) WHERE files_fingerprint IS NOT NULL;
