import { z } from "@hono/zod-openapi";
import { SORT_DIRECTIONS, type SortDirection } from "./sort";

/** Pagination (spec 2.13, 4.11, 4.16) for the GET and POST search endpoints. */

export const DEFAULT_LIMIT = 50;
export const GET_MAX_LIMIT = 100;
export const POST_MAX_LIMIT = 10_000;
export const MAX_QUERY_LENGTH = 2000;

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

const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));

/** Query parameters shared by every GET search endpoint; out-of-range values are a 400 validation error. */
export const SearchQueryParamsSchema = z.object({
  q: z
    .string()
    .max(MAX_QUERY_LENGTH, `Must be at most ${MAX_QUERY_LENGTH} characters.`)
    .optional()
    .openapi({
      param: { name: "q", in: "query" },
      description: "Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See docs/api.md.",
      example: 'name~"med" AND -name:"Medtronic"',
    }),
  limit: wholeNumber(1, GET_MAX_LIMIT, `Must be a whole number from 1 to ${GET_MAX_LIMIT}.`)
    .optional()
    .openapi({ param: { name: "limit", in: "query" }, type: "integer", minimum: 1, maximum: GET_MAX_LIMIT, default: DEFAULT_LIMIT }),
  offset: wholeNumber(0, Number.MAX_SAFE_INTEGER, "Must be a whole number of 0 or more.")
    .optional()
    .openapi({ param: { name: "offset", in: "query" }, type: "integer", minimum: 0, default: 0 }),
  sortBy: z
    .string()
    .max(64)
    .optional()
    .openapi({ param: { name: "sortBy", in: "query" }, description: "A sortable field of the resource (case-insensitive)" }),
  sortDir: z
    .string()
    .regex(/^(asc|desc)$/i, "Must be Asc or Desc.")
    .transform((value): SortDirection => (value.toLowerCase() === "desc" ? "Desc" : "Asc"))
    .optional()
    .openapi({ param: { name: "sortDir", in: "query" }, type: "string", enum: [...SORT_DIRECTIONS], default: "Asc" }),
});

export type SearchQueryParams = z.infer<typeof SearchQueryParamsSchema>;

export function getPage(params: Pick<SearchQueryParams, "limit" | "offset">): Page {
  return { limit: params.limit ?? DEFAULT_LIMIT, offset: params.offset ?? 0 };
}

/**
 * POST search pagination is corrected silently (spec 4.16): limit above 10,000 becomes 10,000, below 1
 * or not a number becomes 50, a negative or non-numeric offset becomes 0. Fractions are truncated and
 * numeric strings accepted. The response reports the values used.
 */
export function normalizePostPage(input: { limit?: unknown; offset?: unknown } | undefined): Page {
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
