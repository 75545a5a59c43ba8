-- An X12 trading partner acts through a vendor client of its own (docs/edi.md, "Acting as the vendor"): created with the
-- partner, its secret never shown, so that what the partner's documents do goes through the vendor API as that client
-- (its scopes, its rate limit, its status: disabling it stops the partner). Partners made before have none until replaced.
ALTER TABLE edi_partners ADD COLUMN client_id TEXT REFERENCES api_clients(client_id);
CREATE UNIQUE INDEX edi_partners_client ON edi_partners(client_id) WHERE client_id IS NOT NULL;
