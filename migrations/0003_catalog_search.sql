-- Catalog search: a full-text index over products, indexes for every sort order, and facet counters.
-- Everything here is kept in sync by triggers, so any writer of products (the seed, an import) keeps
-- search correct, and re-running the seed (INSERT OR IGNORE) fires nothing for rows already present.

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

-- Contentless (the text already lives in products): only the inverted index and column sizes are
-- stored, which is what MATCH and bm25() need. The column order fixes the bm25() weights' order
-- (src/catalog/search-sql.ts). No `prefix=` indexes: measured at 100k products they did not make
-- prefix queries faster but nearly doubled the time to index the catalog.
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

-- One index per sort order, each ending in the id tie-break so paging is stable and needs no sort.
-- They supersede the single-column indexes of 0001 (same leading column).
DROP INDEX products_part_number;
DROP INDEX products_manufacturer;
CREATE INDEX products_part_number_id ON products (part_number, id);
CREATE INDEX products_description_id ON products (description, id);
CREATE INDEX products_manufacturer_part_number_id ON products (manufacturer_id, part_number, id);

-- Backfill for a database whose catalog was loaded before this migration (empty in a fresh one).
INSERT INTO products_fts (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories)
SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories
FROM product_search_documents;

INSERT INTO catalog_manufacturer_counts (manufacturer_id, product_count)
SELECT manufacturer_id, COUNT(*) FROM products GROUP BY manufacturer_id;

INSERT INTO catalog_category_counts (category, product_count)
SELECT category, COUNT(*) FROM product_categories GROUP BY category;
