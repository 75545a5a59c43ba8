import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { manufacturers, products } from "../db/schema";
import { notFound } from "../platform/errors";
import { paginationOf } from "../platform/pagination";
import { type CatalogFilters, type CatalogPage, catalogSearchStatements, type FacetField, type SqlStatement } from "./search-sql";

/** Catalog item, spec 2.4. */
export interface CatalogItem {
  id: string;
  partNumber: string;
  displayPartNumber: string;
  description: string;
  oem: string;
  categories: string[];
}

export interface FacetCounts {
  field: FacetField;
  values: { value: string; count: number }[];
}

type ItemRow = Omit<CatalogItem, "categories"> & { categories: string };
type FacetRow = { value: string; count: number };

/** One page of matching products, the total, and facet counts: one D1 round trip, one consistent snapshot. */
export async function searchCatalog(d1: D1Database, filters: CatalogFilters, page: CatalogPage) {
  const statements = catalogSearchStatements(filters, page);
  const bind = ({ sql, params }: SqlStatement) => d1.prepare(sql).bind(...params);
  const [items, total, manufacturerFacet, categoryFacet] = await d1.batch<Record<string, unknown>>([
    bind(statements.items),
    bind(statements.total),
    bind(statements.facets.manufacturer),
    bind(statements.facets.category),
  ]);
  const rows = items!.results as ItemRow[];
  const totalCount = Number((total!.results[0] as { total: number } | undefined)?.total ?? 0);
  const facets: FacetCounts[] = [
    { field: "manufacturer", values: manufacturerFacet!.results as FacetRow[] },
    { field: "category", values: categoryFacet!.results as FacetRow[] },
  ];
  return {
    items: rows.map((row): CatalogItem => ({ ...row, categories: JSON.parse(row.categories) as string[] })),
    pagination: paginationOf(page, totalCount, rows.length),
    facets,
    sort: { sortBy: page.sortBy, sortDirection: page.sortDirection },
  };
}

/** Catalog detail product, spec 2.5; 404 when the product does not exist. */
export async function findCatalogProduct(db: Database, productId: string) {
  const product = await db
    .select({
      id: products.id,
      partNumber: products.partNumber,
      title: products.title,
      description: products.description,
      manufacturer: manufacturers.name,
    })
    .from(products)
    .innerJoin(manufacturers, eq(manufacturers.id, products.manufacturerId))
    .where(eq(products.id, productId))
    .get();
  if (!product) throw notFound(`No product has id ${JSON.stringify(productId)}.`);
  return product;
}
