import { eq, sql } from "drizzle-orm";
import { deviceIdentifiers, manufacturers, products } from "../../db/catalog-schema";
import type { Database } from "../../db/client";
import { notFound } from "../../platform/errors";
import { paginationOf } from "../../platform/pagination";
import { PART_NUMBER_OF_DEVICE_ID } from "./device-ids";
import { parseKeywords } from "./keywords";
import {
  type CatalogFilters,
  type CatalogPage,
  type CountRow,
  catalogSearchStatements,
  FACET_FIELDS,
  type FacetField,
  type SqlStatement,
} from "./search-sql";

/** Catalog item, spec 2.4. */
export interface CatalogItem {
  id: string;
  partNumber: string;
  displayPartNumber: string;
  description: string;
  oem: string;
  categories: string[];
}

/** "eq": the number is exact; "gte": there are at least that many (counting stopped at the count bound). */
export type CountRelation = "eq" | "gte";

export interface FacetCounts {
  field: FacetField;
  values: { value: string; count: number }[];
  countsRelation: CountRelation;
}

type ItemRow = Omit<CatalogItem, "categories"> & { categories: string };

/**
 * One page of matching products, the total, and facet counts: one D1 round trip, one consistent snapshot. A query of
 * one word that is a device identifier of a catalog product, at any packaging level, is looked up in the same round
 * trip; when it is one, that product's part number is searched instead (a second round trip), so the product comes
 * first with the counts of its part-number search (docs/decisions.md).
 */
export async function searchCatalog(d1: D1Database, filters: CatalogFilters, page: CatalogPage) {
  const deviceIds = filters.keywords?.deviceIds ?? [];
  const lookup = deviceIds.length > 0 ? [d1.prepare(PART_NUMBER_OF_DEVICE_ID).bind(JSON.stringify(deviceIds))] : [];
  const statements = catalogSearchStatements(filters, page);
  const bind = ({ sql, params }: SqlStatement) => d1.prepare(sql).bind(...params);
  const answers = await d1.batch<Record<string, unknown>>([...lookup, ...statements.counts.map(bind), ...statements.items.map(bind)]);
  const named = lookup.length > 0 ? (answers[0]!.results[0] as { part_number: string } | undefined) : undefined;
  if (named) {
    // Its part number is not looked up as a device identifier again: the identifier named this product.
    const keywords = parseKeywords(named.part_number);
    return searchCatalog(d1, { ...filters, keywords: keywords && { ...keywords, deviceIds: [] } }, page);
  }
  const results = answers.slice(lookup.length);
  const countRows = results.slice(0, statements.counts.length).flatMap((result) => result.results as unknown as CountRow[]);
  // At most one items statement has rows (src/shared/catalog/search-sql.ts itemsStatements).
  const rows = results.slice(statements.counts.length).flatMap((result) => result.results as ItemRow[]);
  const bound = statements.countBound;
  const totalRow = countRows.find((row) => row.kind === "total");
  const counted = totalRow?.count ?? 0;
  const relation = (rows: CountRow[]): CountRelation => (rows.some((row) => row.sampled > bound) ? "gte" : "eq");
  const facet = (field: FacetField): FacetCounts => {
    const facetRows = countRows.filter((row) => row.kind === field);
    return { field, values: facetRows.map(({ value, count }) => ({ value: value!, count })), countsRelation: relation(facetRows) };
  };
  return {
    items: rows.map((row): CatalogItem => ({ ...row, categories: JSON.parse(row.categories) as string[] })),
    pagination: {
      ...paginationOf(page, Math.min(counted, bound), rows.length),
      // Past the bound, counting stopped at bound + 1 (beyond the page's end): still right for hasMore.
      hasMore: page.offset + rows.length < counted,
      totalRelation: (counted > bound ? "gte" : "eq") as CountRelation,
    },
    facets: FACET_FIELDS.map(facet),
    sort: { sortBy: page.sortBy, sortDirection: page.sortDirection },
  };
}

/** A device identifier of a product, as detail shows it (catalog-migrations/0004). */
export interface DeviceIdentifier {
  agency: "GS1" | "HIBCC" | "ICCBBA";
  deviceId: string;
  /** A package level: the identifier of what it contains, and how many. Both null for the unit level. */
  containsDeviceId: string | null;
  quantity: number | null;
}

/**
 * Catalog detail product, spec 2.5, with its status and device identifiers (unit level first), in one statement;
 * 404 when the product does not exist.
 */
export async function findCatalogProduct(db: Database, productId: string) {
  const row = await db
    .select({
      id: products.id,
      partNumber: products.partNumber,
      title: products.title,
      description: products.description,
      manufacturer: manufacturers.name,
      status: products.status,
      deviceIdentifiers: sql<string>`(select json_group_array(json_object('agency', ${deviceIdentifiers.agency}, 'deviceId', ${deviceIdentifiers.deviceId}, 'containsDeviceId', ${deviceIdentifiers.containsDeviceId}, 'quantity', ${deviceIdentifiers.quantity})) from (select * from ${deviceIdentifiers} where ${deviceIdentifiers.productId} = ${products.id} order by ${deviceIdentifiers.quantity} is not null, ${deviceIdentifiers.quantity}, ${deviceIdentifiers.deviceId}) as ${deviceIdentifiers})`,
    })
    .from(products)
    .innerJoin(manufacturers, eq(manufacturers.id, products.manufacturerId))
    .where(eq(products.id, productId))
    .get();
  if (!row) throw notFound(`No product has id ${JSON.stringify(productId)}.`);
  return { ...row, deviceIdentifiers: JSON.parse(row.deviceIdentifiers) as DeviceIdentifier[] };
}
