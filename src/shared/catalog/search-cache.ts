import { Remembered } from "../../platform/remembered";
import { sha256Hex } from "../../platform/sha256";
import type { CatalogFilters, CatalogPage } from "./search-sql";

/**
 * Edge cache of catalog search results (the Cache API of the data center that serves the request). The catalog is
 * the same for every buyer, so one cached result serves every tenant, and only after that tenant's access check
 * passed (src/shared/catalog/routes.ts). Entries are keyed by the normalized search and the catalog version
 * (catalog-migrations/0001_catalog.sql): any change to the catalog makes a new key, and old entries age out.
 */
export const CACHE_STATUS_HEADER = "X-Cache";
export const CACHE_STATUSES = ["HIT", "MISS", "BYPASS"] as const;
export type CacheStatus = (typeof CACHE_STATUSES)[number];

/**
 * What a request's `Cache-Control` asks of the cache (RFC 9111 5.2.1): `no-cache` (or max-age=0) an answer searched
 * now, which may then serve others; `no-store` an answer searched now and kept nowhere; otherwise the cache is used.
 */
export function requestedCaching(request: Request): "use" | "refresh" | "none" {
  const directives = (request.headers.get("Cache-Control") ?? "")
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  if (directives.includes("no-store")) return "none";
  return directives.includes("no-cache") || directives.includes("max-age=0") ? "refresh" : "use";
}

/** How long an entry may live at the edge; a catalog change retires it sooner (a new version, a new key). */
const ENTRY_MAX_AGE_SECONDS = 3600;

/** The isolate's memory of the catalog version (src/platform/remembered.ts), so that a cache hit costs no database round trip. */
const rememberedVersion = new Remembered<string>();
const VERSION_KEY = "catalog";

/**
 * The current catalog version, read from the catalog database at most once per `maxAgeSeconds` per isolate: a
 * catalog change shows in search results within that delay (CATALOG_VERSION_CACHE_SECONDS; 0 reads it every time).
 */
export function catalogVersion(catalog: D1Database, maxAgeSeconds: number, memory = rememberedVersion): Promise<string> {
  return memory.get(VERSION_KEY, maxAgeSeconds, async () => {
    const row = await catalog.prepare("SELECT version FROM catalog_version WHERE id = 1").first<{ version: string }>();
    return row?.version ?? "none";
  });
}

/**
 * The key of a search in both caches: everything the SQL of a search depends on (the parsed keywords, the facet
 * values as a set, the page and the order) and the catalog version. `id` keys the isolate's copies as is; the Cache
 * API gets it hashed into a URL on a host that is never fetched, made only when the Cache API is asked.
 */
export interface SearchCacheKey {
  id: string;
  request(): Promise<Request>;
}

export function searchCacheKey(version: string, filters: CatalogFilters, page: CatalogPage): SearchCacheKey {
  const normalized = JSON.stringify([
    filters.keywords?.match ?? null,
    filters.keywords?.partNumberKey ?? null,
    filters.keywords?.deviceIds ?? null,
    filters.manufacturers ? [...filters.manufacturers].sort() : null,
    filters.categories ? [...filters.categories].sort() : null,
    page.limit,
    page.offset,
    page.sortBy,
    page.sortDirection,
  ]);
  let request: Promise<Request> | undefined;
  return { id: `${version}/${normalized}`, request: () => (request ??= cacheApiRequest(version, normalized)) };
}

async function cacheApiRequest(version: string, normalized: string): Promise<Request> {
  const hash = await sha256Hex(normalized);
  return new Request(`https://catalog-search.cache.medparts.internal/v/${version}/${hash}`);
}

/**
 * The isolate's own copies of recent entries, in front of the Cache API: a popular search answered again by the same
 * isolate costs no cache lookup at all. Keys carry the catalog version, so a copy is never staler than the Cache API
 * entry; the bounds keep the copies under ~8 MB of the isolate's 128 MB (larger answers go to the Cache API only).
 */
const MEMORY_ENTRIES = 128;
const MEMORY_MAX_ENTRY_CHARS = 64 * 1024;
const MEMORY_SECONDS = 60;
const recentSearches = new Remembered<string | undefined>(Date.now, MEMORY_ENTRIES);
const fitsInMemory = (json: string | undefined) => json !== undefined && json.length <= MEMORY_MAX_ENTRY_CHARS;

/** The JSON text of a cached answer (the isolate's copy, else the Cache API's), or undefined. */
export function readCachedSearch(key: SearchCacheKey, memory = recentSearches): Promise<string | undefined> {
  return memory.get(
    key.id,
    MEMORY_SECONDS,
    async () => {
      const hit = await caches.default.match(await key.request());
      return hit ? hit.text() : undefined;
    },
    fitsInMemory,
  );
}

/** Stores an answer's JSON text (made once for the response and the cache alike). */
export async function cacheSearch(key: SearchCacheKey, json: string, memory = recentSearches): Promise<void> {
  if (fitsInMemory(json)) memory.set(key.id, json);
  await caches.default.put(
    await key.request(),
    new Response(json, {
      headers: { "Content-Type": "application/json", "Cache-Control": `public, max-age=${ENTRY_MAX_AGE_SECONDS}` },
    }),
  );
}
