-- Recalls in the tenant's store (issue 70; docs/recalls.md, "Matching in the stores"): the store matches its own
-- delivered units against the recalls of the main database and keeps what touches it here. No unit leaves the store.
-- The revision of the main database's recalls this store has matched up to.
CREATE TABLE recall_progress (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  revision INTEGER NOT NULL
);
--> statement-breakpoint
INSERT INTO recall_progress (id, revision) VALUES (1, 0);
--> statement-breakpoint
-- A recall that touches at least one of the tenant's units (affected or to review), as the buyer reads it.
CREATE TABLE tenant_recalls (
  recall_id INTEGER PRIMARY KEY,
  source TEXT NOT NULL CHECK (source IN ('fda', 'vendor', 'sandbox')),
  vendor_id INTEGER,
  product_number TEXT NOT NULL,
  classification TEXT,
  status TEXT NOT NULL,
  firm TEXT,
  product_description TEXT,
  reason TEXT,
  code_info TEXT NOT NULL,
  initiated_on TEXT,
  classified_on TEXT,
  terminated_on TEXT,
  revision INTEGER NOT NULL,
  matched_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  acknowledged_at TEXT,
  acknowledged_by TEXT,
  affected_units INTEGER NOT NULL DEFAULT 0,
  review_units INTEGER NOT NULL DEFAULT 0
);
--> statement-breakpoint
CREATE INDEX tenant_recalls_updated ON tenant_recalls(updated_at, recall_id);
--> statement-breakpoint
-- A delivered unit a recall touches: its outcome and the clause that decided, and what the hospital found of it.
CREATE TABLE recall_units (
  recall_id INTEGER NOT NULL REFERENCES tenant_recalls(recall_id),
  unit_id INTEGER NOT NULL REFERENCES shipped_units(id),
  outcome TEXT NOT NULL CHECK (outcome IN ('affected', 'needs_review', 'cleared')),
  reason TEXT NOT NULL,
  disposition TEXT CHECK (disposition IN ('found', 'not_found', 'used')),
  disposition_at TEXT,
  disposition_by TEXT,
  return_id INTEGER,
  matched_at TEXT NOT NULL,
  PRIMARY KEY (recall_id, unit_id)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX recall_units_unit ON recall_units(unit_id);
--> statement-breakpoint
-- Recalls whose counts per vendor changed here and are still to publish to the main database (recall_exposure):
-- written with the match, cleared once published, so a failed publication is tried again by the next run.
CREATE TABLE recall_exposure_pending (
  recall_id INTEGER PRIMARY KEY
);
--> statement-breakpoint
-- The keys a unit is matched by (a recall names its devices by the same: main database recall_keys): its device
-- identifier ('di:' and the GTIN as 14 digits or the HIBCC code without '+') and its part number ('pn:', upper case).
CREATE TABLE recall_unit_keys (
  key TEXT NOT NULL,
  unit_id INTEGER NOT NULL REFERENCES shipped_units(id),
  PRIMARY KEY (key, unit_id)
) WITHOUT ROWID;
--> statement-breakpoint
-- Units shipped since the store last matched: the store's alarm gives each its keys and matches it against the open
-- recalls. The units shipped before recalls existed are checked once, as new ones.
CREATE TABLE recall_unit_checks (
  unit_id INTEGER PRIMARY KEY
);
--> statement-breakpoint
INSERT INTO recall_unit_checks (unit_id) SELECT id FROM shipped_units;
--> statement-breakpoint
CREATE TRIGGER shipped_units_recall_check AFTER INSERT ON shipped_units
BEGIN
  INSERT OR IGNORE INTO recall_unit_checks (unit_id) VALUES (NEW.id);
END;
