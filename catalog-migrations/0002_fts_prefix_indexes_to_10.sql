-- FTS5 prefix indexes for every prefix of 2 to 10 characters (was 2 and 3). A keyword of 4+ characters is a prefix
-- query ("battery"*), and without a prefix index of its length FTS5 merges the doclists of every term that starts
-- with it into memory before it yields the first match: a pass over every product with the word, per statement and
-- again for bm25(), so LIMIT cannot stop it early and the cost grows with the catalog (battery pack at 1,000,000
-- products: 15 ms of SQL, 1.9 ms of it per prefix pass). With the prefix index of its length the word is one stored
-- doclist, read only as far as the query needs (docs/benchmarks.md, "Catalog at scale"). Words of 11+ characters
-- still merge at query time: few products share them. Cost: the full-text index about doubles (about 380 to 750 MB
-- at 1M products; docs/architecture.md has the capacity math).
--
-- FTS5 options cannot be altered, so the index is rebuilt, in one statement (about 60 s for 1M products locally; a
-- much larger catalog on D1 would rebuild in rowid slices instead). The triggers name products_fts and keep
-- working on the new table.
DROP TABLE products_fts;

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
  prefix = '2 3 4 5 6 7 8 9 10',
  tokenize = 'unicode61 remove_diacritics 2'
);

INSERT INTO products_fts (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories)
SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories
FROM product_search_documents;
