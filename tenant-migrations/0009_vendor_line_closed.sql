-- Whether a line is closed as its vendor's projection last received it (docs/tenant-stores.md, "Vendors' lines"): its
-- status is one no move leaves (Delivered, Cancelled, Rejected: CLOSED_LINE_STATUSES, src/api/orders/lifecycle.ts), or
-- the store no longer has it. A projection forgets a closed line VENDOR_LIST_RETENTION_DAYS after its last change
-- (changed_at), so the reconciliation sweep leaves the same lines out of the store's account
-- (src/api/vendors/projection/retention.ts). Each marking of a line sets it with the line's new revision.
ALTER TABLE vendor_line_changes ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));
--> statement-breakpoint
-- Lines marked before this migration: as they are now, which is what their latest revision published (a line changed
-- since has a newer revision still to publish, and its vendor is left alone by the sweep until it has).
UPDATE vendor_line_changes SET closed = NOT EXISTS (
  SELECT 1 FROM order_lines l WHERE l.id = vendor_line_changes.line_id AND l.status_name NOT IN ('Delivered', 'Cancelled', 'Rejected')
);
--> statement-breakpoint
DROP TRIGGER vendor_line_marked;
--> statement-breakpoint
-- As in 0002, with the line's closed state beside its revision.
CREATE TRIGGER vendor_line_marked AFTER INSERT ON vendor_line_marks
BEGIN
  UPDATE vendor_projection SET revision = revision + 1;
  INSERT INTO vendor_line_changes (line_id, vendor_id, revision, changed_at, closed)
  VALUES (
    NEW.line_id,
    NEW.vendor_id,
    (SELECT revision FROM vendor_projection),
    CAST(unixepoch('subsec') * 1000 AS INTEGER),
    NOT EXISTS (SELECT 1 FROM order_lines WHERE id = NEW.line_id AND status_name NOT IN ('Delivered', 'Cancelled', 'Rejected'))
  )
  ON CONFLICT (line_id) DO UPDATE SET revision = excluded.revision, changed_at = excluded.changed_at, closed = excluded.closed;
  DELETE FROM vendor_line_marks WHERE line_id = NEW.line_id;
END;
