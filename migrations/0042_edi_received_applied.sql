-- An interchange received is applied (its sets sent to the vendor API) after it is recorded: until `applied_at` is set,
-- the same interchange received again (a partner's retry after a crash) is handed on again, and the housekeeping
-- applies it again from its file (`file_key` in the IMPORTS bucket, kept until then). Applying is idempotent
-- (docs/edi.md, "Applied once"). Interchanges recorded before are taken as applied.
ALTER TABLE edi_received_interchanges ADD COLUMN applied_at TEXT;
ALTER TABLE edi_received_interchanges ADD COLUMN file_key TEXT;
UPDATE edi_received_interchanges SET applied_at = received_at;
CREATE INDEX edi_received_unapplied ON edi_received_interchanges(received_at) WHERE applied_at IS NULL;
