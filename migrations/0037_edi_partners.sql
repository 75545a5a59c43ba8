-- X12 trading partners (docs/edi.md): how a vendor's ERP trades with Medparts in ASC X12, configured by the operator.
-- One row per partner and usage (ISA15: T test, P production): its interchanges' sender (ISA05/06) names it, our own
-- identity is what we put in ISA05/06 to it, the GS application ids the same, and the delimiters are those we send.
CREATE TABLE edi_partners (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  name TEXT NOT NULL,
  usage TEXT NOT NULL CHECK (usage IN ('T', 'P')),
  partner_qualifier TEXT NOT NULL,
  partner_id TEXT NOT NULL,
  our_qualifier TEXT NOT NULL,
  our_id TEXT NOT NULL,
  partner_application_id TEXT NOT NULL,
  our_application_id TEXT NOT NULL,
  version TEXT NOT NULL CHECK (version IN ('004010', '005010')),
  element_separator TEXT NOT NULL,
  component_separator TEXT NOT NULL,
  repetition_separator TEXT,
  segment_terminator TEXT NOT NULL,
  acknowledgment TEXT NOT NULL CHECK (acknowledgment IN ('997', '999')),
  -- The transaction sets exchanged, as a JSON array ("850", "860", "855", "856", "810", "832").
  documents TEXT NOT NULL,
  order_changes TEXT NOT NULL CHECK (order_changes IN ('860', 'cancel-850', 'none')),
  acknowledgment_window_minutes INTEGER NOT NULL,
  -- 'as2' (the settings in as2_settings, JSON) or 'mailbox' (HTTPS under /vendor/api/edi with the vendor's client).
  transport TEXT NOT NULL CHECK (transport IN ('as2', 'mailbox')),
  as2_settings TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- An inbound interchange's sender names one partner per usage.
CREATE UNIQUE INDEX edi_partners_sender ON edi_partners(usage, partner_qualifier, partner_id);
CREATE INDEX edi_partners_vendor ON edi_partners(vendor_id, id);
