-- Shipments (order lifecycle): a shipping document records the parcel once it has shipped: its tracking number and
-- when it shipped. Both stay NULL until then.
ALTER TABLE shipping_documents ADD COLUMN tracking_number TEXT;
ALTER TABLE shipping_documents ADD COLUMN shipped_at TEXT;
CREATE INDEX shipping_documents_tracking ON shipping_documents(tracking_number);
