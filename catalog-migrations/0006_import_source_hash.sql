-- The hash of the source a product was last imported from (its NDJSON line; a CSV row's fields with the header): a row
-- of a later import with the same source is unchanged without being validated again, which makes re-importing a file
-- cost a parse and a hash per row (docs/benchmarks.md, "Catalog import"). content_hash still decides for every row
-- whose source differs (the same product written differently is unchanged too).
ALTER TABLE products ADD COLUMN source_hash TEXT;
ALTER TABLE catalog_import_rows ADD COLUMN source_hash TEXT;

-- When a job's progress last moved (every step that commits writes it): a job validating or running whose progress
-- has not moved for a while is nudged when it is read (src/imports/sweep.ts).
ALTER TABLE catalog_imports ADD COLUMN progressed_at TEXT;
