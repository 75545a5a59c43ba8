import type { Clause, Query, Value } from "./ast";

/** Canonical text of a query: parsing the result gives the same tree back. */
export function printQuery(query: Query): string {
  return query.clauses.map(printClause).join(" AND ");
}

export function printClause(clause: Clause): string {
  return `${clause.negated ? "-" : ""}${clause.field}${clause.operator}${printValue(clause.value)}`;
}

export function printValue(value: Value): string {
  switch (value.kind) {
    case "string":
      return quote(value.value);
    case "number":
    case "word":
      return value.text;
    case "null":
      return "null";
  }
}

export function quote(text: string): string {
  return `"${text.replace(/["\\]/g, "\\$&")}"`;
}
