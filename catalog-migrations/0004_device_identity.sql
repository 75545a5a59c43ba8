-- Device identity (issue 30): a product's status, and the device identifiers (UDI device identifiers) that name it,
-- each with its issuing agency and packaging level.

-- active: quoted and ordered; discontinued: no longer made, still quoted while vendors offer it; withdrawn: no new
-- quotes (products are never deleted: orders reference them).
ALTER TABLE products ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'discontinued', 'withdrawn'));

-- One row per device identifier: GS1 GTIN-14 (the GTIN-8/12/13 of a label left-padded with zeros), HIBCC or ICCBBA.
-- A package level (a case) names the identifier of what it contains and how many: `contains_device_id` and
-- `quantity`; the unit level has neither. An identifier names one product, whatever its level.
CREATE TABLE device_identifiers (
  agency TEXT NOT NULL CHECK (agency IN ('GS1', 'HIBCC', 'ICCBBA')),
  device_id TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  contains_device_id TEXT,
  quantity INTEGER CHECK (quantity IS NULL OR quantity >= 1),
  CHECK ((contains_device_id IS NULL) = (quantity IS NULL)),
  PRIMARY KEY (agency, device_id)
) WITHOUT ROWID;
CREATE INDEX device_identifiers_product ON device_identifiers(product_id);
