-- Order events (docs/api.md "Events and webhooks"): the outbox is the tenant's event feed, and webhook deliveries go
-- out through Cloudflare Queues.

-- When the dispatcher handed the event to the delivery queue (null: not yet; the scheduled sweep retries those).
ALTER TABLE outbox_events ADD COLUMN dispatched_at TEXT;
CREATE INDEX outbox_events_undispatched ON outbox_events(dispatched_at, created_at);
-- The feed: a tenant's events oldest first, paged by rowid (insertion order).
CREATE INDEX outbox_events_tenant ON outbox_events(tenant_id);
CREATE INDEX outbox_events_created ON outbox_events(created_at);

CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,                      -- we_...
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  url TEXT NOT NULL,
  event_types TEXT NOT NULL,                -- JSON array of event types; ["*"] is every type
  -- The signing secret is HMAC-SHA256(WEBHOOK_SECRET_KEY, secret_salt): shown once at creation, never stored.
  secret_salt TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT,
  failing_since TEXT,                       -- the first failed delivery since the last success
  created_at TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints(tenant_id, created_at);

-- Every delivery attempt: what the endpoint answered and how long it took.
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed', 'dead-lettered')),
  status_code INTEGER,
  error TEXT,
  latency_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
