-- SCIM 2.0 provisioning (issue 32; docs/api.md "SCIM"): each buyer tenant's identity provider (Entra ID, Okta) creates,
-- changes, deactivates and deletes its users, and manages groups that grant facility access, through /scim/v2 with a
-- tenant SCIM token that the operator issues.

-- A user name is unique within its tenant only (case-insensitively): tenant B's identity provider may not learn, from a
-- refusal, that tenant A has a user of that name. login_user_id (globally unique since 0001; users is referenced by
-- orders, so its UNIQUE constraint cannot be dropped) keeps a unique internal key; user_name is the name.
ALTER TABLE users ADD COLUMN user_name TEXT NOT NULL COLLATE NOCASE DEFAULT '';
UPDATE users SET user_name = login_user_id;
-- Deactivated users (active = 0) may not be requesters nor order; deleted users (deleted_at) are gone from every API but
-- stay for the orders and quotes that name them, and their user name is free again.
ALTER TABLE users ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN deleted_at TEXT;
ALTER TABLE users ADD COLUMN external_id TEXT;
ALTER TABLE users ADD COLUMN updated_at TEXT;
ALTER TABLE users ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- The SCIM representation as the identity provider last sent it (attributes Medparts has no column for included).
ALTER TABLE users ADD COLUMN scim TEXT;
CREATE UNIQUE INDEX users_tenant_user_name ON users(tenant_id, user_name) WHERE deleted_at IS NULL;
-- User search sorts and filters by user name (migrations/0005 indexed login_user_id for it).
DROP INDEX users_tenant_login;
CREATE INDEX users_tenant_user_name_order ON users(tenant_id, user_name);

-- A tenant's SCIM bearer tokens (several, for rotation): only a SHA-256 of each is kept (they are 256 random bits).
CREATE TABLE scim_tokens (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  token_hash TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX scim_tokens_tenant ON scim_tokens(tenant_id, id);

-- Groups as the identity provider sends them. A group grants its members the tenant's facility it names
-- (facility_id, resolved from display_name when either changes: the facility's externalId, then its GLN, then its name).
CREATE TABLE scim_groups (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  display_name TEXT NOT NULL COLLATE NOCASE,
  external_id TEXT,
  facility_id INTEGER REFERENCES facilities(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX scim_groups_tenant_name ON scim_groups(tenant_id, display_name);
CREATE INDEX scim_groups_facility ON scim_groups(facility_id);

CREATE TABLE scim_group_members (
  group_id INTEGER NOT NULL REFERENCES scim_groups(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX scim_group_members_user ON scim_group_members(user_id, group_id);

-- Facility access and company membership: what the operator (or the seed) granted directly, and what groups grant.
CREATE VIEW facility_grants AS
  SELECT user_id, facility_id FROM user_facilities
  UNION ALL
  SELECT m.user_id, g.facility_id FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id WHERE g.facility_id IS NOT NULL;
CREATE VIEW company_grants AS
  SELECT user_id, company_id FROM user_companies
  UNION ALL
  SELECT m.user_id, f.company_id FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
    JOIN facilities f ON f.id = g.facility_id AND f.disabled_at IS NULL;

-- Disabling (POST /admin/api/{tenants,vendors,facilities}/{id}/disable): a disabled tenant's and vendor's clients and
-- SCIM tokens are refused, a disabled vendor's offers are not quoted, nobody orders for a disabled facility.
ALTER TABLE tenants ADD COLUMN disabled_at TEXT;
ALTER TABLE vendors ADD COLUMN disabled_at TEXT;
ALTER TABLE facilities ADD COLUMN disabled_at TEXT;
