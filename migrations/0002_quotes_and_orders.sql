-- Quotes issued by /catalog/detail, and the orders built from them.

-- The durable record of every quote (price option). KV holds the same record for the order hot path;
-- this table is the fallback when KV misses and the authority on expiry.
CREATE TABLE quotes (
  id TEXT PRIMARY KEY,                      -- priceOptionId: opaque, unguessable
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  requester_contact_id INTEGER NOT NULL,
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  product_id TEXT NOT NULL REFERENCES products(id),
  offer_id INTEGER NOT NULL REFERENCES vendor_offers(id),
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
CREATE INDEX quotes_tenant ON quotes(tenant_id);
CREATE INDEX quotes_expires_at ON quotes(expires_at);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,                   -- orderId
  order_number TEXT NOT NULL UNIQUE,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  company_id INTEGER NOT NULL REFERENCES companies(id),
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  requester_contact_id INTEGER NOT NULL,    -- requesterId
  user_id INTEGER NOT NULL REFERENCES users(id),
  requester_name TEXT NOT NULL COLLATE NOCASE,
  po_number TEXT COLLATE NOCASE,
  payment_method TEXT NOT NULL,
  shipping_method TEXT NOT NULL,
  shipping_address_id INTEGER NOT NULL REFERENCES addresses(id),
  billing_address_id INTEGER NOT NULL REFERENCES addresses(id),
  notes TEXT,
  status TEXT NOT NULL,
  total_cents INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  created_at TEXT NOT NULL,                 -- orderDate
  updated_at TEXT NOT NULL                  -- lastUpdated
);
CREATE INDEX orders_tenant_id ON orders(tenant_id, id);
CREATE INDEX orders_tenant_created ON orders(tenant_id, created_at);
CREATE INDEX orders_tenant_updated ON orders(tenant_id, updated_at);
CREATE INDEX orders_tenant_company ON orders(tenant_id, company_id);
CREATE INDEX orders_tenant_requester ON orders(tenant_id, requester_contact_id);
CREATE INDEX orders_tenant_po ON orders(tenant_id, po_number);
CREATE INDEX orders_tenant_status ON orders(tenant_id, status);
CREATE INDEX orders_tenant_total ON orders(tenant_id, total_cents);

CREATE TABLE order_lines (
  id INTEGER PRIMARY KEY,                   -- lineId
  order_id INTEGER NOT NULL REFERENCES orders(id),
  line_number INTEGER NOT NULL,
  quote_id TEXT NOT NULL REFERENCES quotes(id),
  product_id TEXT NOT NULL REFERENCES products(id),
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
  UNIQUE (order_id, line_number)
);

CREATE TABLE shipping_documents (
  id INTEGER PRIMARY KEY,                   -- shippingDocId
  order_id INTEGER NOT NULL REFERENCES orders(id),
  attention_to TEXT,
  address1 TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  country TEXT NOT NULL,
  carrier_name TEXT NOT NULL,
  service_level TEXT NOT NULL
);
CREATE INDEX shipping_documents_order ON shipping_documents(order_id);

CREATE TABLE shipping_document_lines (
  shipping_document_id INTEGER NOT NULL REFERENCES shipping_documents(id),
  line_id INTEGER NOT NULL REFERENCES order_lines(id),
  PRIMARY KEY (shipping_document_id, line_id)
) WITHOUT ROWID;

-- Transactional outbox: events written in the same batch as the order, delivered later.
CREATE TABLE outbox_events (
  id TEXT PRIMARY KEY,                      -- eventId
  type TEXT NOT NULL,
  tenant_id INTEGER NOT NULL,
  aggregate_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL,
  delivered_at TEXT
);
CREATE INDEX outbox_events_undelivered ON outbox_events(delivered_at, created_at);
