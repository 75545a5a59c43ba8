-- The catalog database (binding CATALOG): products, manufacturers, categories, the full-text index and the facet
-- counters, apart from the transactional database (DB: tenants, users, quotes, orders), so that catalog search never
-- queues orders (docs/architecture.md, "Two databases"). Its schema is what migrations/0001-0006 built in DB, plus
-- the catalog version and the precomputed sort positions of issue 19 (docs/benchmarks.md, "Catalog at scale").

CREATE TABLE manufacturers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE
);

-- rowid order is the static search rank: an import inserts products best first (the seed: in catalog order), and
-- relevance ranking reads matches in rowid order (src/catalog/search-sql.ts).
CREATE TABLE products (
  id TEXT PRIMARY KEY,
  part_number TEXT NOT NULL,
  display_part_number TEXT NOT NULL,
  -- upper-case letters and digits only, so "12-345 A", "12345a" and "12345A" compare equal
  normalized_part_number TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  manufacturer_id INTEGER NOT NULL REFERENCES manufacturers(id),
  -- JSON array of category names; product_categories holds the same for filtering
  categories TEXT NOT NULL
);
CREATE INDEX products_normalized_part_number ON products(normalized_part_number);
-- The part number without its manufacturer prefix ("GE100000A" -> "100000A"): a buyer's exact part number finds its
-- product through one of these two indexes, whatever else matches the words.
CREATE INDEX products_unprefixed_part_number ON products(ltrim(normalized_part_number, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'));
-- One index per sort order, each ending in the id tie-break so paging is stable and needs no sort.
CREATE INDEX products_part_number_id ON products (part_number, id);
CREATE INDEX products_description_id ON products (description, id);
CREATE INDEX products_manufacturer_part_number_id ON products (manufacturer_id, part_number, id);

CREATE TABLE product_categories (
  category TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  PRIMARY KEY (category, product_id)
) WITHOUT ROWID;
CREATE INDEX product_categories_product ON product_categories(product_id);

-- What one product contributes to the full-text index. `part_keys` holds the normalized part number
-- and, when it starts with letters (a manufacturer prefix such as "GE"), the same without them, so a
-- buyer typing "100-000 A", "100000a" or "GE100000A" reaches part GE100000A.
CREATE VIEW product_search_documents AS
SELECT
  products.rowid AS document_id,
  products.manufacturer_id AS manufacturer_id,
  products.part_number AS part_number,
  products.display_part_number AS display_part_number,
  CASE
    WHEN ltrim(products.normalized_part_number, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') IN ('', products.normalized_part_number)
      THEN products.normalized_part_number
    ELSE products.normalized_part_number || ' ' || ltrim(products.normalized_part_number, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
  END AS part_keys,
  products.title AS title,
  products.description AS description,
  manufacturers.name AS manufacturer,
  (SELECT group_concat(value, ' ') FROM json_each(products.categories)) AS categories
FROM products
JOIN manufacturers ON manufacturers.id = products.manufacturer_id;

-- Contentless (the text already lives in products): only the inverted index and column sizes are stored, which is
-- what MATCH and bm25() need. The column order fixes the bm25() weights' order (src/catalog/search-sql.ts). Prefix
-- indexes for 2- and 3-character prefixes: see migrations/0006_catalog_fts_prefix_index.sql for the measurements.
CREATE VIRTUAL TABLE products_fts USING fts5(
  part_number,
  display_part_number,
  part_keys,
  title,
  description,
  manufacturer,
  categories,
  content = '',
  contentless_delete = 1,
  prefix = '2 3',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER products_fts_after_insert AFTER INSERT ON products BEGIN
  INSERT INTO products_fts (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories)
  SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories
  FROM product_search_documents WHERE document_id = new.rowid;
END;

CREATE TRIGGER products_fts_after_update AFTER UPDATE ON products BEGIN
  DELETE FROM products_fts WHERE rowid = old.rowid;
  INSERT INTO products_fts (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories)
  SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories
  FROM product_search_documents WHERE document_id = new.rowid;
END;

CREATE TRIGGER products_fts_after_delete AFTER DELETE ON products BEGIN
  DELETE FROM products_fts WHERE rowid = old.rowid;
END;

CREATE TRIGGER products_fts_after_manufacturer_rename AFTER UPDATE OF name ON manufacturers BEGIN
  DELETE FROM products_fts WHERE rowid IN (SELECT rowid FROM products WHERE manufacturer_id = new.id);
  INSERT INTO products_fts (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories)
  SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories
  FROM product_search_documents WHERE manufacturer_id = new.id;
END;

-- Facet counters for the whole catalog: an unfiltered search reads these few rows instead of
-- counting a million products. Filtered searches count their (indexed) candidate set instead.
CREATE TABLE catalog_manufacturer_counts (
  manufacturer_id INTEGER PRIMARY KEY REFERENCES manufacturers(id),
  product_count INTEGER NOT NULL
);

CREATE TABLE catalog_category_counts (
  category TEXT PRIMARY KEY,
  product_count INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER catalog_counts_after_product_insert AFTER INSERT ON products BEGIN
  INSERT INTO catalog_manufacturer_counts (manufacturer_id, product_count) VALUES (new.manufacturer_id, 1)
  ON CONFLICT (manufacturer_id) DO UPDATE SET product_count = product_count + 1;
END;

CREATE TRIGGER catalog_counts_after_product_delete AFTER DELETE ON products BEGIN
  UPDATE catalog_manufacturer_counts SET product_count = product_count - 1 WHERE manufacturer_id = old.manufacturer_id;
END;

CREATE TRIGGER catalog_counts_after_product_manufacturer_change AFTER UPDATE OF manufacturer_id ON products
WHEN old.manufacturer_id IS NOT new.manufacturer_id BEGIN
  UPDATE catalog_manufacturer_counts SET product_count = product_count - 1 WHERE manufacturer_id = old.manufacturer_id;
  INSERT INTO catalog_manufacturer_counts (manufacturer_id, product_count) VALUES (new.manufacturer_id, 1)
  ON CONFLICT (manufacturer_id) DO UPDATE SET product_count = product_count + 1;
END;

CREATE TRIGGER catalog_counts_after_category_insert AFTER INSERT ON product_categories BEGIN
  INSERT INTO catalog_category_counts (category, product_count) VALUES (new.category, 1)
  ON CONFLICT (category) DO UPDATE SET product_count = product_count + 1;
END;

CREATE TRIGGER catalog_counts_after_category_delete AFTER DELETE ON product_categories BEGIN
  UPDATE catalog_category_counts SET product_count = product_count - 1 WHERE category = old.category;
END;

CREATE TRIGGER catalog_counts_after_category_update AFTER UPDATE OF category ON product_categories
WHEN old.category IS NOT new.category BEGIN
  UPDATE catalog_category_counts SET product_count = product_count - 1 WHERE category = old.category;
  INSERT INTO catalog_category_counts (category, product_count) VALUES (new.category, 1)
  ON CONFLICT (category) DO UPDATE SET product_count = product_count + 1;
END;

-- The catalog version: a new random token on every change to what a search can return. Cached search responses are
-- keyed by it (src/catalog/search-cache.ts), and the sort positions below hold for the version they were built at.
-- A token, not a counter: a database restored to an earlier point (D1 Time Travel) or made anew never reuses the
-- version of another state, so no cached response of one catalog is ever served for another.
CREATE TABLE catalog_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version TEXT NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, lower(hex(randomblob(12))));

CREATE TRIGGER catalog_version_after_product_insert AFTER INSERT ON products BEGIN
  UPDATE catalog_version SET version = lower(hex(randomblob(12))) WHERE id = 1;
END;
CREATE TRIGGER catalog_version_after_product_update AFTER UPDATE ON products BEGIN
  UPDATE catalog_version SET version = lower(hex(randomblob(12))) WHERE id = 1;
END;
CREATE TRIGGER catalog_version_after_product_delete AFTER DELETE ON products BEGIN
  UPDATE catalog_version SET version = lower(hex(randomblob(12))) WHERE id = 1;
END;
CREATE TRIGGER catalog_version_after_manufacturer_update AFTER UPDATE ON manufacturers BEGIN
  UPDATE catalog_version SET version = lower(hex(randomblob(12))) WHERE id = 1;
END;
CREATE TRIGGER catalog_version_after_category_insert AFTER INSERT ON product_categories BEGIN
  UPDATE catalog_version SET version = lower(hex(randomblob(12))) WHERE id = 1;
END;
CREATE TRIGGER catalog_version_after_category_delete AFTER DELETE ON product_categories BEGIN
  UPDATE catalog_version SET version = lower(hex(randomblob(12))) WHERE id = 1;
END;

-- Precomputed positions of every product in each unfiltered sort order (1 = first in ascending order), so that a
-- deep offset into the whole catalog is one index range read instead of a walk past every skipped product. Built
-- by the housekeeping (src/catalog/positions.ts) for one catalog version; a search uses them only while that is
-- the current version, and walks the sort index otherwise.
CREATE TABLE catalog_positions (
  sort_by TEXT NOT NULL,
  position INTEGER NOT NULL,
  product_rowid INTEGER NOT NULL,
  PRIMARY KEY (sort_by, position)
) WITHOUT ROWID;

CREATE TABLE catalog_positions_built (
  sort_by TEXT PRIMARY KEY,
  catalog_version TEXT NOT NULL
) WITHOUT ROWID;
