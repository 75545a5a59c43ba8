import { expect } from "vitest";
import { json } from "./api";
import { contractCall } from "./contract";

export type Params = Record<string, string | number | undefined>;

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

/** GET a search endpoint with the given query parameters; expects 200 and returns `data`. */
export async function searchData<T = any>(token: string, path: string, params: Params = {}): Promise<T> {
  const res = await searchRaw(token, path, params);
  const body = await json(res);
  if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(params)} -> ${res.status}: ${JSON.stringify(body)}`);
  return body.data as T;
}

export function searchRaw(token: string, path: string, params: Params = {}): Promise<Response> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  return contractCall(token, `${path}?${query}`);
}

/**
 * Walks every page (offset += limit until hasMore is false) and returns the records in order,
 * checking each page's pagination object on the way.
 */
export async function allPages<T>(token: string, path: string, listKey: string, params: Params, limit: number): Promise<T[]> {
  const records: T[] = [];
  for (let offset = 0, pages = 0; ; offset += limit, pages++) {
    if (pages > 1000) throw new Error("paging does not end");
    const data = await searchData(token, path, { ...params, limit, offset });
    const page = data[listKey] as T[];
    const pagination = data.pagination as Pagination;
    expect(pagination.limit).toBe(limit);
    expect(pagination.offset).toBe(offset);
    expect(page.length).toBeLessThanOrEqual(limit);
    records.push(...page);
    expect(pagination.hasMore).toBe(records.length < pagination.total);
    if (!pagination.hasMore) {
      expect(records.length).toBe(pagination.total);
      return records;
    }
  }
}

type Key = string | number | null;

/** Sorts like the API: by key (NULLs first ascending, text case-insensitive), then by id, both in the same direction. */
export function sortedLike<T>(items: readonly T[], key: (item: T) => Key, id: (item: T) => number, direction: "Asc" | "Desc" = "Asc"): T[] {
  const norm = (k: Key) => (typeof k === "string" ? k.toLowerCase() : k);
  const sign = direction === "Asc" ? 1 : -1;
  return [...items].sort((a, b) => {
    const ka = norm(key(a));
    const kb = norm(key(b));
    if (ka !== kb) {
      if (ka === null) return -sign;
      if (kb === null) return sign;
      return (ka < kb ? -1 : 1) * sign;
    }
    return (id(a) - id(b)) * sign;
  });
}
