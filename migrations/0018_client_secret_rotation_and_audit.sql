-- Onboarding, first step (issue 32; docs/api.md "Onboarding"): API clients managed through /admin/api, secrets rotated
-- without downtime, every change audited.

-- Up to two live secrets per client: the current one, and the previous one until it expires (0 to 7 days after a
-- rotation). Each keeps when it was made and last used (updated at most hourly, after the answer).
ALTER TABLE api_clients ADD COLUMN secret_created_at TEXT;
ALTER TABLE api_clients ADD COLUMN secret_last_used_at TEXT;
ALTER TABLE api_clients ADD COLUMN previous_secret_hash TEXT;
ALTER TABLE api_clients ADD COLUMN previous_secret_created_at TEXT;
ALTER TABLE api_clients ADD COLUMN previous_secret_expires_at TEXT;
ALTER TABLE api_clients ADD COLUMN previous_secret_last_used_at TEXT;
-- When the operator was told the previous secret expires soon (an operator event; once per rotation).
ALTER TABLE api_clients ADD COLUMN previous_secret_warned_at TEXT;
UPDATE api_clients SET secret_created_at = created_at;

-- Who changed what, when, before and after (GET /admin/api/audit). `actor`: the client id that made the change.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  before TEXT,
  after TEXT
);
CREATE INDEX audit_log_at ON audit_log(at);
CREATE INDEX audit_log_target ON audit_log(target_type, target_id, id);

-- Operator clients that held every operator scope keep doing so: they may now manage API clients.
UPDATE api_clients SET scopes = scopes || ' clients:manage'
  WHERE operator = 1 AND (' ' || scopes || ' ') LIKE '% catalog:import %' AND (' ' || scopes || ' ') LIKE '% tiers:write %';
