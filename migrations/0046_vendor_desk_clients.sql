-- The vendor API client a vendor's order desk acts through (docs/desk.md, "Acting as the vendor"): created with the
-- vendor's first desk user, its secret never shown (only Medparts acts as it). The desk's users reach the vendor API
-- with short-lived tokens of this client, their scopes those of their role; disabling the client stops the desk.
CREATE TABLE vendor_desks (
  vendor_id INTEGER PRIMARY KEY REFERENCES vendors(id),
  client_id TEXT NOT NULL UNIQUE REFERENCES api_clients(client_id),
  created_at TEXT NOT NULL
);
