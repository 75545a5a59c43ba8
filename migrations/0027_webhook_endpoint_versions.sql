-- Dated API versions (docs/api.md, "Versions"): a webhook endpoint receives events rendered at its own version, set
-- when it is created. Endpoints that exist before versions get 2026-11-25, what they received then.
ALTER TABLE webhook_endpoints ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-25';
