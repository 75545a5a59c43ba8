-- Onboarding (issue 32; docs/api.md "Onboarding"): the operator creates buyer tenants (health systems) and vendors
-- through /admin/api, idempotently by its own id for them (`external_id`): creating one again with the same externalId
-- answers the one there. Rows made by the seed have none.
ALTER TABLE tenants ADD COLUMN external_id TEXT;
CREATE UNIQUE INDEX tenants_external_id ON tenants(external_id) WHERE external_id IS NOT NULL;
ALTER TABLE vendors ADD COLUMN external_id TEXT;
ALTER TABLE vendors ADD COLUMN created_at TEXT;
CREATE UNIQUE INDEX vendors_external_id ON vendors(external_id) WHERE external_id IS NOT NULL;
