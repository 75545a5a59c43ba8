-- X12 control numbers per trading partner (docs/edi.md, "Control numbers"): the last interchange (ISA13), group (GS06)
-- and transaction set (ST02) number given to the partner, and each interchange that took them, named by the outbound
-- document it carries (an opaque reference, e.g. the event it renders). A reservation writes both in one transaction,
-- so a number is taken only with its interchange (no gap), never twice (no reuse), and the same reference gets the same
-- numbers again (a retry after a crash sends what the first attempt would have).
CREATE TABLE edi_control_numbers (
  partner_id INTEGER NOT NULL REFERENCES edi_partners(id),
  kind TEXT NOT NULL CHECK (kind IN ('interchange', 'group', 'set')),
  last INTEGER NOT NULL,
  PRIMARY KEY (partner_id, kind)
) WITHOUT ROWID;

CREATE TABLE edi_interchanges (
  partner_id INTEGER NOT NULL REFERENCES edi_partners(id),
  reference TEXT NOT NULL,
  interchange_control INTEGER NOT NULL CHECK (interchange_control BETWEEN 1 AND 999999999),
  -- No group (and no set) for an interchange that carries only a TA1.
  group_control INTEGER CHECK (group_control BETWEEN 1 AND 999999999),
  first_set_control INTEGER,
  sets INTEGER NOT NULL CHECK (sets >= 0),
  reserved_at TEXT NOT NULL,
  -- ISA13 and GS06 are at most nine digits, ST02 as well: a partner that used them all is refused, never wrapped around.
  CHECK ((sets = 0) = (group_control IS NULL) AND (sets = 0) = (first_set_control IS NULL)),
  CHECK (sets = 0 OR (first_set_control >= 1 AND first_set_control + sets - 1 <= 999999999)),
  PRIMARY KEY (partner_id, reference),
  UNIQUE (partner_id, interchange_control)
) WITHOUT ROWID;
