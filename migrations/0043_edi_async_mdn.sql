-- An interchange of ours sent over AS2 to a partner whose MDNs come asynchronously (docs/as2.md, "Sending"): the
-- partner's HTTP 2xx took it, and its MDN, posted to POST /as2 later, takes it out of the outbox. Until then it is not
-- sent again, unless no MDN came within the wait (then it is sent again with the same Message-ID).
ALTER TABLE edi_interchanges ADD COLUMN mdn_awaited_at TEXT;
