-- Moving a deployment into tenant stores (docs/tenant-stores.md): the registry of where each tenant's data lives, and the
-- read-only window of a move. While a tenant's row says 'copying', or once it says 'store', every write of its rows in
-- this database fails (the triggers below, whichever code writes), with a message the API answers as 503 with
-- Retry-After: during the copy nothing may change under it, and after the switch the store is the only writer.
CREATE TABLE tenant_stores (
  tenant_id INTEGER PRIMARY KEY REFERENCES tenants(id),
  -- database: served from this database; copying: being copied, read-only; copied: its stores hold a verified copy;
  -- store: served from its stores, its rows here a frozen copy of the switch.
  state TEXT NOT NULL CHECK (state IN ('database', 'copying', 'copied', 'store')),
  -- The Workflow instance of the move under way or last made.
  move_id TEXT,
  started_at TEXT,
  finished_at TEXT,
  -- Progress of the move under way: the tenant's rows here when it began, and how many its stores hold so far.
  total_rows INTEGER,
  copied_rows INTEGER,
  -- JSON: per store and table, the rows and content digest read here before the copy and in the store after it.
  verification TEXT
);

CREATE TRIGGER companies_read_only_insert BEFORE INSERT ON companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER companies_read_only_update BEFORE UPDATE ON companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER companies_read_only_delete BEFORE DELETE ON companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER addresses_read_only_insert BEFORE INSERT ON addresses
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER addresses_read_only_update BEFORE UPDATE ON addresses
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER addresses_read_only_delete BEFORE DELETE ON addresses
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER facilities_read_only_insert BEFORE INSERT ON facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER facilities_read_only_update BEFORE UPDATE ON facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER facilities_read_only_delete BEFORE DELETE ON facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER users_read_only_insert BEFORE INSERT ON users
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER users_read_only_update BEFORE UPDATE ON users
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER users_read_only_delete BEFORE DELETE ON users
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER user_companies_read_only_insert BEFORE INSERT ON user_companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER user_companies_read_only_update BEFORE UPDATE ON user_companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER user_companies_read_only_delete BEFORE DELETE ON user_companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER user_facilities_read_only_insert BEFORE INSERT ON user_facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER user_facilities_read_only_update BEFORE UPDATE ON user_facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER user_facilities_read_only_delete BEFORE DELETE ON user_facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER scim_groups_read_only_insert BEFORE INSERT ON scim_groups
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER scim_groups_read_only_update BEFORE UPDATE ON scim_groups
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER scim_groups_read_only_delete BEFORE DELETE ON scim_groups
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER scim_group_members_read_only_insert BEFORE INSERT ON scim_group_members
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER scim_group_members_read_only_update BEFORE UPDATE ON scim_group_members
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER scim_group_members_read_only_delete BEFORE DELETE ON scim_group_members
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER quotes_read_only_insert BEFORE INSERT ON quotes
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER quotes_read_only_update BEFORE UPDATE ON quotes
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER quotes_read_only_delete BEFORE DELETE ON quotes
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER orders_read_only_insert BEFORE INSERT ON orders
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER orders_read_only_update BEFORE UPDATE ON orders
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER orders_read_only_delete BEFORE DELETE ON orders
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER order_lines_read_only_insert BEFORE INSERT ON order_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER order_lines_read_only_update BEFORE UPDATE ON order_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER order_lines_read_only_delete BEFORE DELETE ON order_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = OLD.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipping_documents_read_only_insert BEFORE INSERT ON shipping_documents
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipping_documents_read_only_update BEFORE UPDATE ON shipping_documents
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipping_documents_read_only_delete BEFORE DELETE ON shipping_documents
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = OLD.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipping_document_lines_read_only_insert BEFORE INSERT ON shipping_document_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT o.tenant_id FROM shipping_documents d JOIN orders o ON o.id = d.order_id WHERE d.id = NEW.shipping_document_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipping_document_lines_read_only_update BEFORE UPDATE ON shipping_document_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT o.tenant_id FROM shipping_documents d JOIN orders o ON o.id = d.order_id WHERE d.id = NEW.shipping_document_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipping_document_lines_read_only_delete BEFORE DELETE ON shipping_document_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT o.tenant_id FROM shipping_documents d JOIN orders o ON o.id = d.order_id WHERE d.id = OLD.shipping_document_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipped_units_read_only_insert BEFORE INSERT ON shipped_units
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipped_units_read_only_update BEFORE UPDATE ON shipped_units
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER shipped_units_read_only_delete BEFORE DELETE ON shipped_units
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = OLD.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER sandbox_manual_orders_read_only_insert BEFORE INSERT ON sandbox_manual_orders
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER sandbox_manual_orders_read_only_update BEFORE UPDATE ON sandbox_manual_orders
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER sandbox_manual_orders_read_only_delete BEFORE DELETE ON sandbox_manual_orders
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = OLD.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER outbox_events_read_only_insert BEFORE INSERT ON outbox_events
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER outbox_events_read_only_update BEFORE UPDATE ON outbox_events
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER outbox_events_read_only_delete BEFORE DELETE ON outbox_events
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER idempotency_results_read_only_insert BEFORE INSERT ON idempotency_results
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER idempotency_results_read_only_update BEFORE UPDATE ON idempotency_results
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER idempotency_results_read_only_delete BEFORE DELETE ON idempotency_results
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_endpoints_read_only_insert BEFORE INSERT ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_endpoints_read_only_update BEFORE UPDATE ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_endpoints_read_only_delete BEFORE DELETE ON webhook_endpoints
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_deliveries_read_only_insert BEFORE INSERT ON webhook_deliveries
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM webhook_endpoints WHERE id = NEW.endpoint_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_deliveries_read_only_update BEFORE UPDATE ON webhook_deliveries
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM webhook_endpoints WHERE id = NEW.endpoint_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_deliveries_read_only_delete BEFORE DELETE ON webhook_deliveries
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM webhook_endpoints WHERE id = OLD.endpoint_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_deliveries_owed_read_only_insert BEFORE INSERT ON webhook_deliveries_owed
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM webhook_endpoints WHERE id = NEW.endpoint_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_deliveries_owed_read_only_update BEFORE UPDATE ON webhook_deliveries_owed
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM webhook_endpoints WHERE id = NEW.endpoint_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER webhook_deliveries_owed_read_only_delete BEFORE DELETE ON webhook_deliveries_owed
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM webhook_endpoints WHERE id = OLD.endpoint_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;
