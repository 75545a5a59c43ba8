/**
 * Precomputed sort positions of the whole catalog (catalog-migrations/0001_catalog.sql, catalog_positions): with
 * them, a page deep into the unfiltered catalog (offset 900,000 of 1,000,000) is one range read of the positions'
 * primary key instead of a walk past every skipped product. They hold for the catalog version they were built at;
 * a search uses them only while that is the current version (src/shared/catalog/search-sql.ts), and the housekeeping
 * rebuilds them after the catalog changed.
 */

/** The unfiltered sort orders with positions, each a total order (id breaks ties) as in src/shared/catalog/search-sql.ts. */
export const POSITIONED_ORDERS = {
  PartNumber: "products.part_number, products.id",
  Description: "products.description, products.id",
  Manufacturer: "manufacturers.name, products.part_number, products.id",
} as const;
export type PositionedSort = keyof typeof POSITIONED_ORDERS;

export const isPositionedSort = (sortBy: string): sortBy is PositionedSort => Object.hasOwn(POSITIONED_ORDERS, sortBy);

/** SQL condition: the positions of sort `?` were built at the current catalog version (one bound parameter). */
export const POSITIONS_ARE_CURRENT =
  "EXISTS (SELECT 1 FROM catalog_positions_built JOIN catalog_version ON catalog_version.id = 1 " +
  "AND catalog_version.version = catalog_positions_built.catalog_version WHERE catalog_positions_built.sort_by = ?)";

/**
 * Rebuilds the positions of every sort order whose positions are missing or older than the catalog; returns the
 * sort orders rebuilt. Each one is a single batch (one transaction): the positions and the version they hold for
 * change together. About 3 s per sort order at 1,000,000 products locally; a catalog far larger would rebuild in
 * position ranges instead (docs/architecture.md).
 */
export async function refreshCatalogPositions(catalog: D1Database): Promise<PositionedSort[]> {
  const { results } = await catalog
    .prepare(
      "SELECT catalog_positions_built.sort_by AS sortBy FROM catalog_positions_built JOIN catalog_version ON catalog_version.id = 1 " +
        "AND catalog_version.version = catalog_positions_built.catalog_version",
    )
    .all<{ sortBy: string }>();
  const current = new Set(results.map((row) => row.sortBy));
  const stale = (Object.keys(POSITIONED_ORDERS) as PositionedSort[]).filter((sortBy) => !current.has(sortBy));
  for (const sortBy of stale) {
    await catalog.batch([
      catalog.prepare("DELETE FROM catalog_positions WHERE sort_by = ?").bind(sortBy),
      catalog
        .prepare(
          "INSERT INTO catalog_positions (sort_by, position, product_rowid) " +
            `SELECT ?, row_number() OVER (ORDER BY ${POSITIONED_ORDERS[sortBy]}), products.rowid ` +
            "FROM products JOIN manufacturers ON manufacturers.id = products.manufacturer_id",
        )
        .bind(sortBy),
      catalog
        .prepare(
          "INSERT INTO catalog_positions_built (sort_by, catalog_version) SELECT ?, version FROM catalog_version WHERE id = 1 " +
            "ON CONFLICT (sort_by) DO UPDATE SET catalog_version = excluded.catalog_version",
        )
        .bind(sortBy),
    ]);
  }
  return stale;
}
