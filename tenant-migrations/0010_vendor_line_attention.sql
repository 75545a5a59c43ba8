-- What of a line waits for its vendor besides its own state (docs/tenant-stores.md, "Vendors' lines"): a return whose
-- next step is the vendor's, an invoice billing it in exception. The vendor's view of the line counts both
-- (src/api/vendors/lines.ts), so a change of either publishes the line again, as a change of the line does.
CREATE TRIGGER vendor_line_return_added AFTER INSERT ON unit_returns WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT id, vendor_id FROM order_lines WHERE id = NEW.line_id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_return_moved AFTER UPDATE OF status ON unit_returns WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT id, vendor_id FROM order_lines WHERE id = NEW.line_id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_invoiced AFTER INSERT ON invoice_lines
WHEN NEW.order_line_id IS NOT NULL AND (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks SELECT id, vendor_id FROM order_lines WHERE id = NEW.order_line_id;
END;
--> statement-breakpoint
CREATE TRIGGER vendor_line_invoice_status AFTER UPDATE OF status ON invoices WHEN (SELECT publishing FROM vendor_projection) = 1
BEGIN
  INSERT OR IGNORE INTO vendor_line_marks
    SELECT l.id, l.vendor_id FROM invoice_lines il JOIN order_lines l ON l.id = il.order_line_id WHERE il.invoice_id = NEW.id;
END;
--> statement-breakpoint
-- Lines with a return or an invoice already: published again with the new counts.
INSERT OR IGNORE INTO vendor_line_marks
  SELECT l.id, l.vendor_id FROM order_lines l
  WHERE (SELECT publishing FROM vendor_projection) = 1
    AND (EXISTS (SELECT 1 FROM unit_returns r WHERE r.line_id = l.id) OR EXISTS (SELECT 1 FROM invoice_lines il WHERE il.order_line_id = l.id));
