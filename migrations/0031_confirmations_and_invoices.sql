-- Confirmations with changes, invoices and three-way match (docs/api.md, "Confirmations", "Invoices"), as
-- tenant-migrations/0006 makes them in the stores, column for column: the tenant's purchasing settings, each line's
-- revisions, invoices and credit memos with their lines. Their rows are tenant data: the read-only window of a move
-- (migrations/0028) covers them too.
CREATE TABLE purchasing_settings (
  tenant_id INTEGER PRIMARY KEY,
  auto_accept_percent_bp INTEGER CHECK (auto_accept_percent_bp BETWEEN 0 AND 10000),
  auto_accept_amount_cents INTEGER CHECK (auto_accept_amount_cents >= 0),
  price_tolerance_percent_bp INTEGER CHECK (price_tolerance_percent_bp BETWEEN 0 AND 10000),
  price_tolerance_amount_cents INTEGER CHECK (price_tolerance_amount_cents >= 0),
  quantity_tolerance INTEGER NOT NULL DEFAULT 0 CHECK (quantity_tolerance >= 0),
  updated_at TEXT NOT NULL
);
CREATE TABLE order_line_revisions (
  line_id INTEGER NOT NULL REFERENCES order_lines(id),
  revision INTEGER NOT NULL CHECK (revision > 0),
  order_id INTEGER NOT NULL REFERENCES orders(id),
  actor TEXT NOT NULL CHECK (actor IN ('vendor', 'buyer', 'system')),
  actor_id INTEGER,
  code TEXT NOT NULL,
  changes TEXT NOT NULL,
  note TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (line_id, revision)
);
CREATE INDEX order_line_revisions_order ON order_line_revisions(order_id);
CREATE TABLE invoices (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL,
  vendor_id INTEGER NOT NULL,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('invoice', 'credit_memo')),
  number TEXT NOT NULL,
  credited_invoice_id INTEGER REFERENCES invoices(id),
  invoice_date TEXT NOT NULL,
  currency TEXT NOT NULL,
  subtotal_cents INTEGER NOT NULL,
  tax_cents INTEGER NOT NULL,
  freight_cents INTEGER NOT NULL,
  total_cents INTEGER NOT NULL,
  status TEXT NOT NULL,
  status_reason TEXT,
  body_digest TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX invoices_number ON invoices(tenant_id, vendor_id, kind, number);
CREATE INDEX invoices_order ON invoices(order_id);
CREATE INDEX invoices_tenant_created ON invoices(tenant_id, created_at);
CREATE TABLE invoice_lines (
  invoice_id INTEGER NOT NULL REFERENCES invoices(id),
  line_number INTEGER NOT NULL CHECK (line_number > 0),
  order_line_id INTEGER,
  credited_line_number INTEGER,
  part_number TEXT,
  description TEXT,
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  unit_price_cents INTEGER NOT NULL,
  amount_cents INTEGER NOT NULL,
  tax_cents INTEGER NOT NULL,
  match_status TEXT,
  match_explanation TEXT,
  PRIMARY KEY (invoice_id, line_number)
);
CREATE INDEX invoice_lines_order_line ON invoice_lines(order_line_id) WHERE order_line_id IS NOT NULL;
ALTER TABLE order_lines ADD COLUMN contract_price_cents INTEGER;
ALTER TABLE order_lines ADD COLUMN confirmation_code TEXT;
ALTER TABLE order_lines ADD COLUMN proposed_change TEXT;

CREATE TRIGGER purchasing_settings_read_only_insert BEFORE INSERT ON purchasing_settings
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER purchasing_settings_read_only_update BEFORE UPDATE ON purchasing_settings
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER purchasing_settings_read_only_delete BEFORE DELETE ON purchasing_settings
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER order_line_revisions_read_only_insert BEFORE INSERT ON order_line_revisions
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER order_line_revisions_read_only_update BEFORE UPDATE ON order_line_revisions
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = NEW.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER order_line_revisions_read_only_delete BEFORE DELETE ON order_line_revisions
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM orders WHERE id = OLD.order_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER invoices_read_only_insert BEFORE INSERT ON invoices
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER invoices_read_only_update BEFORE UPDATE ON invoices
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER invoices_read_only_delete BEFORE DELETE ON invoices
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER invoice_lines_read_only_insert BEFORE INSERT ON invoice_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM invoices WHERE id = NEW.invoice_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER invoice_lines_read_only_update BEFORE UPDATE ON invoice_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM invoices WHERE id = NEW.invoice_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER invoice_lines_read_only_delete BEFORE DELETE ON invoice_lines
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM invoices WHERE id = OLD.invoice_id)) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;
