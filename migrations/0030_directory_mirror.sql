-- A switched tenant's directory (docs/tenant-stores.md, "The directory"): this database stays the one writer of every
-- tenant's directory (the operator plane's organizations and SCIM write it here, with their audit entries in the same
-- batch, and directory ids stay global), and the tenant's stores hold a copy. The read-only window now refuses
-- directory writes only while a tenant is copied ('copying'); once it lives in its stores ('store'), each write of its
-- directory is recorded in directory_changes, in the write's own transaction, and the operator plane pushes the
-- changed rows to the tenant's store and its twin's (src/operator/tenant-stores/directory-mirror.ts), then deletes
-- what it pushed.
CREATE TABLE directory_changes (
  tenant_id INTEGER NOT NULL,
  table_name TEXT NOT NULL,
  -- The row's primary key as a JSON array, in the order of the table's key columns.
  row_key TEXT NOT NULL,
  -- The write's place among every directory write recorded here (directory_sequence): a store keeps the version it
  -- applied per row and skips an older one, so pushes that overlap never bring an older row back; a push deletes a
  -- change only at the version it pushed.
  version INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, table_name, row_key)
);

CREATE INDEX directory_changes_by_version ON directory_changes(tenant_id, version);

CREATE TABLE directory_sequence (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);

INSERT INTO directory_sequence (id, version) VALUES (1, 0);

DROP TRIGGER companies_read_only_insert;

CREATE TRIGGER companies_read_only_insert BEFORE INSERT ON companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER companies_read_only_update;

CREATE TRIGGER companies_read_only_update BEFORE UPDATE ON companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER companies_read_only_delete;

CREATE TRIGGER companies_read_only_delete BEFORE DELETE ON companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER companies_directory_change_insert AFTER INSERT ON companies
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(NEW.tenant_id), 'companies', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER companies_directory_change_update AFTER UPDATE ON companies
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(OLD.tenant_id), 'companies', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(NEW.tenant_id), 'companies', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER companies_directory_change_delete AFTER DELETE ON companies
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(OLD.tenant_id), 'companies', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER addresses_read_only_insert;

CREATE TRIGGER addresses_read_only_insert BEFORE INSERT ON addresses
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER addresses_read_only_update;

CREATE TRIGGER addresses_read_only_update BEFORE UPDATE ON addresses
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER addresses_read_only_delete;

CREATE TRIGGER addresses_read_only_delete BEFORE DELETE ON addresses
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER addresses_directory_change_insert AFTER INSERT ON addresses
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)), 'addresses', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER addresses_directory_change_update AFTER UPDATE ON addresses
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)), 'addresses', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)), 'addresses', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER addresses_directory_change_delete AFTER DELETE ON addresses
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)), 'addresses', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER facilities_read_only_insert;

CREATE TRIGGER facilities_read_only_insert BEFORE INSERT ON facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER facilities_read_only_update;

CREATE TRIGGER facilities_read_only_update BEFORE UPDATE ON facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER facilities_read_only_delete;

CREATE TRIGGER facilities_read_only_delete BEFORE DELETE ON facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER facilities_directory_change_insert AFTER INSERT ON facilities
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)), 'facilities', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER facilities_directory_change_update AFTER UPDATE ON facilities
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)), 'facilities', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)), 'facilities', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = NEW.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER facilities_directory_change_delete AFTER DELETE ON facilities
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)), 'facilities', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM companies WHERE id = OLD.company_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER users_read_only_insert;

CREATE TRIGGER users_read_only_insert BEFORE INSERT ON users
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER users_read_only_update;

CREATE TRIGGER users_read_only_update BEFORE UPDATE ON users
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER users_read_only_delete;

CREATE TRIGGER users_read_only_delete BEFORE DELETE ON users
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER users_directory_change_insert AFTER INSERT ON users
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(NEW.tenant_id), 'users', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER users_directory_change_update AFTER UPDATE ON users
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(OLD.tenant_id), 'users', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(NEW.tenant_id), 'users', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER users_directory_change_delete AFTER DELETE ON users
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(OLD.tenant_id), 'users', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER user_companies_read_only_insert;

CREATE TRIGGER user_companies_read_only_insert BEFORE INSERT ON user_companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER user_companies_read_only_update;

CREATE TRIGGER user_companies_read_only_update BEFORE UPDATE ON user_companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER user_companies_read_only_delete;

CREATE TRIGGER user_companies_read_only_delete BEFORE DELETE ON user_companies
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER user_companies_directory_change_insert AFTER INSERT ON user_companies
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)), 'user_companies', json_array(NEW.user_id, NEW.company_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER user_companies_directory_change_update AFTER UPDATE ON user_companies
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)), 'user_companies', json_array(OLD.user_id, OLD.company_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)), 'user_companies', json_array(NEW.user_id, NEW.company_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER user_companies_directory_change_delete AFTER DELETE ON user_companies
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)), 'user_companies', json_array(OLD.user_id, OLD.company_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER user_facilities_read_only_insert;

CREATE TRIGGER user_facilities_read_only_insert BEFORE INSERT ON user_facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER user_facilities_read_only_update;

CREATE TRIGGER user_facilities_read_only_update BEFORE UPDATE ON user_facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER user_facilities_read_only_delete;

CREATE TRIGGER user_facilities_read_only_delete BEFORE DELETE ON user_facilities
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER user_facilities_directory_change_insert AFTER INSERT ON user_facilities
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)), 'user_facilities', json_array(NEW.user_id, NEW.facility_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER user_facilities_directory_change_update AFTER UPDATE ON user_facilities
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)), 'user_facilities', json_array(OLD.user_id, OLD.facility_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)), 'user_facilities', json_array(NEW.user_id, NEW.facility_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = NEW.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER user_facilities_directory_change_delete AFTER DELETE ON user_facilities
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)), 'user_facilities', json_array(OLD.user_id, OLD.facility_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM users WHERE id = OLD.user_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER scim_groups_read_only_insert;

CREATE TRIGGER scim_groups_read_only_insert BEFORE INSERT ON scim_groups
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER scim_groups_read_only_update;

CREATE TRIGGER scim_groups_read_only_update BEFORE UPDATE ON scim_groups
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER scim_groups_read_only_delete;

CREATE TRIGGER scim_groups_read_only_delete BEFORE DELETE ON scim_groups
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER scim_groups_directory_change_insert AFTER INSERT ON scim_groups
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(NEW.tenant_id), 'scim_groups', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER scim_groups_directory_change_update AFTER UPDATE ON scim_groups
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(OLD.tenant_id), 'scim_groups', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(NEW.tenant_id), 'scim_groups', json_array(NEW.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(NEW.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER scim_groups_directory_change_delete AFTER DELETE ON scim_groups
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs(OLD.tenant_id), 'scim_groups', json_array(OLD.id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs(OLD.tenant_id) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

DROP TRIGGER scim_group_members_read_only_insert;

CREATE TRIGGER scim_group_members_read_only_insert BEFORE INSERT ON scim_group_members
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER scim_group_members_read_only_update;

CREATE TRIGGER scim_group_members_read_only_update BEFORE UPDATE ON scim_group_members
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

DROP TRIGGER scim_group_members_read_only_delete;

CREATE TRIGGER scim_group_members_read_only_delete BEFORE DELETE ON scim_group_members
WHEN EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)) AND state = 'copying')
BEGIN SELECT RAISE(ABORT, 'tenant data is not written here while it moves to its store: try again later'); END;

CREATE TRIGGER scim_group_members_directory_change_insert AFTER INSERT ON scim_group_members
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)), 'scim_group_members', json_array(NEW.group_id, NEW.user_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER scim_group_members_directory_change_update AFTER UPDATE ON scim_group_members
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)), 'scim_group_members', json_array(OLD.group_id, OLD.user_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)), 'scim_group_members', json_array(NEW.group_id, NEW.user_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = NEW.group_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;

CREATE TRIGGER scim_group_members_directory_change_delete AFTER DELETE ON scim_group_members
BEGIN
  UPDATE directory_sequence SET version = version + 1 WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)) AND state = 'store');
  INSERT INTO directory_changes (tenant_id, table_name, row_key, version) SELECT abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)), 'scim_group_members', json_array(OLD.group_id, OLD.user_id), (SELECT version FROM directory_sequence) WHERE EXISTS (SELECT 1 FROM tenant_stores WHERE tenant_id = abs((SELECT tenant_id FROM scim_groups WHERE id = OLD.group_id)) AND state = 'store') ON CONFLICT (tenant_id, table_name, row_key) DO UPDATE SET version = excluded.version;
END;
