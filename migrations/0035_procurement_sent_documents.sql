-- Each document sent back to a procurement suite, as it was first rendered (docs/api.md, "Procurement systems (cXML)"):
-- suites de-duplicate on payloadID, so a retry of a delivery (a lost 200, a resend by the sweep) sends these very bytes,
-- payloadID and timestamp included, never a document rendered again. Purged with the events they render.
CREATE TABLE procurement_sent_documents (
  connection_id INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  document TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (connection_id, event_id)
);

CREATE INDEX procurement_sent_documents_created ON procurement_sent_documents(created_at);
