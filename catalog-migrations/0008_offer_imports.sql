-- Vendor price files through import jobs (issue 31; docs/api.md "Offers and contract prices", "Price files"). A job is
-- now of a kind: the operator's catalog import, or a vendor's offer import, owned by that vendor (vendor_id) and seen
-- by no one else. Both run on the same Workflow, uploads, progress and error report; an offer job stages its rows
-- below and writes them to the vendor's offers (main database) in chunks.
ALTER TABLE catalog_imports ADD COLUMN kind TEXT NOT NULL DEFAULT 'catalog' CHECK (kind IN ('catalog', 'offers'));
ALTER TABLE catalog_imports ADD COLUMN vendor_id INTEGER;
CREATE INDEX catalog_imports_vendor ON catalog_imports(vendor_id, created_at, id) WHERE vendor_id IS NOT NULL;

-- One row per SKU of an offer file, written by validation (the first line with a SKU wins). `record` is the offer to
-- write (its SKU, resolved product and fields) for rows that create or update; NULL for rows equal to the current offer.
CREATE TABLE offer_import_rows (
  job_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  sku TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('create', 'update', 'unchanged')),
  record TEXT,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX offer_import_rows_sku ON offer_import_rows(job_id, sku);
