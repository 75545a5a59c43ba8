-- The store's outbox of line changes for the vendors' projections (docs/tenant-stores.md, "Vendors' lines"). Once the
-- tenant is switched to its stores (`publishing` = 1, set by the switch), every write that changes what a vendor sees of
-- a line (the line, its order, its shipping documents, its ship-to address) records the line here with a new revision,
-- in the same transaction as the write; the store's alarm sends the changed lines to their vendors' projections and
-- marks them published. A sandbox twin's store never publishes: vendors see live orders only.
CREATE TABLE vendor_projection (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  publishing INTEGER NOT NULL DEFAULT 0 CHECK (publishing IN (0, 1)),
  revision INTEGER NOT NULL DEFAULT 0
);
--> statement-breakpoint
INSERT INTO vendor_projection (id) VALUES (1);
--> statement-breakpoint
-- One row per line ever published: its latest revision, the revision its vendor's projection was last sent, and when it
-- last changed (epoch milliseconds; the projection measures its lag from it).
CREATE TABLE vendor_line_changes (
  line_id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  published_revision INTEGER NOT NULL DEFAULT 0,
  changed_at INTEGER NOT NULL
);
--> statement-breakpoint
CREATE INDEX vendor_line_changes_unpublished ON vendor_line_changes(revision) WHERE revision > published_revision;
--> statement-breakpoint
CREATE INDEX vendor_line_changes_vendor ON vendor_line_changes(vendor_id, line_id);
--> statement-breakpoint
-- The triggers below mark a changed line here; marking gives it a new revision in vendor_line_changes, in one place.
-- Marks do not stay.
CREATE TABLE vendor_line_marks (
  line_id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER vendor_line_marked AFTER INSERT ON vendor_line_marks
BEGIN
  UPDATE vendor_projection SET revision = revision + 1;
  INSERT INTO vendor_line_changes (line_id, vendor_id, revision, changed_at)
  VALUES (NEW.line_id, NEW.vendor_id, (SELECT revision FROM vendor_projection), CAST(unixepoch('subsec') * 1000 AS INTEGER))
  ON CONFLICT (line_id) DO UPDATE SET revision = excluded.revision, changed_at = excluded.changed_at;
  DELETE FROM vendor_line_marks WHERE line_id = NEW.line_id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_inserted AFTER INSERT ON order_lines
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks VALUES (NEW.id, NEW.vendor_id);
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_updated AFTER UPDATE ON order_lines
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks VALUES (NEW.id, NEW.vendor_id);
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_deleted AFTER DELETE ON order_lines
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks VALUES (OLD.id, OLD.vendor_id);
END;
--> statement-breakpoint
-- Only the order's columns a vendor sees: its status changes with every line move, which marks the moved line already.
CREATE TRIGGER vendor_line_order_updated AFTER UPDATE OF order_number, created_at, shipping_method, shipping_address_id ON orders
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT id, vendor_id FROM order_lines WHERE order_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_parcel_added AFTER INSERT ON shipping_document_lines
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT id, vendor_id FROM order_lines WHERE id = NEW.line_id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_parcel_updated AFTER UPDATE ON shipping_document_lines
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT id, vendor_id FROM order_lines WHERE id = NEW.line_id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_document_updated AFTER UPDATE ON shipping_documents
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT l.id, l.vendor_id FROM shipping_document_lines d JOIN order_lines l ON l.id = d.line_id WHERE d.shipping_document_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_address_updated AFTER UPDATE OF attention_to, line1, city, state, zip, country ON addresses
WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT l.id, l.vendor_id FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.shipping_address_id = NEW.id;
END;
