-- Recalls (issue 70; docs/recalls.md): the FDA's device recalls, a vendor's own field safety notices, and the sandbox's
-- made-up ones. They are reference data like the catalog, read by every tenant store to match its own delivered units;
-- no tenant data is here. `owner` says whose a recall is: 'fda', 'vendor:<id>' or 'sandbox:<store tenant id>' (a
-- sandbox recall is offered to that sandbox store only). A recall is keyed by its product number within its owner
-- (the FDA's Z-NNNN-YYYY, a vendor's own notice number).
CREATE TABLE recalls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL,
  vendor_id INTEGER REFERENCES vendors(id),
  product_number TEXT NOT NULL,
  event_id TEXT,
  classification TEXT CHECK (classification IN ('Class I', 'Class II', 'Class III')),
  status TEXT NOT NULL CHECK (status IN ('open', 'completed', 'terminated')),
  firm TEXT,
  product_description TEXT,
  product_code TEXT,
  reason TEXT,
  code_info TEXT NOT NULL,
  initiated_on TEXT,
  classified_on TEXT,
  terminated_on TEXT,
  -- the code_info read into clauses (src/shared/recalls/code-info.ts Scope), and the catalog numbers beside it
  scope TEXT NOT NULL,
  -- what the record was last written from (a write of the same record changes nothing)
  record_hash TEXT NOT NULL,
  -- raised by every change: a tenant store matches the recalls changed since the revision it last read
  revision INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (owner, product_number)
);
CREATE INDEX recalls_revision ON recalls(revision);
CREATE INDEX recalls_vendor ON recalls(vendor_id, id) WHERE vendor_id IS NOT NULL;

-- What a recall names its devices by: a device identifier ('di:' and its key: a GTIN as 14 digits, a HIBCC code
-- without its '+') or a product number ('pn:' and the number in upper case). A store asks for the recalls that name
-- any of its units' keys.
CREATE TABLE recall_keys (
  key TEXT NOT NULL,
  recall_id INTEGER NOT NULL REFERENCES recalls(id),
  PRIMARY KEY (key, recall_id)
) WITHOUT ROWID;
CREATE INDEX recall_keys_recall ON recall_keys(recall_id);

-- How many of a vendor's delivered units each recall touches in each tenant store (affected, and to review), written
-- by the store after it matched (counts only: no unit, order or hospital name). A vendor reads the sums and the number
-- of live stores (hospitals) behind them (GET /vendor/api/recalls).
CREATE TABLE recall_exposure (
  recall_id INTEGER NOT NULL REFERENCES recalls(id),
  store_tenant_id INTEGER NOT NULL,
  vendor_id INTEGER NOT NULL,
  affected_units INTEGER NOT NULL,
  review_units INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (recall_id, store_tenant_id, vendor_id)
) WITHOUT ROWID;
CREATE INDEX recall_exposure_vendor ON recall_exposure(vendor_id, recall_id);
