-- Confirmations with changes, invoices and three-way match (docs/api.md, "Confirmations", "Invoices"): the tenant's
-- purchasing settings (auto-acceptance and match tolerances), each line's revisions (who changed what, when), the
-- invoices and credit memos vendors send, each line matched against the order line and what shipped. Invoice ids come
-- from the store's range (src/shared/tenants/id-ranges.ts), so an invoice id names its store as a line id does.
CREATE TABLE purchasing_settings (
  tenant_id INTEGER PRIMARY KEY,
  auto_accept_percent_bp INTEGER CHECK (auto_accept_percent_bp BETWEEN 0 AND 10000),
  auto_accept_amount_cents INTEGER CHECK (auto_accept_amount_cents >= 0),
  price_tolerance_percent_bp INTEGER CHECK (price_tolerance_percent_bp BETWEEN 0 AND 10000),
  price_tolerance_amount_cents INTEGER CHECK (price_tolerance_amount_cents >= 0),
  quantity_tolerance INTEGER NOT NULL DEFAULT 0 CHECK (quantity_tolerance >= 0),
  updated_at TEXT NOT NULL
);
--> statement-breakpoint
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
--> statement-breakpoint
CREATE INDEX order_line_revisions_order ON order_line_revisions(order_id);
--> statement-breakpoint
CREATE TABLE invoices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
--> statement-breakpoint
CREATE UNIQUE INDEX invoices_number ON invoices(tenant_id, vendor_id, kind, number);
--> statement-breakpoint
CREATE INDEX invoices_order ON invoices(order_id);
--> statement-breakpoint
CREATE INDEX invoices_tenant_created ON invoices(tenant_id, created_at);
--> statement-breakpoint
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
--> statement-breakpoint
CREATE INDEX invoice_lines_order_line ON invoice_lines(order_line_id) WHERE order_line_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE order_lines ADD COLUMN contract_price_cents INTEGER;
--> statement-breakpoint
ALTER TABLE order_lines ADD COLUMN confirmation_code TEXT;
--> statement-breakpoint
ALTER TABLE order_lines ADD COLUMN proposed_change TEXT;
