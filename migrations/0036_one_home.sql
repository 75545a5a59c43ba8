-- One home for a tenant's data (docs/tenant-stores.md): every tenant and its sandbox twin live in their stores from
-- the moment they exist, so this database holds the control plane only (tenants, vendors, the directory's master copy,
-- API clients, secrets, audit, offers and agreements, procurement connections, the registry of stores). Medparts was
-- never deployed with tenant data here, so nothing is copied: the tenant tables go, children first, and their
-- read-only triggers with them. The read-only window of a move goes too: no tenant moves any more, so a directory
-- write is never refused here; it is recorded and pushed to the tenant's stores (migrations/0030).
PRAGMA defer_foreign_keys = on;

DROP TABLE webhook_deliveries_owed;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
DROP TABLE idempotency_results;
DROP TABLE outbox_events;
DROP TABLE unit_returns;
DROP TABLE invoice_lines;
DROP TABLE invoices;
DROP TABLE order_line_revisions;
DROP TABLE sandbox_manual_orders;
DROP TABLE shipped_units;
DROP TABLE shipping_document_lines;
DROP TABLE shipping_documents;
DROP TABLE order_lines;
DROP TABLE orders;
DROP TABLE quotes;
DROP TABLE purchasing_settings;
DROP TABLE write_preconditions;

DROP TRIGGER companies_read_only_insert;
DROP TRIGGER companies_read_only_update;
DROP TRIGGER companies_read_only_delete;
DROP TRIGGER addresses_read_only_insert;
DROP TRIGGER addresses_read_only_update;
DROP TRIGGER addresses_read_only_delete;
DROP TRIGGER facilities_read_only_insert;
DROP TRIGGER facilities_read_only_update;
DROP TRIGGER facilities_read_only_delete;
DROP TRIGGER users_read_only_insert;
DROP TRIGGER users_read_only_update;
DROP TRIGGER users_read_only_delete;
DROP TRIGGER user_companies_read_only_insert;
DROP TRIGGER user_companies_read_only_update;
DROP TRIGGER user_companies_read_only_delete;
DROP TRIGGER user_facilities_read_only_insert;
DROP TRIGGER user_facilities_read_only_update;
DROP TRIGGER user_facilities_read_only_delete;
DROP TRIGGER scim_groups_read_only_insert;
DROP TRIGGER scim_groups_read_only_update;
DROP TRIGGER scim_groups_read_only_delete;
DROP TRIGGER scim_group_members_read_only_insert;
DROP TRIGGER scim_group_members_read_only_update;
DROP TRIGGER scim_group_members_read_only_delete;
