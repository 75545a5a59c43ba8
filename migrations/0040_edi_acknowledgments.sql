-- The functional acknowledgment (997/999) of each document we send a partner (docs/edi.md, "Acknowledgments of our
-- 850s"): an outbound interchange is sent when it is put in the partner's outbox (sent_at; the R2 outbox holds the
-- document itself, never this database), due to be acknowledged a partner's window later (due_at), acknowledged by the
-- AK9 of the 997/999 naming its group (status and when), and alerted to the operator once when it was not in time.
-- Interchanges that answer a partner (our TA1s, 997s and 999s) are never sent in this sense: their sent_at stays NULL.
ALTER TABLE edi_interchanges ADD COLUMN sent_at TEXT;
ALTER TABLE edi_interchanges ADD COLUMN due_at TEXT;
ALTER TABLE edi_interchanges ADD COLUMN acknowledgment_status TEXT
  CHECK (acknowledgment_status IN ('accepted', 'accepted-with-errors', 'rejected', 'partially-accepted'));
ALTER TABLE edi_interchanges ADD COLUMN acknowledged_at TEXT;
ALTER TABLE edi_interchanges ADD COLUMN alerted_at TEXT;

-- A 997/999 names the group it acknowledges by its GS06 (AK102): unique per partner, as the counters give it.
CREATE INDEX edi_interchanges_group ON edi_interchanges(partner_id, group_control) WHERE group_control IS NOT NULL;
-- What the alert sweep reads: sent, not acknowledged, not alerted, by when it was due.
CREATE INDEX edi_interchanges_unacknowledged ON edi_interchanges(due_at)
  WHERE sent_at IS NOT NULL AND acknowledgment_status IS NULL AND alerted_at IS NULL;
