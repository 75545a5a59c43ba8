-- The sandbox (issue 34; docs/api.md "Sandbox"): test-mode orders, events and webhooks belong to a tenant's sandbox
-- twin, the tenants row -T of tenant T (made with the tenant's first test-mode client; src/platform/test-mode.ts).
-- A test-mode order driven on demand (POST /customer/api/test-helpers/orders/{orderNumber}/simulate) leaves the
-- simulated vendor's default schedule: it is listed here.
CREATE TABLE sandbox_manual_orders (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id),
  at TEXT NOT NULL
);
