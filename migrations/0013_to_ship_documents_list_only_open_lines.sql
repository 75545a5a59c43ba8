-- An order's to-ship document (no shipment yet) lists only lines with something left to ship: lines cancelled or
-- rejected before this fix stayed on it. Every order change keeps it so from now on (src/orders/changes.ts).
DELETE FROM shipping_document_lines
WHERE shipping_document_id IN (SELECT id FROM shipping_documents WHERE shipped_at IS NULL)
  AND line_id IN (SELECT id FROM order_lines WHERE status_name IN ('Shipped', 'Delivered', 'Cancelled', 'Rejected'));
DELETE FROM shipping_documents
WHERE shipped_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM shipping_document_lines WHERE shipping_document_id = shipping_documents.id);
