-- Interchanges received from X12 partners (docs/edi.md, "Receiving"), by their duplicate key (sender, ISA13, ISA09):
-- one received twice is answered with what was answered the first time (`acknowledgment`, the TA1 and 997/999 we
-- sent: control numbers and codes, none of a tenant's data) and handed on once.
CREATE TABLE edi_received_interchanges (
  partner_id INTEGER NOT NULL REFERENCES edi_partners(id),
  duplicate_key TEXT NOT NULL,
  received_at TEXT NOT NULL,
  -- 0 when its envelope was rejected (a TA1 with status R), so nothing of it was handed on.
  accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
  acknowledgment TEXT,
  PRIMARY KEY (partner_id, duplicate_key)
) WITHOUT ROWID;
