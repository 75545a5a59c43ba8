-- API clients of a third kind: the operator (the marketplace itself, /admin/api), beside buyer tenants' and vendors'.
-- Exactly one owner per client: a tenant, a vendor, or the operator. SQLite cannot change a CHECK in place, so the
-- table is rebuilt (no table references api_clients).
CREATE TABLE api_clients_new (
  id INTEGER PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  tenant_id INTEGER REFERENCES tenants(id),
  vendor_id INTEGER,
  operator INTEGER NOT NULL DEFAULT 0 CHECK (operator IN (0, 1)),
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  CHECK ((tenant_id IS NOT NULL) + (vendor_id IS NOT NULL) + operator = 1)
);
INSERT INTO api_clients_new (id, client_id, secret_hash, tenant_id, vendor_id, operator, name, scopes, enabled, created_at)
  SELECT id, client_id, secret_hash, tenant_id, vendor_id, 0, name, scopes, enabled, created_at FROM api_clients;
DROP TABLE api_clients;
ALTER TABLE api_clients_new RENAME TO api_clients;
CREATE INDEX api_clients_tenant ON api_clients(tenant_id);
CREATE INDEX api_clients_vendor ON api_clients(vendor_id);
