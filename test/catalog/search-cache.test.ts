import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CORRELATION_HEADER } from "../../src/platform/correlation";
import { Remembered } from "../../src/platform/remembered";
import {
  CACHE_STATUS_HEADER,
  cacheSearch,
  catalogVersion,
  readCachedSearch,
  type SearchCacheKey,
} from "../../src/shared/catalog/search-cache";
import { expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { JSMITH, type SearchBody, searchRaw } from "../helpers/catalog";
import { contractCall } from "../helpers/contract";

/** A page size no other test uses, so that each test starts with an empty cache entry of its own. */
const freshLimit = () => 1000 + Math.floor(Math.random() * 9000);

async function searched(body: SearchBody, token?: string) {
  const res = await searchRaw(body, token);
  expect(res.status).toBe(200);
  return { cache: res.headers.get(CACHE_STATUS_HEADER), data: (await json(res)).data };
}

describe("edge cache of catalog searches", () => {
  it("the first search is a MISS, the same search again a HIT with the same answer", async () => {
    const body = { filters: { query: "sensor" }, pagination: { limit: freshLimit() } };
    const first = await searched(body);
    expect(first.cache).toBe("MISS");
    expect(first.data.items.length).toBeGreaterThan(0);
    const second = await searched(body);
    expect(second.cache).toBe("HIT");
    expect(second.data).toEqual(first.data);
  });

  it("a HIT is the whole envelope of its own request: success, this request's correlation id, a fresh timestamp", async () => {
    const body = { filters: { query: "valve" }, pagination: { limit: freshLimit() } };
    expect((await searched(body)).cache).toBe("MISS");
    const res = await contractCall(await tokenFor(TENANT_A), "/catalog/search", {
      method: "POST",
      json: { ...JSMITH, ...body },
      headers: { [CORRELATION_HEADER]: "hit-correlation-1" },
    });
    expect(res.headers.get(CACHE_STATUS_HEADER)).toBe("HIT");
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const envelope = await json(res);
    expect(Object.keys(envelope)).toEqual(["success", "data", "correlationId", "timestamp"]);
    expect(envelope.success).toBe(true);
    expect(envelope.correlationId).toBe("hit-correlation-1");
    expect(Math.abs(Date.parse(envelope.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it("requests that mean the same search share an entry; another page, order or facet is another entry", async () => {
    const limit = freshLimit();
    const facets = (values: string[]) => [{ field: "manufacturer", values }];
    expect((await searched({ filters: { query: "Battery Pack", facets: facets(["Baxter", "BD"]) }, pagination: { limit } })).cache).toBe(
      "MISS",
    );
    // Same words (case and punctuation do not matter to the search), same facet values in another order.
    expect((await searched({ filters: { query: " battery--pack ", facets: facets(["BD", "Baxter"]) }, pagination: { limit } })).cache).toBe(
      "HIT",
    );
    for (const other of [
      { filters: { query: "battery pack", facets: facets(["BD", "Baxter"]) }, pagination: { limit, offset: 1 } },
      { filters: { query: "battery pack", facets: facets(["BD", "Baxter"]) }, pagination: { limit, sortBy: "PartNumber" } },
      { filters: { query: "battery pack", facets: facets(["BD"]) }, pagination: { limit } },
      { filters: { query: "battery", facets: facets(["BD", "Baxter"]) }, pagination: { limit } },
    ]) {
      expect((await searched(other)).cache, JSON.stringify(other)).toBe("MISS");
    }
  });

  it("Cache-Control: no-cache or no-store gets an answer searched now (BYPASS); no-cache's then serves the others", async () => {
    const withCacheControl = async (body: SearchBody, cacheControl: string) => {
      const res = await contractCall(await tokenFor(TENANT_A), "/catalog/search", {
        method: "POST",
        json: { ...JSMITH, ...body },
        headers: { "Cache-Control": cacheControl },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get(CACHE_STATUS_HEADER), cacheControl).toBe("BYPASS");
      return (await json(res)).data;
    };
    const stored = { filters: { query: "valve" }, pagination: { limit: freshLimit() } };
    const first = await searched(stored);
    for (const cacheControl of ["no-cache", "max-age=0", "No-Store, private"]) {
      expect(await withCacheControl(stored, cacheControl)).toEqual(first.data);
    }
    expect((await searched(stored)).cache).toBe("HIT");

    const refreshed = { filters: { query: "valve" }, pagination: { limit: freshLimit() } };
    await withCacheControl(refreshed, "no-cache");
    expect((await searched(refreshed)).cache).toBe("HIT");
    const neverStored = { filters: { query: "valve" }, pagination: { limit: freshLimit() } };
    await withCacheControl(neverStored, "no-store");
    expect((await searched(neverStored)).cache).toBe("MISS");
  });

  it("a cached answer is never served past the access check: a requester without access is still 403", async () => {
    const body = { filters: { query: "cable" }, pagination: { limit: freshLimit() } };
    await searched(body);
    expect((await searched(body)).cache).toBe("HIT");
    const denied = await searchRaw({ ...body, requesterId: 50004, facilityId: 1001 });
    await expectProblem(denied, 403);
    expect(denied.headers.get(CACHE_STATUS_HEADER)).toBeNull();
  });

  it("the catalog is the same for every buyer: another tenant's search, after its own access check, uses the entry", async () => {
    const body = { filters: { query: "module" }, pagination: { limit: freshLimit() } };
    const first = await searched(body);
    const tenantB = await searched({ ...body, requesterId: 60001, facilityId: 2001 }, await tokenFor(TENANT_B));
    expect(tenantB.cache).toBe("HIT");
    expect(tenantB.data).toEqual(first.data);
  });

  it("a catalog change makes a new version: the next search is a MISS and shows the change", async () => {
    const body = { filters: { query: "zebra" }, pagination: { limit: freshLimit() } };
    expect((await searched(body)).data.items).toEqual([]);
    expect((await searched(body)).cache).toBe("HIT");
    await env.CATALOG.prepare("UPDATE products SET description = description || ' zebra' WHERE id = 'MP-0000007'").run();
    try {
      const after = await searched(body);
      expect(after.cache).toBe("MISS");
      expect(after.data.items.map((i: { id: string }) => i.id)).toEqual(["MP-0000007"]);
    } finally {
      await env.CATALOG.prepare("UPDATE products SET description = replace(description, ' zebra', '') WHERE id = 'MP-0000007'").run();
    }
  });

  it("an isolate rereads the catalog version only after its max age (CATALOG_VERSION_CACHE_SECONDS)", async () => {
    let now = Date.now();
    const memory = new Remembered<string>(() => now);
    const start = now;
    const before = await catalogVersion(env.CATALOG, 5, memory);
    await env.CATALOG.prepare("UPDATE manufacturers SET name = name WHERE id = 1").run();
    now = start + 4_000;
    expect(await catalogVersion(env.CATALOG, 5, memory)).toBe(before);
    now = start + 5_000;
    const after = await catalogVersion(env.CATALOG, 5, memory);
    expect(after).not.toBe(before);
    expect(after).toMatch(/^[0-9a-f]{24}$/);
  });

  describe("the isolate's copies in front of the Cache API", () => {
    const keyFor = (name: string): SearchCacheKey => {
      const id = `${name}-${crypto.randomUUID()}`;
      return { id, request: async () => new Request(`https://catalog-search.cache.medparts.internal/test/${id}`) };
    };

    it("an entry stored by this isolate is answered from its memory, with no Cache API lookup", async () => {
      const memory = new Remembered<string | undefined>();
      const key = keyFor("stored");
      await cacheSearch(key, JSON.stringify({ items: ["a"] }), memory);
      expect(await caches.default.delete(await key.request())).toBe(true); // only the isolate's copy is left
      expect(await readCachedSearch(key, memory)).toBe(JSON.stringify({ items: ["a"] }));
      expect(await readCachedSearch(key, new Remembered<string | undefined>())).toBeUndefined();
    });

    it("an entry another isolate stored comes from the Cache API once, then from memory", async () => {
      const key = keyFor("shared");
      await cacheSearch(key, JSON.stringify({ items: ["b"] }), new Remembered<string | undefined>());
      const memory = new Remembered<string | undefined>();
      expect(await readCachedSearch(key, memory)).toBe(JSON.stringify({ items: ["b"] }));
      await caches.default.delete(await key.request());
      expect(await readCachedSearch(key, memory)).toBe(JSON.stringify({ items: ["b"] }));
    });

    it("a miss is not remembered, and an answer over 64 KiB stays in the Cache API only", async () => {
      const memory = new Remembered<string | undefined>();
      const missing = keyFor("missing");
      expect(await readCachedSearch(missing, memory)).toBeUndefined();
      await cacheSearch(missing, JSON.stringify({ items: ["c"] }), new Remembered<string | undefined>());
      expect(await readCachedSearch(missing, memory)).toBe(JSON.stringify({ items: ["c"] }));

      const large = keyFor("large");
      const big = { items: ["x".repeat(70 * 1024)] };
      await cacheSearch(large, JSON.stringify(big), memory);
      expect(await readCachedSearch(large, memory)).toBe(JSON.stringify(big));
      await caches.default.delete(await large.request());
      expect(await readCachedSearch(large, memory)).toBeUndefined();
    });
  });
});
