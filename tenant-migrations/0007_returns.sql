-- Exchange cores, loaners, repairs and returns (docs/api.md, "Returns, cores, loaners and repairs"), as migrations/0032
-- makes them in the control database, column for column: each unit that goes back to its vendor (a core, a loaner, a
-- unit sent in for repair, a return of bought units) is a row of unit_returns, with ids from the store's range; an
-- order line keeps the purchase type and terms it was quoted on; an invoice Medparts writes for a late or refused
-- return says so in `origin`; the tenant says how many days before a due date it is warned.
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
--> statement-breakpoint
CREATE INDEX unit_returns_line ON unit_returns(line_id);
--> statement-breakpoint
CREATE UNIQUE INDEX unit_returns_request ON unit_returns(tenant_id, request_key) WHERE request_key IS NOT NULL;
--> statement-breakpoint
CREATE INDEX unit_returns_tenant ON unit_returns(tenant_id, id);
--> statement-breakpoint
CREATE INDEX unit_returns_due ON unit_returns(due_at) WHERE due_at IS NOT NULL AND status IN ('open', 'overdue');
--> statement-breakpoint
CREATE INDEX unit_returns_rma ON unit_returns(rma_number) WHERE rma_number IS NOT NULL;
--> statement-breakpoint
CREATE INDEX unit_returns_serial ON unit_returns(serial) WHERE serial IS NOT NULL;
--> statement-breakpoint
ALTER TABLE order_lines ADD COLUMN purchase_type TEXT NOT NULL DEFAULT 'buy';
--> statement-breakpoint
ALTER TABLE order_lines ADD COLUMN purchase_terms TEXT;
--> statement-breakpoint
ALTER TABLE order_lines ADD COLUMN repair TEXT;
--> statement-breakpoint
ALTER TABLE invoices ADD COLUMN origin TEXT;
--> statement-breakpoint
ALTER TABLE purchasing_settings ADD COLUMN due_soon_days INTEGER CHECK (due_soon_days BETWEEN 0 AND 60);
