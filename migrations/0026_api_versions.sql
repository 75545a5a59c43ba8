-- Dated API versions (docs/api.md, "Versions"): every API client is pinned to one. Clients that exist before versions
-- are pinned to 2026-11-25, the behaviour they see today; new clients are pinned to the latest when created.
ALTER TABLE api_clients ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-25';
