import { and, eq, gt, gte, isNotNull, isNull, lt, lte, not, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Clause, Operator, Query } from "./ast";
import { queryError } from "./errors";
import { OPERATORS_BY_TYPE, type SearchField, type SearchResource } from "./fields";
import { dateTimeOperand, numericOperand, substringOperand, textOperand } from "./operands";
import { printClause } from "./printer";

/**
 * Compiles a parsed query into one SQL condition (undefined for an empty query) with every value a
 * bound parameter. Clauses are ANDed. Semantics, per clause:
 * - `:` on Token/String: case-insensitive equality of the whole value (SQLite NOCASE: ASCII letters).
 * - `~`: case-insensitive substring (`instr` on lower-cased text: any operand length, no wildcard characters).
 * - Numeric and DateTime: `:` equality, `> < >= <=` ranges; a date covers its whole UTC day.
 * - `field:null` matches a missing value (or what the field defines as missing), `-field:null` a present one.
 * - `-clause` is the exact complement of `clause`: it also matches records where the field is
 *   missing (NULL), which the positive clause can never match.
 * - Fields in related rows (a user's companies) match when any related row matches; negated, when none does.
 */
export function compileQuery(resource: SearchResource, query: Query): SQL | undefined {
  return and(...query.clauses.map((clause) => compileClause(resource, clause)));
}

function resolveField(resource: SearchResource, name: string): SearchField {
  const field = resource.field(name);
  if (!field) {
    throw queryError(`Unknown field '${name}' for ${resource.name}. Valid fields: ${resource.fieldNames().join(", ")}.`);
  }
  return field;
}

function compileClause(resource: SearchResource, clause: Clause): SQL {
  const field = resolveField(resource, clause.field);
  const allowed = OPERATORS_BY_TYPE[field.type];
  if (!allowed.includes(clause.operator)) {
    throw queryError(
      `In '${printClause(clause)}': operator '${clause.operator}' is not supported for '${field.name}', a ${field.type} field; use ${allowed.map((o) => `'${o}'`).join(", ")}.`,
    );
  }
  if (clause.value.kind === "null") return nullCheck(field, clause);
  const positive = onRow(field, predicate(field, clause));
  // NOT over a NULL result is still NULL (no match); coalescing makes negation the exact complement.
  return clause.negated ? not(sql`coalesce(${positive}, 0)`) : positive;
}

function nullCheck(field: SearchField, clause: Clause): SQL {
  if (clause.operator !== ":") {
    throw queryError(
      `In '${printClause(clause)}': null only works with ':' (${field.name}:null matches a missing value, -${field.name}:null a present one).`,
    );
  }
  // A related field is present when a related row has a value, and missing otherwise (unless the field says more).
  const present = onRow(field, isNotNull(field.column));
  if (clause.negated) return present;
  return field.missing ?? (field.related ? not(present) : isNull(field.column));
}

function onRow(field: SearchField, condition: SQL): SQL {
  return field.related ? field.related(condition) : condition;
}

function predicate(field: SearchField, clause: Clause): SQL {
  const { column } = field;
  switch (field.type) {
    case "Token":
    case "String":
      if (clause.operator === "~") {
        // instr, not LIKE: D1 refuses LIKE patterns over 50 bytes, and no character of the operand is special.
        return sql`instr(lower(${column}), lower(${substringOperand(field, clause)})) > 0`;
      }
      return sql`${column} = ${textOperand(field, clause)} collate nocase`;
    case "Numeric":
      return compare(column, clause.operator, numericOperand(field, clause));
    case "DateTime": {
      const operand = dateTimeOperand(field, clause);
      const { isDay } = operand;
      // A column of calendar days compares with days: the day an instant falls on is that day's text, and before it.
      const [start, end] = field.day ? [operand.start.slice(0, 10), operand.end.slice(0, 10)] : [operand.start, operand.end];
      if (!isDay) return compare(column, clause.operator, field.day ? operand.start : start);
      switch (clause.operator) {
        case ":":
          return and(gte(column, start), lt(column, end))!;
        case ">":
          return gte(column, end);
        case ">=":
          return gte(column, start);
        case "<":
          return lt(column, start);
        case "<=":
          return lt(column, end);
        case "~":
          throw new Error("unreachable: ~ is rejected for DateTime");
      }
    }
  }
}

function compare(column: SQLiteColumn, operator: Operator, value: number | string): SQL {
  switch (operator) {
    case ":":
      return eq(column, value);
    case ">":
      return gt(column, value);
    case ">=":
      return gte(column, value);
    case "<":
      return lt(column, value);
    case "<=":
      return lte(column, value);
    case "~":
      throw new Error("unreachable: ~ is rejected for this field type");
  }
}
