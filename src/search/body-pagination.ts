/**
 * Pagination of POST search endpoints (spec 4.16): out-of-range values are corrected silently and the
 * response shows the values actually used.
 */
export const BODY_PAGINATION = { defaultLimit: 50, maxLimit: 10_000 } as const;

export interface PageWindow {
  limit: number;
  offset: number;
}

/** limit above 10,000 -> 10,000; below 1 (or absent) -> 50; negative (or absent) offset -> 0; fractions truncated. */
export function normalizeBodyPagination(limit: number | null | undefined, offset: number | null | undefined): PageWindow {
  const wholeLimit = limit == null ? BODY_PAGINATION.defaultLimit : Math.trunc(limit);
  const wholeOffset = offset == null ? 0 : Math.trunc(offset);
  return {
    limit: wholeLimit < 1 ? BODY_PAGINATION.defaultLimit : Math.min(wholeLimit, BODY_PAGINATION.maxLimit),
    offset: Math.min(Math.max(0, wholeOffset), Number.MAX_SAFE_INTEGER),
  };
}

/** The pagination object of spec 2.13. */
export function paginationResult(window: PageWindow, total: number, returned: number) {
  return { total, limit: window.limit, offset: window.offset, hasMore: window.offset + returned < total };
}
