/**
 * Paging. The API pages three ways, and {@link nextPageInit} recognises each from the answer:
 *
 * - offset lists: `data.pagination = { total, limit, offset, hasMore }`; the next page is `offset + limit`, sent as the
 *   `offset` query parameter (GET) or as `pagination.offset` in the body (POST `/catalog/search`, `/users/search`);
 * - cursor lists: `data.nextCursor` (or `data.cursor`), `null` on the last page, sent back as the `cursor` query parameter;
 * - the events feed: `data = { events, hasMore, nextCursor }`, `nextCursor` sent back as `after` while `hasMore`.
 */

type Init = { params?: { query?: Record<string, unknown>; [k: string]: unknown }; body?: unknown; [k: string]: unknown };

/** The init of the page after `data`, or undefined when `data` was the last page. */
export function nextPageInit(method: string, init: Init, data: unknown): Init | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const page = data as Record<string, unknown>;
  const pagination = page.pagination as { offset?: number; limit?: number; hasMore?: boolean } | undefined;
  if (pagination && typeof pagination === "object") {
    if (!pagination.hasMore || itemCount(page) === 0) return undefined;
    const offset = Number(pagination.offset ?? 0) + Number(pagination.limit ?? itemCount(page));
    if (method.toUpperCase() === "GET") return withQuery(init, { offset });
    const body = (init.body ?? {}) as Record<string, unknown>;
    const bodyPagination = (body.pagination ?? {}) as Record<string, unknown>;
    return { ...init, body: { ...body, pagination: { ...bodyPagination, offset } } };
  }
  if ("hasMore" in page && "nextCursor" in page) {
    // The events feed.
    const cursor = page.nextCursor;
    if (!page.hasMore || typeof cursor !== "string" || cursor === init.params?.query?.after) return undefined;
    return withQuery(init, { after: cursor });
  }
  for (const key of ["nextCursor", "cursor"] as const) {
    if (key in page) {
      const cursor = page[key];
      if (typeof cursor !== "string" || cursor === "" || cursor === init.params?.query?.cursor) return undefined;
      return withQuery(init, { cursor });
    }
  }
  return undefined;
}

/** The items of a page: its array properties other than `facets` (there is one per list answer). */
export function pageItems(data: unknown): unknown[] {
  if (typeof data !== "object" || data === null) return [];
  for (const [key, value] of Object.entries(data)) {
    if (key !== "facets" && Array.isArray(value)) return value;
  }
  return [];
}

function itemCount(page: Record<string, unknown>): number {
  return pageItems(page).length;
}

function withQuery(init: Init, query: Record<string, unknown>): Init {
  return { ...init, params: { ...init.params, query: { ...init.params?.query, ...query } } };
}
