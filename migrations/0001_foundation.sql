-- Foundation schema: tenants, API clients, users and their organizations, the global catalog.
-- Money is stored in integer minor units (cents). Text columns searched case-insensitively use NOCASE
-- so that equality lookups can use their index.

CREATE TABLE tenants (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE api_clients (
  id INTEGER PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);
CREATE INDEX api_clients_tenant ON api_clients(tenant_id);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  contact_id INTEGER NOT NULL UNIQUE,
  login_user_id TEXT NOT NULL COLLATE NOCASE UNIQUE,
  first_name TEXT NOT NULL COLLATE NOCASE,
  last_name TEXT NOT NULL COLLATE NOCASE,
  email TEXT COLLATE NOCASE,
  created_at TEXT NOT NULL
);
CREATE INDEX users_tenant ON users(tenant_id, id);
CREATE INDEX users_email ON users(email);
CREATE INDEX users_last_name ON users(last_name);
CREATE INDEX users_first_name ON users(first_name);

CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL COLLATE NOCASE
);
CREATE INDEX companies_tenant ON companies(tenant_id);
CREATE INDEX companies_name ON companies(name);

CREATE TABLE user_companies (
  user_id INTEGER NOT NULL REFERENCES users(id),
  company_id INTEGER NOT NULL REFERENCES companies(id),
  PRIMARY KEY (user_id, company_id)
);
CREATE INDEX user_companies_company ON user_companies(company_id);

CREATE TABLE addresses (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  kind TEXT NOT NULL CHECK (kind IN ('shipping', 'billing')),
  attention_to TEXT,
  line1 TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  country TEXT NOT NULL DEFAULT 'US'
);
CREATE INDEX addresses_company ON addresses(company_id, kind);

CREATE TABLE facilities (
  id INTEGER PRIMARY KEY,
  company_id INTEGER NOT NULL REFERENCES companies(id),
  name TEXT NOT NULL
);
CREATE INDEX facilities_company ON facilities(company_id);

CREATE TABLE user_facilities (
  user_id INTEGER NOT NULL REFERENCES users(id),
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  PRIMARY KEY (user_id, facility_id)
);
CREATE INDEX user_facilities_facility ON user_facilities(facility_id);

CREATE TABLE manufacturers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE
);

CREATE TABLE vendors (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  return_policy TEXT NOT NULL
);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  part_number TEXT NOT NULL,
  display_part_number TEXT NOT NULL,
  -- upper-case letters and digits only, so "12-345 A", "12345a" and "12345A" compare equal
  normalized_part_number TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  manufacturer_id INTEGER NOT NULL REFERENCES manufacturers(id),
  -- JSON array of category names; product_categories holds the same for filtering
  categories TEXT NOT NULL
);
CREATE INDEX products_manufacturer ON products(manufacturer_id);
CREATE INDEX products_normalized_part_number ON products(normalized_part_number);
CREATE INDEX products_part_number ON products(part_number);

CREATE TABLE product_categories (
  category TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  PRIMARY KEY (category, product_id)
) WITHOUT ROWID;
CREATE INDEX product_categories_product ON product_categories(product_id);

-- A vendor's standing offer for a product; /catalog/detail turns each into a 30-day quote.
CREATE TABLE vendor_offers (
  id INTEGER PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES products(id),
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  condition TEXT NOT NULL,
  purchase_choice TEXT NOT NULL,
  warranty TEXT NOT NULL,
  price_cents INTEGER NOT NULL CHECK (price_cents > 0),
  lead_time_days INTEGER NOT NULL,
  -- JSON array of custom field definitions (spec 2.7)
  custom_fields TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX vendor_offers_product ON vendor_offers(product_id);
