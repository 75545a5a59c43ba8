-- A tenant store (src/shared/tenants/store.ts): one SQLite Durable Object per tenant and one per sandbox twin. It holds the
-- tenant's own data, which the control database (migrations/) held for every tenant until now. Tables keep the columns,
-- names and tenant_id of the control database's tables, so that a copy is row for row and one query serves both.
-- Keys to data that stays global (tenants, vendors, offers) are plain columns: no foreign key leaves the store.
-- New orders, lines, shipping documents, shipped units and webhook deliveries take ids from the store's own range
-- (src/shared/tenants/id-ranges.ts): their tables are AUTOINCREMENT, whose high-water mark in sqlite_sequence the store
-- raises to its range's floor when it starts (a plain INTEGER PRIMARY KEY would take max(id) + 1, whichever tenant's
-- copied id that is), so that an id names one row among every store's and the control database's.

-- The directory
CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL,
  name TEXT NOT NULL COLLATE NOCASE,
  external_id TEXT,
  created_at TEXT,
  disabled_at TEXT
);
--> statement-breakpoint
CREATE UNIQUE INDEX companies_external_id ON companies(external_id) WHERE external_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX companies_name ON companies(name);
--> statement-breakpoint
CREATE TABLE addresses (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  kind TEXT NOT NULL CHECK (kind IN ('shipping', 'billing')),
  attention_to TEXT,
  line1 TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  country TEXT NOT NULL DEFAULT 'US',
  external_id TEXT,
  created_at TEXT,
  disabled_at TEXT
);
--> statement-breakpoint
CREATE INDEX addresses_company ON addresses(company_id, kind);
--> statement-breakpoint
CREATE UNIQUE INDEX addresses_external_id ON addresses(external_id) WHERE external_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE facilities (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL,
  external_id TEXT,
  created_at TEXT,
  gln TEXT,
  disabled_at TEXT
);
--> statement-breakpoint
CREATE INDEX facilities_company ON facilities(company_id);
--> statement-breakpoint
CREATE UNIQUE INDEX facilities_external_id ON facilities(external_id) WHERE external_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL,
  contact_id INTEGER NOT NULL UNIQUE,
  login_user_id TEXT NOT NULL COLLATE NOCASE UNIQUE,
  first_name TEXT NOT NULL COLLATE NOCASE,
  last_name TEXT NOT NULL COLLATE NOCASE,
  email TEXT COLLATE NOCASE,
  created_at TEXT NOT NULL,
  user_name TEXT NOT NULL COLLATE NOCASE DEFAULT '',
  active INTEGER NOT NULL DEFAULT 1,
  deleted_at TEXT,
  external_id TEXT,
  updated_at TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  scim TEXT
);
--> statement-breakpoint
CREATE INDEX users_email ON users(email);
--> statement-breakpoint
CREATE INDEX users_first_name ON users(first_name);
--> statement-breakpoint
CREATE INDEX users_last_name ON users(last_name);
--> statement-breakpoint
CREATE UNIQUE INDEX users_user_name ON users(user_name) WHERE deleted_at IS NULL;
--> statement-breakpoint
CREATE INDEX users_user_name_order ON users(user_name);
--> statement-breakpoint
CREATE TABLE user_companies (
  user_id INTEGER NOT NULL REFERENCES users(id),
  company_id INTEGER NOT NULL REFERENCES companies(id),
  PRIMARY KEY (user_id, company_id)
);
--> statement-breakpoint
CREATE INDEX user_companies_company ON user_companies(company_id);
--> statement-breakpoint
CREATE TABLE user_facilities (
  user_id INTEGER NOT NULL REFERENCES users(id),
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  PRIMARY KEY (user_id, facility_id)
);
--> statement-breakpoint
CREATE INDEX user_facilities_facility ON user_facilities(facility_id);
--> statement-breakpoint
CREATE TABLE scim_groups (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL,
  display_name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  external_id TEXT,
  facility_id INTEGER REFERENCES facilities(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
--> statement-breakpoint
CREATE INDEX scim_groups_facility ON scim_groups(facility_id);
--> statement-breakpoint
CREATE TABLE scim_group_members (
  group_id INTEGER NOT NULL REFERENCES scim_groups(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
);
--> statement-breakpoint
CREATE INDEX scim_group_members_user ON scim_group_members(user_id, group_id);
--> statement-breakpoint
CREATE VIEW company_grants AS
  SELECT user_id, company_id FROM user_companies
  UNION ALL
  SELECT m.user_id, f.company_id FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
    JOIN facilities f ON f.id = g.facility_id AND f.disabled_at IS NULL;
--> statement-breakpoint
CREATE VIEW facility_grants AS
  SELECT user_id, facility_id FROM user_facilities
  UNION ALL
  SELECT m.user_id, g.facility_id FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
    WHERE g.facility_id IS NOT NULL;
--> statement-breakpoint

-- Orders: the quotes they consumed, their lines, shipments and units
CREATE TABLE quotes (
  id TEXT PRIMARY KEY,
  tenant_id INTEGER NOT NULL,
  requester_contact_id INTEGER NOT NULL,
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  product_id TEXT NOT NULL,
  offer_id INTEGER NOT NULL,
  vendor_id INTEGER NOT NULL,
  price_cents INTEGER NOT NULL,
  condition TEXT NOT NULL,
  warranty TEXT NOT NULL,
  purchase_choice TEXT NOT NULL,
  lead_time_days INTEGER NOT NULL,
  return_policy TEXT NOT NULL,
  custom_fields TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_by_order_id INTEGER
);
--> statement-breakpoint
CREATE INDEX quotes_expires_at ON quotes(expires_at);
--> statement-breakpoint
CREATE TABLE orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_number TEXT NOT NULL UNIQUE,
  tenant_id INTEGER NOT NULL,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  requester_contact_id INTEGER NOT NULL,
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
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
--> statement-breakpoint
CREATE INDEX orders_company ON orders(company_id);
--> statement-breakpoint
CREATE INDEX orders_created ON orders(created_at);
--> statement-breakpoint
CREATE INDEX orders_facility ON orders(facility_id);
--> statement-breakpoint
CREATE INDEX orders_payment_method ON orders(payment_method);
--> statement-breakpoint
CREATE INDEX orders_po ON orders(po_number);
--> statement-breakpoint
CREATE INDEX orders_requester ON orders(requester_contact_id);
--> statement-breakpoint
CREATE INDEX orders_requester_name ON orders(requester_name);
--> statement-breakpoint
CREATE INDEX orders_shipping_method ON orders(shipping_method);
--> statement-breakpoint
CREATE INDEX orders_status ON orders(status);
--> statement-breakpoint
CREATE INDEX orders_total ON orders(total_cents);
--> statement-breakpoint
CREATE INDEX orders_updated ON orders(updated_at);
--> statement-breakpoint
CREATE TABLE order_lines (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  line_number INTEGER NOT NULL,
  quote_id TEXT NOT NULL REFERENCES quotes(id),
  product_id TEXT NOT NULL,
  vendor_id INTEGER NOT NULL,
  part_number TEXT NOT NULL,
  requested_part_number TEXT NOT NULL,
  replacement_part_number TEXT,
  po_number TEXT,
  description TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  price_cents INTEGER NOT NULL,
  extended_price_cents INTEGER NOT NULL,
  status_name TEXT NOT NULL,
  required_fields TEXT NOT NULL DEFAULT '[]',
  shipped_quantity INTEGER NOT NULL DEFAULT 0 CHECK (shipped_quantity BETWEEN 0 AND quantity),
  promised_ship_date TEXT,
  expected_ship_date TEXT,
  status_reason TEXT,
  delivered_at TEXT,
  UNIQUE (order_id, line_number)
);
--> statement-breakpoint
CREATE INDEX order_lines_part_number ON order_lines(part_number, order_id);
--> statement-breakpoint
CREATE UNIQUE INDEX order_lines_quote ON order_lines(quote_id);
--> statement-breakpoint
CREATE INDEX order_lines_vendor_status ON order_lines(vendor_id, status_name, id);
--> statement-breakpoint
CREATE TABLE shipping_documents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  attention_to TEXT,
  address1 TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  country TEXT NOT NULL,
  carrier_name TEXT NOT NULL,
  service_level TEXT NOT NULL,
  tracking_number TEXT,
  shipped_at TEXT,
  vendor_id INTEGER
);
--> statement-breakpoint
CREATE INDEX shipping_documents_order ON shipping_documents(order_id);
--> statement-breakpoint
CREATE UNIQUE INDEX shipping_documents_parcel ON shipping_documents(order_id, vendor_id, tracking_number)
  WHERE vendor_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX shipping_documents_tracking ON shipping_documents(tracking_number);
--> statement-breakpoint
CREATE TABLE shipping_document_lines (
  shipping_document_id INTEGER NOT NULL REFERENCES shipping_documents(id),
  line_id INTEGER NOT NULL REFERENCES order_lines(id),
  quantity INTEGER CHECK (quantity > 0),
  PRIMARY KEY (shipping_document_id, line_id)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE shipped_units (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  line_id INTEGER NOT NULL REFERENCES order_lines(id),
  shipping_document_id INTEGER NOT NULL REFERENCES shipping_documents(id),
  agency TEXT NOT NULL CHECK (agency IN ('GS1', 'HIBCC', 'ICCBBA')),
  device_id TEXT NOT NULL,
  lot TEXT,
  serial TEXT,
  expiry TEXT,
  units INTEGER NOT NULL CHECK (units > 0)
);
--> statement-breakpoint
CREATE INDEX shipped_units_lot ON shipped_units(lot, order_id) WHERE lot IS NOT NULL;
--> statement-breakpoint
CREATE INDEX shipped_units_order ON shipped_units(order_id);
--> statement-breakpoint
CREATE INDEX shipped_units_serial ON shipped_units(serial, order_id) WHERE serial IS NOT NULL;
--> statement-breakpoint
CREATE TABLE sandbox_manual_orders (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id),
  at TEXT NOT NULL
);
--> statement-breakpoint

-- Events with their outbox, idempotency results, webhook endpoints and deliveries
CREATE TABLE outbox_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  tenant_id INTEGER NOT NULL,
  aggregate_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  sequence INTEGER,
  dispatched_at TEXT
);
--> statement-breakpoint
CREATE INDEX outbox_events_aggregate ON outbox_events(aggregate_id, sequence);
--> statement-breakpoint
CREATE INDEX outbox_events_created ON outbox_events(created_at);
--> statement-breakpoint
CREATE INDEX outbox_events_undispatched ON outbox_events(dispatched_at, created_at);
--> statement-breakpoint
CREATE TABLE idempotency_results (
  tenant_id INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, idempotency_key)
);
--> statement-breakpoint
CREATE INDEX idempotency_results_expiry ON idempotency_results(expires_at);
--> statement-breakpoint
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  tenant_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  event_types TEXT NOT NULL,
  secret_salt TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT,
  failing_since TEXT,
  created_at TEXT NOT NULL,
  api_version TEXT NOT NULL DEFAULT '2026-11-25'
);
--> statement-breakpoint
CREATE INDEX webhook_endpoints_created ON webhook_endpoints(created_at);
--> statement-breakpoint
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed', 'dead-lettered')),
  status_code INTEGER,
  error TEXT,
  latency_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
--> statement-breakpoint
CREATE TABLE webhook_deliveries_owed (
  event_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  due_at TEXT NOT NULL,
  held INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (event_id, endpoint_id)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX webhook_deliveries_owed_due ON webhook_deliveries_owed(due_at);
