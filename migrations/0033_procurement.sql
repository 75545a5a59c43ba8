-- Procurement connections (docs/api.md, "Procurement systems (cXML)"): how a tenant's procurement suite (Ariba, Coupa,
-- Oracle, Workday...) reaches Medparts over cXML. A connection stands on an API client of the tenant (its mode: a test
-- client's connection is the sandbox twin's): the cXML SharedSecret is that client's secret, hashed and rotated as any.
CREATE TABLE procurement_connections (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  client_id TEXT NOT NULL UNIQUE REFERENCES api_clients(client_id),
  name TEXT NOT NULL,
  -- Medparts' identity as the suite addresses it (the To credential); the buyer's are procurement_identities.
  supplier_domain TEXT NOT NULL,
  supplier_identity TEXT NOT NULL,
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  requester_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  ship_to_address_id INTEGER NOT NULL REFERENCES addresses(id),
  bill_to_address_id INTEGER NOT NULL REFERENCES addresses(id),
  shipping_method TEXT NOT NULL DEFAULT 'GROUND',
  payment_method TEXT NOT NULL DEFAULT 'PO',
  -- Where Medparts posts the documents it sends (confirmations, ship notices, invoices); NULL: none are sent.
  document_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX procurement_connections_tenant ON procurement_connections(tenant_id, id);

-- The buyer's From/Sender credentials that name a connection: one (domain, identity) names one connection per mode.
CREATE TABLE procurement_identities (
  connection_id INTEGER NOT NULL REFERENCES procurement_connections(id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  domain TEXT NOT NULL COLLATE NOCASE,
  identity TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (mode, domain, identity)
);
CREATE INDEX procurement_identities_connection ON procurement_identities(connection_id);

-- A ship-to addressID of the suite -> a Medparts shipping address of the tenant.
CREATE TABLE procurement_addresses (
  connection_id INTEGER NOT NULL REFERENCES procurement_connections(id),
  address_code TEXT NOT NULL,
  address_id INTEGER NOT NULL REFERENCES addresses(id),
  PRIMARY KEY (connection_id, address_code)
);

-- A PunchOut session (src/operator/procurement/shop): made by a PunchOutSetupRequest, opened once through its start code,
-- then carried by the browser's session cookie. Only hashes of the start code and of the cookie are kept; the access
-- token the shop calls the API with is kept AES-GCM-encrypted under a key derived from the cookie (sessions.ts).
CREATE TABLE punchout_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  connection_id INTEGER NOT NULL REFERENCES procurement_connections(id),
  operation TEXT NOT NULL CHECK (operation IN ('create', 'edit', 'inspect')),
  buyer_cookie TEXT NOT NULL,
  form_post_url TEXT NOT NULL,
  start_hash TEXT UNIQUE,
  start_expires_at TEXT NOT NULL,
  session_hash TEXT UNIQUE,
  token_ciphertext TEXT NOT NULL,
  cart TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX punchout_sessions_expiry ON punchout_sessions(expires_at);
