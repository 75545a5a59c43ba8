-- Completed idempotent requests (spec section 8), written in the same D1 batch as what the request created, so the
-- answer is as durable as the order itself: a crash between the commit and the Durable Object's record can no longer
-- lose it. The Durable Object keeps serializing concurrent attempts of a key; D1 is the source of truth for results.
CREATE TABLE idempotency_results (
  tenant_id INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL,            -- lower-cased
  fingerprint TEXT NOT NULL,                -- SHA-256 of method, path and canonical JSON body
  response TEXT NOT NULL,                   -- JSON { status, headers, body } as first sent
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,                 -- created_at + 24 hours; purged by the scheduled handler
  PRIMARY KEY (tenant_id, idempotency_key)
);
CREATE INDEX idempotency_results_expiry ON idempotency_results(expires_at);
