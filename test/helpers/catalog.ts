import { env } from "cloudflare:test";
import { productsStatement } from "../../src/dev/seed/seed";
import type { CatalogItem, FacetCounts } from "../../src/shared/catalog/catalog";
import { normalizePartNumber } from "../../src/shared/catalog/part-numbers";
import { json, TENANT_A, tokenFor } from "./api";
import { contractCall } from "./contract";

/** jsmith (tenant 1) may order for facility 1001: the default caller of catalog tests. */
export const JSMITH = { requesterId: 50001, facilityId: 1001 } as const;
export const DEMO_PRODUCT_COUNT = 600;

export type { CatalogItem, FacetCounts } from "../../src/shared/catalog/catalog";

export interface SearchResult {
  items: CatalogItem[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
  facets: FacetCounts[];
  sort: { sortBy: string; sortDirection: string };
}

export interface SearchBody {
  filters?: { query?: string | null; facets?: { field: string; values: string[] }[] | null } | null;
  pagination?: Record<string, unknown> | null;
  requesterId?: unknown;
  facilityId?: unknown;
}

export async function searchRaw(body: SearchBody, token?: string): Promise<Response> {
  return contractCall(token ?? (await tokenFor(TENANT_A)), "/catalog/search", { method: "POST", json: { ...JSMITH, ...body } });
}

/** A successful search's data; fails the test on any other status. */
export async function search(body: SearchBody): Promise<SearchResult> {
  const res = await searchRaw(body);
  const payload = await json(res);
  if (res.status !== 200) throw new Error(`search failed: ${res.status} ${JSON.stringify(payload)}`);
  return payload.data as SearchResult;
}

export const facetOf = (result: SearchResult, field: FacetCounts["field"]) =>
  new Map(result.facets.find((f) => f.field === field)!.values.map((v) => [v.value, v.count]));

export async function detailRaw(body: Record<string, unknown>, token?: string): Promise<Response> {
  return contractCall(token ?? (await tokenFor(TENANT_A)), "/catalog/detail", { method: "POST", json: { ...JSMITH, ...body } });
}

export interface TestProduct {
  id: string;
  partNumber: string;
  /** Default: the part number. */
  displayPartNumber?: string;
  title: string;
  description: string;
  manufacturerId: number;
  categories: string[];
}

/**
 * Adds products to the catalog as the seed does (one statement, in the given rank order): product_categories and the
 * full-text index follow by trigger. An id already in the catalog is an error, never skipped.
 */
export async function insertProducts(products: readonly TestProduct[]): Promise<void> {
  const rows = products.map((p) => ({
    ...p,
    displayPartNumber: p.displayPartNumber ?? p.partNumber,
    normalizedPartNumber: normalizePartNumber(p.partNumber),
  }));
  // The seed's statement skips an id it already has (re-seeding tops up); a test's product must be new.
  const { results: taken } = await env.CATALOG.prepare("SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(products.map((p) => p.id)))
    .all<{ id: string }>();
  if (taken.length > 0) throw new Error(`already in the catalog: ${taken.map((row) => row.id).join(", ")}`);
  await productsStatement(env.CATALOG, rows).run();
}
