-- Exchange cores, loaners, repairs and returns (docs/api.md, "Returns, cores, loaners and repairs"), as
-- tenant-migrations/0007 makes them in the stores. Offers carry a purchase type and its terms (a revision's terms: a
-- quote promises them). Returns are tenant data: the read-only window of a move (migrations/0028) covers them too.
CREATE TABLE unit_returns (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id INTEGER NOT NULL,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  line_id INTEGER NOT NULL REFERENCES order_lines(id),
  vendor_id INTEGER NOT NULL,
  facility_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('core', 'loaner', 'repair', 'rma')),
  status TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  rma_number TEXT,
  reason TEXT,
  note TEXT,
  serial TEXT,
  due_at TEXT,
  return_to TEXT,
  charge_cents INTEGER CHECK (charge_cents >= 0),
  proposed_price_cents INTEGER CHECK (proposed_price_cents >= 0),
  billed_cents INTEGER CHECK (billed_cents >= 0),
  invoice_id INTEGER REFERENCES invoices(id),
  inbound TEXT,
  outbound TEXT,
  received_at TEXT,
  outcome TEXT,
  outcome_reason TEXT,
  due_soon_at TEXT,
  request_key TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX unit_returns_line ON unit_returns(line_id);
CREATE UNIQUE INDEX unit_returns_request ON unit_returns(tenant_id, request_key) WHERE request_key IS NOT NULL;
CREATE INDEX unit_returns_tenant ON unit_returns(tenant_id, id);
CREATE INDEX unit_returns_due ON unit_returns(due_at) WHERE due_at IS NOT NULL AND status IN ('open', 'overdue');
CREATE INDEX unit_returns_rma ON unit_returns(rma_number) WHERE rma_number IS NOT NULL;
CREATE INDEX unit_returns_serial ON unit_returns(serial) WHERE serial IS NOT NULL;
ALTER TABLE order_lines ADD COLUMN purchase_type TEXT NOT NULL DEFAULT 'buy';
ALTER TABLE order_lines ADD COLUMN purchase_terms TEXT;
ALTER TABLE order_lines ADD COLUMN repair TEXT;
ALTER TABLE invoices ADD COLUMN origin TEXT;
ALTER TABLE purchasing_settings ADD COLUMN due_soon_days INTEGER CHECK (due_soon_days BETWEEN 0 AND 60);
ALTER TABLE vendor_offers ADD COLUMN purchase_type TEXT NOT NULL DEFAULT 'buy' CHECK (purchase_type IN ('buy', 'exchange', 'loan', 'repair'));
ALTER TABLE vendor_offers ADD COLUMN purchase_terms TEXT;

CREATE TRIGGER unit_returns_read_only_insert BEFORE INSERT ON unit_returns
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER unit_returns_read_only_update BEFORE UPDATE ON unit_returns
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;

CREATE TRIGGER unit_returns_read_only_delete BEFORE DELETE ON unit_returns
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state IN ('copying', 'store'))
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store, or once it lives there: try again later'); END;
