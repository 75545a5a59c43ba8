import type { Filter } from "scim2-parse-filter";
import { scimBadRequest } from "./errors";

/**
 * A parsed SCIM filter (RFC 7644 3.4.2.2) as a parameterized SQL condition over the attributes a resource type maps to
 * columns. Every operator of the RFC is served: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, and value paths
 * (`emails[type eq "work"]`). String matching is case-insensitive (the attributes are caseExact false) and uses no
 * LIKE (D1 refuses patterns over 50 bytes). An attribute that is not mapped is a 400 invalidFilter.
 */

export type FilterColumn =
  | { type: "string"; sql: string; caseExact?: boolean }
  | { type: "boolean"; sql: string }
  | { type: "id"; sql: string }
  | { type: "datetime"; sql: string }
  /** A condition of its own, e.g. membership: given the compared value, the SQL and its parameters. */
  | { type: "custom"; condition: (op: string, value: unknown) => SqlCondition };

export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const TRUE: SqlCondition = { sql: "1", params: [] };
const FALSE: SqlCondition = { sql: "0", params: [] };

function compareString(column: string, op: string, value: unknown, caseExact: boolean): SqlCondition {
  if (op === "pr") return { sql: `(${column} IS NOT NULL AND ${column} <> '')`, params: [] };
  if (value === null && (op === "eq" || op === "ne")) return { sql: `${column} IS ${op === "eq" ? "" : "NOT "}NULL`, params: [] };
  if (typeof value !== "string") throw scimBadRequest("invalidFilter", `Compare ${column.replace(/^\w+\./, "")} with a string.`);
  const col = caseExact ? column : `lower(${column})`;
  const val = caseExact ? "?" : "lower(?)";
  switch (op) {
    case "eq":
      return { sql: caseExact ? `${column} = ?` : `${column} = ? COLLATE NOCASE`, params: [value] };
    case "ne":
      return {
        sql: caseExact ? `(${column} IS NULL OR ${column} <> ?)` : `(${column} IS NULL OR ${column} <> ? COLLATE NOCASE)`,
        params: [value],
      };
    case "co":
      return value === "" ? TRUE : { sql: `instr(${col}, ${val}) > 0`, params: [value] };
    case "sw":
      return value === "" ? TRUE : { sql: `substr(${col}, 1, length(?)) = ${val}`, params: [value, value] };
    case "ew":
      return value === ""
        ? TRUE
        : { sql: `(length(${column}) >= length(?) AND substr(${col}, -length(?)) = ${val})`, params: [value, value, value] };
    default:
      return { sql: `${col} ${{ gt: ">", ge: ">=", lt: "<", le: "<=" }[op]} ${val}`, params: [value] };
  }
}

function compare(column: FilterColumn, attribute: string, op: string, value: unknown): SqlCondition {
  switch (column.type) {
    case "custom":
      return column.condition(op, value);
    case "string":
      return compareString(column.sql, op, value, column.caseExact ?? false);
    case "datetime":
      if (op === "pr") return { sql: `${column.sql} IS NOT NULL`, params: [] };
      if (typeof value !== "string" || Number.isNaN(Date.parse(value)) || op === "co" || op === "sw" || op === "ew") {
        throw scimBadRequest("invalidFilter", `Compare ${attribute} with eq, ne, gt, ge, lt or le and a date-time.`);
      }
      return compareString(column.sql, op, new Date(value).toISOString(), true);
    case "boolean": {
      if (op === "pr") return TRUE;
      const truth = typeof value === "string" ? value.toLowerCase() : value;
      if ((op !== "eq" && op !== "ne") || (truth !== true && truth !== false && truth !== "true" && truth !== "false")) {
        throw scimBadRequest("invalidFilter", `Compare ${attribute} with eq or ne and true or false.`);
      }
      const wanted = (truth === true || truth === "true") === (op === "eq");
      return { sql: `${column.sql} = ${wanted ? 1 : 0}`, params: [] };
    }
    case "id": {
      if (op === "pr") return TRUE;
      if (op !== "eq" && op !== "ne") throw scimBadRequest("invalidFilter", `Compare ${attribute} with eq or ne.`);
      const id = typeof value === "string" && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
      if (id === null) return op === "eq" ? FALSE : TRUE;
      return { sql: `${column.sql} ${op === "eq" ? "=" : "<>"} ?`, params: [id] };
    }
  }
}

/** D1 binds at most 100 parameters a statement; the page query adds 3 of its own. */
const MAX_FILTER_PARAMETERS = 90;

/** The filter as SQL over `columns` (keyed by lower-case attribute path); 400 invalidFilter when it binds too much. */
export function filterToSqlChecked(filter: Filter, columns: Record<string, FilterColumn>): SqlCondition {
  const condition = filterToSql(filter, columns);
  if (condition.params.length > MAX_FILTER_PARAMETERS) {
    throw scimBadRequest("invalidFilter", "The filter has too many comparisons: split it into several requests.");
  }
  return condition;
}

/** The filter as SQL over `columns` (keyed by lower-case attribute path, e.g. `name.givenname`). */
export function filterToSql(filter: Filter, columns: Record<string, FilterColumn>, prefix = ""): SqlCondition {
  switch (filter.op) {
    case "and":
    case "or": {
      const parts = filter.filters.map((f) => filterToSql(f, columns, prefix));
      return { sql: `(${parts.map((p) => p.sql).join(` ${filter.op.toUpperCase()} `)})`, params: parts.flatMap((p) => p.params) };
    }
    case "not": {
      const inner = filterToSql(filter.filter, columns, prefix);
      // A comparison with a missing value is NULL in SQL: "not" of it must still hold (SCIM has no unknowns).
      return { sql: `NOT coalesce((${inner.sql}), 0)`, params: inner.params };
    }
    case "[]":
      return filterToSql(filter.valFilter, columns, `${prefix}${attributeName(filter.attrPath)}.`);
    default: {
      const attribute = `${prefix}${attributeName(filter.attrPath)}`;
      const column = columns[attribute];
      if (!column) {
        throw scimBadRequest("invalidFilter", `Filtering on ${attribute} is not supported; see /scim/v2/Schemas for the attributes.`);
      }
      return compare(column, attribute, filter.op, filter.op === "pr" ? undefined : filter.compValue);
    }
  }
}

/** `urn:...:User:userName` -> `username`; the core schemas' URN is a mere qualifier, an extension's stays. */
function attributeName(path: string): string {
  const lower = path.toLowerCase();
  const core = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/.exec(lower);
  return core ? lower.slice(core[0].length) : lower;
}
