-- A product's categories have one source: products.categories (a JSON array of names). product_categories, which
-- category filters read through its primary key, now follows it by trigger, as the full-text index already does, and
-- facet counts read the JSON of the rows they count (src/catalog/search-sql.ts): a writer can no longer leave the two
-- apart, so what a category counts is what filtering by it returns (test/catalog/search.test.ts). Writers insert,
-- update and delete products only; a repeated name in the array is one category.
CREATE TRIGGER product_categories_after_product_insert AFTER INSERT ON products BEGIN
  INSERT OR IGNORE INTO product_categories (category, product_id) SELECT value, new.id FROM json_each(new.categories);
END;

CREATE TRIGGER product_categories_after_product_update AFTER UPDATE OF id, categories ON products BEGIN
  DELETE FROM product_categories WHERE product_id = old.id;
  INSERT OR IGNORE INTO product_categories (category, product_id) SELECT value, new.id FROM json_each(new.categories);
END;

CREATE TRIGGER product_categories_after_product_delete AFTER DELETE ON products BEGIN
  DELETE FROM product_categories WHERE product_id = old.id;
END;
