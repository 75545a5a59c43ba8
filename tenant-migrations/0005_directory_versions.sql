-- The version of each directory row this store last applied from the control database, the directory's one writer
-- (docs/tenant-stores.md, "The directory"): a push carrying an older version of a row is skipped, so pushes that
-- overlap never bring an older row back. Deleted rows keep their version too.
CREATE TABLE directory_versions (
  table_name TEXT NOT NULL,
  row_key TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (table_name, row_key)
);
