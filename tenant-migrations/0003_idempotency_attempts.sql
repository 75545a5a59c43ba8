-- The per-key lock of idempotent requests (spec 8) of a switched tenant, beside the results that commit with its
-- writes (idempotency_results): one store decides an attempt and keeps its result, so a retry after a crash finds the
-- committed result where the lock is, with no second object to ask (docs/tenant-stores.md, "Idempotency").
-- A row is an attempt under way (attempt_id set; it times out after 5 minutes) or a cached answer that did not commit
-- with writes (attempt_id NULL, response set; 24 hours). Rows past expires_at (epoch ms) are as good as gone.
CREATE TABLE idempotency_attempts (
  idempotency_key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  attempt_id TEXT,
  response TEXT,
  expires_at INTEGER NOT NULL
);
--> statement-breakpoint
CREATE INDEX idempotency_attempts_expiry ON idempotency_attempts(expires_at);
