import fc from "fast-check";

/**
 * fast-check arbitraries for the JSON Schema (2020-12 subset) that the served OpenAPI document uses: what a
 * document-driven fuzzer (Schemathesis-style) sends. Every value it yields is valid against the schema, so a
 * refusal of one is the server enforcing something the document does not say. Documented `example`s are
 * offered often, because they are the values that reach past the access checks (the demo tenant's ids).
 * Unsupported keywords throw, so a new construct in the document cannot be fuzzed wrongly in silence.
 */

export interface JsonSchema {
  $ref?: string;
  discriminator?: { propertyName: string };
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minProperties?: number;
  dependentRequired?: Record<string, string[]>;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  example?: unknown;
  default?: unknown;
  description?: string;
}

const HANDLED = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "required",
  "minProperties",
  "dependentRequired",
  "additionalProperties",
  "anyOf",
  "oneOf",
  // An annotation of a oneOf whose alternatives each fix the property to its own value: the alternatives say it all.
  "discriminator",
  "example",
  "examples",
  "default",
  "description",
  "title",
]);

/** Long strings add run time, not coverage: the document's limits are checked at their edges by other tests. */
const GENERATED_STRING_LENGTH = 40;
const GENERATED_ARRAY_LENGTH = 4;
/** Property names no schema declares, for objects that allow them (additionalProperties not false). */
const EXTRA_PROPERTY_NAMES = ["extra", "x-vendor-note", "_links", "Comment"];

export type Resolver = (ref: string) => JsonSchema;

export function schemaArbitrary(schema: JsonSchema, resolve: Resolver): fc.Arbitrary<unknown> {
  if (schema.$ref) return schemaArbitrary(resolve(schema.$ref), resolve);
  const unknown = Object.keys(schema).filter((k) => !HANDLED.has(k));
  if (unknown.length > 0) throw new Error(`schemaArbitrary: unsupported keywords ${unknown.join(", ")} in ${JSON.stringify(schema)}`);

  const generated = generatedArbitrary(schema, resolve);
  return schema.example === undefined ? generated : fc.oneof({ arbitrary: fc.constant(schema.example), weight: 1 }, generated);
}

function generatedArbitrary(schema: JsonSchema, resolve: Resolver): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    // A value matches one alternative only: distinct simple types, or objects told apart by a discriminator's constant.
    const exclusive = schema.discriminator !== undefined || alternatives.every((a) => a.type && !Array.isArray(a.type));
    if (schema.oneOf && alternatives.length > 1 && !exclusive) {
      throw new Error("schemaArbitrary: oneOf is only supported over distinct simple types, or with a discriminator");
    }
    return fc.oneof(...alternatives.map((a) => schemaArbitrary(a, resolve)));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  // No type: any JSON value (e.g. POST search pagination, which the server corrects instead of refusing).
  // Any JSON value, but one with a `__proto__` key, which every JSON body refuses wherever it is
  // (src/platform/well-formed-text.ts): fast-check's jsonValue makes one now and then.
  if (types.length === 0) {
    return fc.jsonValue({ maxDepth: 2, stringUnit: "grapheme" }).filter((value) => !JSON.stringify(value).includes('"__proto__":'));
  }
  return fc.oneof(...types.map((type) => typedArbitrary(type, schema, resolve)));
}

function typedArbitrary(type: string, schema: JsonSchema, resolve: Resolver): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return fc.integer({
        min: Math.max(
          schema.minimum ?? Number.MIN_SAFE_INTEGER,
          schema.exclusiveMinimum === undefined ? -Infinity : schema.exclusiveMinimum + 1,
        ),
        max: Math.min(
          schema.maximum ?? Number.MAX_SAFE_INTEGER,
          schema.exclusiveMaximum === undefined ? Infinity : schema.exclusiveMaximum - 1,
        ),
      });
    case "number":
      return numberArbitrary(schema);
    case "array":
      if (!schema.items) throw new Error("schemaArbitrary: array without items");
      {
        const lengths = {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? GENERATED_ARRAY_LENGTH, Math.max(schema.minItems ?? 0, GENERATED_ARRAY_LENGTH)),
        };
        const items = schemaArbitrary(schema.items, resolve);
        return schema.uniqueItems
          ? fc.uniqueArray(items, { ...lengths, selector: (item) => JSON.stringify(item) })
          : fc.array(items, lengths);
      }
    case "object":
      return objectArbitrary(schema, resolve);
    default:
      throw new Error(`schemaArbitrary: unsupported type ${type}`);
  }
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? GENERATED_STRING_LENGTH, Math.max(minLength, GENERATED_STRING_LENGTH));
  // Dates first: a format's own generator yields real dates, which also match the looser pattern zod documents with it.
  const dates = fc.date({ noInvalidDate: true, min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z") });
  if (schema.format === "date-time") return dates.map((d) => d.toISOString());
  if (schema.format === "date") return dates.map((d) => d.toISOString().slice(0, 10));
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((s) => [...s].length >= minLength && [...s].length <= (schema.maxLength ?? Infinity));
  }
  if (schema.format && !["password", "uri", "email", "binary"].includes(schema.format)) {
    throw new Error(`schemaArbitrary: unsupported string format ${schema.format}`);
  }
  // Well-formed Unicode of every plane (graphemes, so no lone surrogates: JSON Schema strings are Unicode text).
  // JSON Schema counts length in code points, as does the server.
  return fc
    .string({ unit: "grapheme", minLength, maxLength: maxLength * 2 })
    .map((s) => [...s].slice(0, maxLength).join(""))
    .filter((s) => [...s].length >= minLength);
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const low = schema.exclusiveMinimum ?? schema.minimum ?? -1e9;
  const high = schema.exclusiveMaximum ?? schema.maximum ?? 1e9;
  if (schema.multipleOf) {
    const step = schema.multipleOf;
    const first = Math.ceil(low / step) + (schema.exclusiveMinimum !== undefined && Math.ceil(low / step) * step === low ? 1 : 0);
    const last = Math.floor(high / step) - (schema.exclusiveMaximum !== undefined && Math.floor(high / step) * step === high ? 1 : 0);
    const decimals = Math.max(0, -Math.floor(Math.log10(step)));
    return fc.integer({ min: first, max: last }).map((n) => Number((n * step).toFixed(decimals)));
  }
  return fc
    .double({ min: low, max: high, noNaN: true, noDefaultInfinity: true })
    .filter(
      (n) =>
        !Object.is(n, -0) &&
        (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
        (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum),
    );
}

/** Whether an object holds what minProperties and dependentRequired ask (both satisfied by most generated objects). */
const holdsCounts = (schema: JsonSchema) => (object: Record<string, unknown>) =>
  Object.keys(object).length >= (schema.minProperties ?? 0) &&
  Object.entries(schema.dependentRequired ?? {}).every(([name, others]) => !(name in object) || others.every((other) => other in object));

function objectArbitrary(schema: JsonSchema, resolve: Resolver): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const declared = fc
    .record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, schemaArbitrary(property, resolve)])), {
      requiredKeys: (schema.required ?? []).filter((name) => name in properties),
    })
    .filter(holdsCounts(schema));
  if (schema.additionalProperties === false) return declared;
  if (typeof schema.additionalProperties === "object") throw new Error("schemaArbitrary: typed additionalProperties");
  const extras = fc.dictionary(fc.constantFrom(...EXTRA_PROPERTY_NAMES.filter((n) => !(n in properties))), fc.jsonValue({ maxDepth: 1 }), {
    maxKeys: 2,
  });
  return fc.tuple(declared, fc.option(extras, { freq: 4, nil: undefined })).map(([object, extra]) => ({ ...extra, ...object }));
}
