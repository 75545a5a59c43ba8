import { asc, desc, type SQL } from "drizzle-orm";
import { ValidationError } from "../platform/errors";
import type { SortDirection } from "../platform/pagination";
import type { SearchResource } from "./fields";

/**
 * ORDER BY for `sortBy`/`sortDir`: the chosen field, then the resource's id in the same direction so
 * that the order is total and paging visits each record exactly once. SQLite puts NULLs first when
 * ascending, last when descending. An unknown or unsortable field is a 400 validation error on sortBy.
 */
export function orderByFor(resource: SearchResource, sortBy: string | undefined, sortDir: SortDirection = "Asc"): SQL[] {
  const field = sortBy === undefined ? resource.defaultSortField : resource.field(sortBy);
  if (!field?.sortable) {
    const problem = field ? `'${field.name}' cannot be used for sorting.` : `Unknown sort field '${sortBy}'.`;
    throw new ValidationError({ sortBy: [`${problem} Sortable fields of ${resource.name}: ${resource.sortableNames().join(", ")}.`] });
  }
  const direction = sortDir === "Desc" ? desc : asc;
  return field.column === resource.idColumn ? [direction(field.column)] : [direction(field.column), direction(resource.idColumn)];
}
