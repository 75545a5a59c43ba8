import { z } from "@hono/zod-openapi";

/** Pagination shared by every listing endpoint (spec 2.13, 4.11, 4.16). */

export const DEFAULT_LIMIT = 50;
export const POST_MAX_LIMIT = 10_000;

export const SORT_DIRECTIONS = ["Asc", "Desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export interface Page {
  limit: number;
  offset: number;
}

export interface Pagination extends Page {
  total: number;
  hasMore: boolean;
}

export const PaginationSchema = z
  .object({
    total: z.number().int().openapi({ description: "Records matching the filter" }),
    limit: z.number().int().openapi({ description: "Page size used" }),
    offset: z.number().int().openapi({ description: "Records skipped" }),
    hasMore: z.boolean().openapi({ description: "True when a further page exists: request offset + limit next" }),
  })
  .openapi("Pagination");

export function paginationOf(page: Page, total: number, rowsReturned: number): Pagination {
  return { total, limit: page.limit, offset: page.offset, hasMore: page.offset + rowsReturned < total };
}

/**
 * POST search pagination is corrected silently (spec 4.16): limit above 10,000 becomes 10,000, below 1
 * or not a number becomes 50, a negative or non-numeric offset becomes 0. Fractions are truncated and
 * numeric strings accepted. The response reports the values used.
 */
export function normalizePostPage(input: { limit?: unknown; offset?: unknown } | undefined | null): Page {
  const limit = wholeNumberOrNull(input?.limit);
  const offset = wholeNumberOrNull(input?.offset);
  return {
    limit: limit === null || limit < 1 ? DEFAULT_LIMIT : Math.min(limit, POST_MAX_LIMIT),
    offset: offset === null || offset < 0 ? 0 : Math.min(offset, Number.MAX_SAFE_INTEGER),
  };
}

function wholeNumberOrNull(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(number) ? Math.trunc(number) : null;
}
