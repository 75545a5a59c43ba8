import { asc, desc, type SQL } from "drizzle-orm";
import { ValidationError } from "../platform/errors";
import type { SortDirection } from "../platform/pagination";
import type { SearchResource } from "./fields";

/**
 * Why `sortBy` names no sortable field of the resource, or undefined when it does. Names and aliases are exact here
 * (unlike field names in `q`, spec 4.13): the document lists them as the `sortBy` enum (docs/decisions.md).
 */
export function sortByProblem(resource: SearchResource, sortBy: string): string | undefined {
  const sortable = resource.sortableNames();
  if (sortable.includes(sortBy)) return undefined;
  const field = resource.field(sortBy);
  const problem = !field
    ? `Unknown sort field '${sortBy}'.`
    : !field.sortable
      ? `'${field.name}' cannot be used for sorting.`
      : `Unknown sort field '${sortBy}'; did you mean ${sortable.find((name) => name.toLowerCase() === sortBy.toLowerCase())}?`;
  return `${problem} Sortable fields of ${resource.name}: ${sortable.join(", ")}.`;
}

/**
 * ORDER BY for `sortBy`/`sortDir`: the chosen field, then the resource's id in the same direction so
 * that the order is total and paging visits each record exactly once. SQLite puts NULLs first when
 * ascending, last when descending. An unknown or unsortable field is a 400 validation error on sortBy.
 */
export function orderByFor(resource: SearchResource, sortBy: string | undefined, sortDir: SortDirection = "Asc"): SQL[] {
  const problem = sortBy === undefined ? undefined : sortByProblem(resource, sortBy);
  if (problem) throw new ValidationError({ sortBy: [problem] });
  const field = sortBy === undefined ? resource.defaultSortField : resource.field(sortBy)!;
  const direction = sortDir === "Desc" ? desc : asc;
  return field.column === resource.idColumn ? [direction(field.column)] : [direction(field.column), direction(resource.idColumn)];
}
