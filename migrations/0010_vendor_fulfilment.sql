-- Vendor fulfilment (order lifecycle, docs/api.md "Vendor API").

-- API clients belong to a buyer tenant or to a vendor, never both: tenant_id becomes nullable, so the table is
-- rebuilt (SQLite cannot drop NOT NULL in place). No table references api_clients. vendor_id has no foreign key:
-- vendors are catalog data, which may live in another database; create-client checks the vendor exists.
CREATE TABLE api_clients_new (
  id INTEGER PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  tenant_id INTEGER REFERENCES tenants(id),
  vendor_id INTEGER,
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  CHECK ((tenant_id IS NULL) <> (vendor_id IS NULL))
);
INSERT INTO api_clients_new (id, client_id, secret_hash, tenant_id, vendor_id, name, scopes, enabled, created_at)
  SELECT id, client_id, secret_hash, tenant_id, NULL, name, scopes, enabled, created_at FROM api_clients;
DROP TABLE api_clients;
ALTER TABLE api_clients_new RENAME TO api_clients;
CREATE INDEX api_clients_tenant ON api_clients(tenant_id);
CREATE INDEX api_clients_vendor ON api_clients(vendor_id);

-- Every change to an order bumps its version (1 at creation): the optimistic lock of concurrent changes, and the
-- per-order sequence of its events.
ALTER TABLE orders ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- Per line: how much has shipped (a line is Shipped once all of it has), what the vendor promised or expects, why it
-- was backordered or rejected, and when it was delivered.
ALTER TABLE order_lines ADD COLUMN shipped_quantity INTEGER NOT NULL DEFAULT 0 CHECK (shipped_quantity BETWEEN 0 AND quantity);
ALTER TABLE order_lines ADD COLUMN promised_ship_date TEXT;
ALTER TABLE order_lines ADD COLUMN expected_ship_date TEXT;
ALTER TABLE order_lines ADD COLUMN status_reason TEXT;
ALTER TABLE order_lines ADD COLUMN delivered_at TEXT;
-- A vendor's open lines, oldest first.
CREATE INDEX order_lines_vendor_status ON order_lines(vendor_id, status_name, id);

-- A shipment is a shipping document with a tracking number, made by the vendor that shipped it; the document made
-- with the order (vendor_id NULL, no tracking number) lists what is still to ship. One parcel (tracking number) of
-- a vendor on an order is one document; quantity is how much of the line is in it (NULL: what is left to ship).
ALTER TABLE shipping_documents ADD COLUMN vendor_id INTEGER;
CREATE UNIQUE INDEX shipping_documents_parcel ON shipping_documents(order_id, vendor_id, tracking_number)
  WHERE vendor_id IS NOT NULL;
ALTER TABLE shipping_document_lines ADD COLUMN quantity INTEGER CHECK (quantity > 0);

-- Events of an order are numbered 1, 2, 3... (the order's version after the change), so a consumer can see a gap.
ALTER TABLE outbox_events ADD COLUMN sequence INTEGER;
CREATE INDEX outbox_events_aggregate ON outbox_events(aggregate_id, sequence);
