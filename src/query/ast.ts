/**
 * The `q` language (spec 4.13) as data: `<clause> [AND <clause>]*`, clause = `[-]<field><operator><value>`.
 * The tree is purely syntactic: field names are kept as written and values are not yet interpreted;
 * src/query/compile.ts checks them against a resource's field registry.
 */

export const OPERATORS = [":", "~", ">=", "<=", ">", "<"] as const;
export type Operator = (typeof OPERATORS)[number];

export type Value =
  /** A double-quoted string, unescaped. */
  | { kind: "string"; value: string }
  /** A bare number, as written: `12`, `-3`, `19.95`. */
  | { kind: "number"; text: string }
  /** Any other bare word, e.g. a token such as `GROUND`. */
  | { kind: "word"; text: string }
  /** The bare keyword `null` (any case). */
  | { kind: "null" };

export interface Clause {
  negated: boolean;
  field: string;
  operator: Operator;
  value: Value;
}

export interface Query {
  clauses: Clause[];
}

export const MAX_CLAUSES = 10;

export const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
