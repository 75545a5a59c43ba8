-- Scan to order with quotes in one round trip (issue 40, point 13; docs/architecture.md, "Two databases"): the codes
-- that name each catalog product (its device identifiers, and its normalized part number under agency ''), copied
-- here from the catalog database by the catalog's writers (imports, the seed). Scan to order reads the offers of the
-- products these codes name beside its lookup in the catalog. A guide, never the truth: quotes are issued only for
-- the product the catalog names, and a product this copy did not name has its offers read after the lookup.
CREATE TABLE product_codes (
  agency TEXT NOT NULL,
  code TEXT NOT NULL,
  product_id TEXT NOT NULL,
  PRIMARY KEY (agency, code, product_id)
) WITHOUT ROWID;
CREATE INDEX product_codes_product ON product_codes(product_id);
