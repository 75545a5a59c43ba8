import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The catalog database (binding CATALOG). Mirrors catalog-migrations/*.sql, as src/db/schema.ts mirrors migrations/.

export const manufacturers = sqliteTable("manufacturers", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

export const products = sqliteTable(
  "products",
  {
    id: text("id").primaryKey(),
    partNumber: text("part_number").notNull(),
    displayPartNumber: text("display_part_number").notNull(),
    normalizedPartNumber: text("normalized_part_number").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    manufacturerId: integer("manufacturer_id").notNull(),
    categories: text("categories", { mode: "json" }).$type<string[]>().notNull(),
    /** active, discontinued or withdrawn (catalog-migrations/0004): a withdrawn product is not quoted. */
    status: text("status", { enum: ["active", "discontinued", "withdrawn"] })
      .notNull()
      .default("active"),
    /** The hash of the import record it was last written from (catalog-migrations/0005); null when written otherwise. */
    contentHash: text("content_hash"),
    /** The hash of the import source it was last written from (catalog-migrations/0006). */
    sourceHash: text("source_hash"),
  },
  // Sort-order indexes of migrations/0003; the full-text index products_fts (FTS5, kept in sync by
  // triggers) is queried with bound SQL in src/shared/catalog/search-sql.ts, drizzle has no FTS5 support.
  (t) => [
    index("products_normalized_part_number").on(t.normalizedPartNumber),
    index("products_part_number_id").on(t.partNumber, t.id),
    index("products_description_id").on(t.description, t.id),
    index("products_manufacturer_part_number_id").on(t.manufacturerId, t.partNumber, t.id),
  ],
);

/** Whole-catalog facet counts, maintained by triggers (migrations/0003). */
export const catalogManufacturerCounts = sqliteTable("catalog_manufacturer_counts", {
  manufacturerId: integer("manufacturer_id").primaryKey(),
  productCount: integer("product_count").notNull(),
});

export const catalogCategoryCounts = sqliteTable("catalog_category_counts", {
  category: text("category").primaryKey(),
  productCount: integer("product_count").notNull(),
});

export const productCategories = sqliteTable(
  "product_categories",
  { category: text("category").notNull(), productId: text("product_id").notNull() },
  (t) => [primaryKey({ columns: [t.category, t.productId] })],
);

/** A new random token on every change to what a search can return (triggers of catalog-migrations/0001). */
export const catalogVersion = sqliteTable("catalog_version", {
  id: integer("id").primaryKey(),
  version: text("version").notNull(),
});

/** The device identifiers of a product (catalog-migrations/0004): GS1 GTIN-14, HIBCC or ICCBBA, unit or package level. */
export const deviceIdentifiers = sqliteTable(
  "device_identifiers",
  {
    agency: text("agency", { enum: ["GS1", "HIBCC", "ICCBBA"] }).notNull(),
    deviceId: text("device_id").notNull(),
    productId: text("product_id").notNull(),
    containsDeviceId: text("contains_device_id"),
    quantity: integer("quantity"),
  },
  (t) => [primaryKey({ columns: [t.agency, t.deviceId] }), index("device_identifiers_product").on(t.productId)],
);
