import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Operator } from "./ast";

/**
 * The field registry: for each searchable resource, its fields with type, column and sortability.
 * It is the single source for validating `q` and `sortBy`, compiling SQL, the 400 messages and the
 * field tables in docs/api.md (src/query/docs.ts).
 */

export type FieldType = "Token" | "String" | "Numeric" | "DateTime";

export const OPERATORS_BY_TYPE: Record<FieldType, readonly Operator[]> = {
  Token: [":"],
  String: [":", "~"],
  Numeric: [":", ">", "<", ">=", "<="],
  DateTime: [":", ">", "<", ">=", "<="],
};

interface FieldBase {
  name: string;
  /** Other accepted names, matched case-insensitively like the name. */
  aliases?: readonly string[];
  description: string;
  column: SQLiteColumn;
  sortable: boolean;
  /**
   * For a field that lives in related rows (a user's companies): wraps a condition on `column` into
   * a condition on the searched row, e.g. EXISTS (...). Such a field matches when any related row does.
   */
  related?: (condition: SQL) => SQL;
  /**
   * What `field:null` matches when a missing value means more than "no value" (say, an order's tracking number
   * before anything shipped, but not once nothing is left to ship); `-field:null` still matches a present value.
   */
  missing?: SQL;
}

export type SearchField = FieldBase &
  (
    | { type: "Token" | "String" }
    /** `day`: the column holds calendar days (`2026-01-31`), compared as days; otherwise ISO 8601 UTC instants. */
    | { type: "DateTime"; day?: true }
    /** `integer` columns take whole numbers; `cents` columns hold money shown as a decimal with 2 places. */
    | { type: "Numeric"; unit: "integer" | "cents" }
  );

export interface SearchResourceDefinition {
  /** Plural name used in messages and docs, e.g. "orders". */
  name: string;
  /** The GET endpoint, relative to /customer/api, for the docs. */
  path: string;
  fields: readonly SearchField[];
  defaultSort: string;
  /** Unique column used to break ties, so that paging visits every record exactly once. */
  idColumn: SQLiteColumn;
}

export interface SearchResource extends SearchResourceDefinition {
  field(name: string): SearchField | undefined;
  /** All accepted field names (with aliases), for "valid fields" messages. */
  fieldNames(): string[];
  sortableNames(): string[];
  defaultSortField: SearchField;
}

const namesOf = (field: SearchField) => [field.name, ...(field.aliases ?? [])];

/** Validates the definition once at load time and indexes fields by lower-cased name and alias. */
export function defineSearchResource(definition: SearchResourceDefinition): SearchResource {
  const byName = new Map<string, SearchField>();
  for (const field of definition.fields) {
    for (const name of namesOf(field)) {
      const key = name.toLowerCase();
      if (byName.has(key)) throw new Error(`search field ${definition.name}.${name} is defined twice`);
      byName.set(key, field);
    }
  }
  const defaultSortField = byName.get(definition.defaultSort.toLowerCase());
  if (!defaultSortField?.sortable) throw new Error(`default sort ${definition.name}.${definition.defaultSort} must be a sortable field`);
  return {
    ...definition,
    defaultSortField,
    field: (name) => byName.get(name.toLowerCase()),
    fieldNames: () => definition.fields.flatMap(namesOf),
    sortableNames: () => definition.fields.filter((f) => f.sortable).flatMap(namesOf),
  };
}
