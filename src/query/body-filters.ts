import { z } from "@hono/zod-openapi";
import { closedObject } from "../platform/schemas";
import type { Clause, Operator, Query } from "./ast";
import type { SearchField, SearchResource } from "./fields";
import { MIN_SUBSTRING_LENGTH } from "./operands";

/**
 * Filters of a POST search body (spec 4.14), e.g. `{ "email": "a@b.example", "lastNameContains": "smi" }`.
 * Each filter is one clause of the q language on a registry field, so POST and GET share one compiler
 * and one meaning. Filter values are validated by zod (400 validation form naming the filter).
 */
export interface BodyFilter {
  field: string;
  operator: Extract<Operator, ":" | "~">;
}

/** For every field of the resource: `<field>` (`:`), and for String fields also `<field>Contains` (`~`). */
export function bodyFiltersFor(resource: SearchResource, fieldNames: readonly string[]): Record<string, BodyFilter> {
  return Object.fromEntries(
    fieldNames.flatMap((name) => {
      const field = resource.field(name);
      if (!field) throw new Error(`unknown search field ${resource.name}.${name}`);
      const exact: [string, BodyFilter] = [field.name, { field: field.name, operator: ":" }];
      const contains: [string, BodyFilter] = [`${field.name}Contains`, { field: field.name, operator: "~" }];
      return field.type === "String" ? [exact, contains] : [exact];
    }),
  );
}

const MAX_FILTER_LENGTH = 200;

function valueSchema(field: SearchField, filter: BodyFilter) {
  if (field.type === "Numeric") return z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional();
  const text = z.string().min(1, "Must not be empty.").max(MAX_FILTER_LENGTH, `Must be at most ${MAX_FILTER_LENGTH} characters.`);
  const checked =
    filter.operator === "~"
      ? text
          .refine((v) => [...v].length >= MIN_SUBSTRING_LENGTH, `A substring filter needs at least ${MIN_SUBSTRING_LENGTH} characters.`)
          .openapi({ minLength: MIN_SUBSTRING_LENGTH })
      : text;
  return checked.optional();
}

/** The zod schema of the `filters` object; unknown filter names are refused rather than ignored. */
export function bodyFiltersSchema(resource: SearchResource, filters: Record<string, BodyFilter>) {
  const shape = Object.fromEntries(
    Object.entries(filters).map(([name, filter]) => {
      const field = resource.field(filter.field)!;
      const description =
        filter.operator === "~"
          ? `${field.name} contains (case-insensitive, ${MIN_SUBSTRING_LENGTH}+ characters)`
          : `${field.name} equals (case-insensitive)`;
      return [name, valueSchema(field, filter).openapi({ description })];
    }),
  );
  return closedObject(shape);
}

/** The q-language query equivalent to the given filter values (absent values are no clause). */
export function queryFromFilters(filters: Record<string, BodyFilter>, values: Record<string, unknown>): Query {
  const clauses: Clause[] = [];
  for (const [name, filter] of Object.entries(filters)) {
    const value = values[name];
    if (value === undefined) continue;
    clauses.push({
      negated: false,
      field: filter.field,
      operator: filter.operator,
      value: typeof value === "number" ? { kind: "number", text: String(value) } : { kind: "string", value: String(value) },
    });
  }
  return { clauses };
}
