-- Onboarding (issue 32; docs/api.md "Onboarding"): the operator creates a health system's companies, facilities (with
-- an optional GS1 GLN) and addresses through /admin/api, idempotently by its own `external_id`. Rows of the seed have none.
ALTER TABLE companies ADD COLUMN external_id TEXT;
ALTER TABLE companies ADD COLUMN created_at TEXT;
CREATE UNIQUE INDEX companies_external_id ON companies(external_id) WHERE external_id IS NOT NULL;
ALTER TABLE facilities ADD COLUMN external_id TEXT;
ALTER TABLE facilities ADD COLUMN created_at TEXT;
ALTER TABLE facilities ADD COLUMN gln TEXT;
CREATE UNIQUE INDEX facilities_external_id ON facilities(external_id) WHERE external_id IS NOT NULL;
ALTER TABLE addresses ADD COLUMN external_id TEXT;
ALTER TABLE addresses ADD COLUMN created_at TEXT;
CREATE UNIQUE INDEX addresses_external_id ON addresses(external_id) WHERE external_id IS NOT NULL;
