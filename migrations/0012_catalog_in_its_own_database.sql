-- The catalog (products, manufacturers, categories, the full-text index and facet counters) moves to its own D1
-- database, binding CATALOG, schema in catalog-migrations/ (docs/architecture.md, "Two databases"): catalog searches
-- then never queue behind orders, and each database stays far under D1's 10 GB.
--
-- Existing deployments copy the catalog first (docs/architecture.md gives the commands); this migration then drops
-- it here. Vendors and their offers stay: quotes and order lines are written with them. Rows that referred to a
-- product keep its id, with no foreign key across databases, so vendor_offers, quotes, order_lines and (referring to
-- order_lines) shipping_document_lines are rebuilt without it. Each new table refers to the *new* tables, and the old
-- ones are dropped children first, so no deferred foreign-key violation is left at commit; the renames then point
-- every reference at the final names.
PRAGMA defer_foreign_keys = on;

CREATE TABLE vendor_offers_new (
  id INTEGER PRIMARY KEY,
  product_id TEXT NOT NULL,
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  condition TEXT NOT NULL,
  purchase_choice TEXT NOT NULL,
  warranty TEXT NOT NULL,
  price_cents INTEGER NOT NULL CHECK (price_cents > 0),
  lead_time_days INTEGER NOT NULL,
  -- JSON array of custom field definitions (spec 2.7)
  custom_fields TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO vendor_offers_new (id, product_id, vendor_id, condition, purchase_choice, warranty, price_cents, lead_time_days, custom_fields)
  SELECT id, product_id, vendor_id, condition, purchase_choice, warranty, price_cents, lead_time_days, custom_fields FROM vendor_offers;

CREATE TABLE quotes_new (
  id TEXT PRIMARY KEY,                      -- priceOptionId: opaque, unguessable
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  requester_contact_id INTEGER NOT NULL,
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  product_id TEXT NOT NULL,
  offer_id INTEGER NOT NULL REFERENCES vendor_offers_new(id),
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  price_cents INTEGER NOT NULL,
  condition TEXT NOT NULL,
  warranty TEXT NOT NULL,
  purchase_choice TEXT NOT NULL,
  lead_time_days INTEGER NOT NULL,
  return_policy TEXT NOT NULL,
  custom_fields TEXT NOT NULL,              -- JSON array, spec 2.7
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,                 -- ISO 8601; enforced on every order
  used_by_order_id INTEGER                  -- set when an order consumed the quote
);
INSERT INTO quotes_new (id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition,
  warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at, used_by_order_id)
  SELECT id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition,
  warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at, used_by_order_id FROM quotes;

CREATE TABLE order_lines_new (
  id INTEGER PRIMARY KEY,                   -- lineId
  order_id INTEGER NOT NULL REFERENCES orders(id),
  line_number INTEGER NOT NULL,
  quote_id TEXT NOT NULL REFERENCES quotes_new(id),
  product_id TEXT NOT NULL,
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  part_number TEXT NOT NULL,
  requested_part_number TEXT NOT NULL,
  replacement_part_number TEXT,
  po_number TEXT,
  description TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  price_cents INTEGER NOT NULL,
  extended_price_cents INTEGER NOT NULL,
  status_name TEXT NOT NULL,
  required_fields TEXT NOT NULL DEFAULT '[]', -- JSON array of {fieldId, value}
  shipped_quantity INTEGER NOT NULL DEFAULT 0 CHECK (shipped_quantity BETWEEN 0 AND quantity),
  promised_ship_date TEXT,
  expected_ship_date TEXT,
  status_reason TEXT,
  delivered_at TEXT,
  UNIQUE (order_id, line_number)
);
INSERT INTO order_lines_new (id, order_id, line_number, quote_id, product_id, vendor_id, part_number, requested_part_number,
  replacement_part_number, po_number, description, quantity, price_cents, extended_price_cents, status_name, required_fields,
  shipped_quantity, promised_ship_date, expected_ship_date, status_reason, delivered_at)
  SELECT id, order_id, line_number, quote_id, product_id, vendor_id, part_number, requested_part_number,
  replacement_part_number, po_number, description, quantity, price_cents, extended_price_cents, status_name, required_fields,
  shipped_quantity, promised_ship_date, expected_ship_date, status_reason, delivered_at FROM order_lines;

CREATE TABLE shipping_document_lines_new (
  shipping_document_id INTEGER NOT NULL REFERENCES shipping_documents(id),
  line_id INTEGER NOT NULL REFERENCES order_lines_new(id),
  quantity INTEGER CHECK (quantity > 0),
  PRIMARY KEY (shipping_document_id, line_id)
) WITHOUT ROWID;
INSERT INTO shipping_document_lines_new (shipping_document_id, line_id, quantity)
  SELECT shipping_document_id, line_id, quantity FROM shipping_document_lines;

DROP TABLE shipping_document_lines;
DROP TABLE order_lines;
DROP TABLE quotes;
DROP TABLE vendor_offers;

ALTER TABLE vendor_offers_new RENAME TO vendor_offers;
ALTER TABLE quotes_new RENAME TO quotes;
ALTER TABLE order_lines_new RENAME TO order_lines;
ALTER TABLE shipping_document_lines_new RENAME TO shipping_document_lines;

CREATE INDEX vendor_offers_product ON vendor_offers(product_id);
CREATE INDEX quotes_tenant ON quotes(tenant_id);
CREATE INDEX quotes_expires_at ON quotes(expires_at);
CREATE UNIQUE INDEX order_lines_quote ON order_lines(quote_id);
CREATE INDEX order_lines_part_number ON order_lines(part_number, order_id);
CREATE INDEX order_lines_vendor_status ON order_lines(vendor_id, status_name, id);

-- The catalog itself: triggers go with their tables.
DROP VIEW product_search_documents;
DROP TABLE products_fts;
DROP TABLE catalog_manufacturer_counts;
DROP TABLE catalog_category_counts;
DROP TABLE product_categories;
DROP TABLE products;
DROP TABLE manufacturers;
