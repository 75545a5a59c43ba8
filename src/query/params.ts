import { z } from "@hono/zod-openapi";
import { ValidationError } from "../platform/errors";
import { DEFAULT_LIMIT, type Page, SORT_DIRECTIONS } from "../platform/pagination";
import { wholeNumberText } from "../platform/schemas";
import type { SearchResource } from "./fields";
import { sortByProblem } from "./sort";

/**
 * Query parameters shared by every GET search endpoint (spec 4.11). Out-of-range values are a 400
 * validation error (spec 4.16 gives GET only constraints; silent correction is for POST bodies).
 */

export const GET_MAX_LIMIT = 100;
export const MAX_QUERY_LENGTH = 2000;

/**
 * The GET search parameters of one resource: its own `q` example and its sortable fields (names and aliases) as the
 * `sortBy` enum, accepted exactly as the enum spells them, as generated clients and validating proxies take it.
 */
export function searchQueryParams(resource: SearchResource, qExample: string) {
  return SearchQueryParamsSchema.extend({
    q: SearchQueryParamsSchema.shape.q.openapi({ example: qExample }),
    sortBy: z
      .enum(resource.sortableNames(), { error: (issue) => sortByProblem(resource, String(issue.input)) })
      .optional()
      .openapi({ param: { name: "sortBy", in: "query" }, description: "A sortable field of the resource, exactly as listed" }),
  });
}

export const SearchQueryParamsSchema = z.object({
  q: z
    .string()
    .max(MAX_QUERY_LENGTH, `Must be at most ${MAX_QUERY_LENGTH} characters.`)
    .optional()
    .openapi({
      param: { name: "q", in: "query" },
      description: "Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See docs/api.md.",
    }),
  limit: wholeNumberText(1, GET_MAX_LIMIT, `Must be a whole number from 1 to ${GET_MAX_LIMIT}.`)
    .optional()
    .openapi({ param: { name: "limit", in: "query" }, type: "integer", minimum: 1, maximum: GET_MAX_LIMIT, default: DEFAULT_LIMIT }),
  offset: wholeNumberText(0, Number.MAX_SAFE_INTEGER, "Must be a whole number of 0 or more.")
    .optional()
    .openapi({ param: { name: "offset", in: "query" }, type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
  sortDir: z
    .enum(SORT_DIRECTIONS, { error: "Must be Asc or Desc." })
    .optional()
    .openapi({ param: { name: "sortDir", in: "query" }, default: "Asc" }),
});

export type SearchQueryParams = z.infer<typeof SearchQueryParamsSchema>;

export function getPage(params: Pick<SearchQueryParams, "limit" | "offset">): Page {
  return { limit: params.limit ?? DEFAULT_LIMIT, offset: params.offset ?? 0 };
}

/**
 * A comma-separated query parameter of known names (exact, or ignoring case): each name once, in the given spelling.
 * An unknown name is a 400 naming the parameter and listing the valid names.
 */
export function parseNameList<T extends string>(parameter: string, text: string, valid: readonly T[], ignoreCase = false): T[] {
  const key = (name: string) => (ignoreCase ? name.toLowerCase() : name);
  const byKey = new Map(valid.map((name) => [key(name), name]));
  const names = text.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !byKey.has(key(name)));
  if (unknown.length > 0) {
    throw new ValidationError({ [parameter]: [`Unknown: ${unknown.map((u) => `"${u}"`).join(", ")}; valid: ${valid.join(", ")}.`] });
  }
  return [...new Set(names.map((name) => byKey.get(key(name))!))];
}
