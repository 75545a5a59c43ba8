-- An import's upkeep (sort positions, full-text merge) now runs before the job ends, so that a finished import
-- searches as fast as a seeded catalog; upkeep_started_at marks that phase for the progress a person follows.
ALTER TABLE catalog_imports ADD COLUMN upkeep_started_at TEXT;
