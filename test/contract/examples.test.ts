import { dereference, type Schema, validate } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../src/platform/openapi/document";
import { servedDocument } from "../helpers/contract";

/**
 * Real examples everywhere (the portal's references and Try-it show them, generated clients copy them): every string
 * schema with a pattern has an example, every example validates against its own schema, and of parameters documented
 * as "Exactly one of A and B" at most one is filled in, so that Try-it never sends both.
 */

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);
const escapePointer = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");
const SUBSCHEMAS_BY_NAME = ["properties", "patternProperties", "$defs"] as const;
const SUBSCHEMA = ["items", "additionalProperties", "not", "contains", "propertyNames"] as const;
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;

interface Finding {
  pointer: string;
  problem: string;
}

/** Every schema under `schema` (itself included), with its JSON pointer. */
function* schemasIn(schema: unknown, pointer: string): Generator<[Node, string]> {
  if (!isObject(schema)) return;
  yield [schema, pointer];
  for (const key of SUBSCHEMAS_BY_NAME)
    if (isObject(schema[key]))
      for (const [name, sub] of Object.entries(schema[key])) yield* schemasIn(sub, `${pointer}/${key}/${escapePointer(name)}`);
  for (const key of SUBSCHEMA) yield* schemasIn(schema[key], `${pointer}/${key}`);
  for (const key of SUBSCHEMA_LISTS)
    if (Array.isArray(schema[key])) for (const [i, sub] of schema[key].entries()) yield* schemasIn(sub, `${pointer}/${key}/${i}`);
}

/** The schemas of the document (each with its pointer), and the examples given beside a schema (parameters, bodies). */
function walk(document: OpenApiDocument): {
  schemas: [Node, string][];
  examples: { value: unknown; schemaPointer: string; pointer: string }[];
} {
  const schemas: [Node, string][] = [];
  const examples: { value: unknown; schemaPointer: string; pointer: string }[] = [];
  const holder = (node: unknown, pointer: string) => {
    // A parameter, header or media type: its schema, and its own example(s) of that schema.
    if (!isObject(node) || !isObject(node.schema)) return;
    schemas.push(...schemasIn(node.schema, `${pointer}/schema`));
    if ("example" in node) examples.push({ value: node.example, schemaPointer: `${pointer}/schema`, pointer: `${pointer}/example` });
    if (isObject(node.examples))
      for (const [name, example] of Object.entries(node.examples))
        if (isObject(example) && "value" in example)
          examples.push({
            value: example.value,
            schemaPointer: `${pointer}/schema`,
            pointer: `${pointer}/examples/${escapePointer(name)}`,
          });
  };
  const operation = (op: unknown, pointer: string) => {
    if (!isObject(op)) return;
    for (const [i, parameter] of (Array.isArray(op.parameters) ? op.parameters : []).entries())
      holder(parameter, `${pointer}/parameters/${i}`);
    const body = op.requestBody;
    if (isObject(body) && isObject(body.content))
      for (const [type, media] of Object.entries(body.content)) holder(media, `${pointer}/requestBody/content/${escapePointer(type)}`);
    if (isObject(op.responses))
      for (const [status, response] of Object.entries(op.responses)) {
        if (!isObject(response)) continue;
        const at = `${pointer}/responses/${status}`;
        if (isObject(response.content))
          for (const [type, media] of Object.entries(response.content)) holder(media, `${at}/content/${escapePointer(type)}`);
        if (isObject(response.headers))
          for (const [name, header] of Object.entries(response.headers)) holder(header, `${at}/headers/${escapePointer(name)}`);
      }
  };
  for (const group of ["paths", "webhooks"] as const)
    for (const [path, item] of Object.entries((document[group] ?? {}) as Record<string, Node>))
      for (const [method, op] of Object.entries(item)) operation(op, `#/${group}/${escapePointer(path)}/${method}`);
  const components = (document.components ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [name, schema] of Object.entries(components.schemas ?? {}))
    schemas.push(...schemasIn(schema, `#/components/schemas/${escapePointer(name)}`));
  for (const kind of ["parameters", "headers"])
    for (const [name, node] of Object.entries(components[kind] ?? {})) holder(node, `#/components/${kind}/${escapePointer(name)}`);
  return { schemas, examples };
}

const BASE = "https://examples.medparts.test/openapi.json";

/** `schema` with its document-relative references made absolute, so that it can be validated on its own. */
const absolute = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(absolute)
    : isObject(value)
      ? Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#") ? BASE + v : absolute(v)]),
        )
      : value;

/** Validates `value` against the schema at `pointer` (anywhere in the document, paths included). */
function validator(served: OpenApiDocument): (pointer: string, value: unknown) => string[] {
  // dereference marks the schemas it indexes: a copy, so that the document other tests validate with stays as served.
  const document = structuredClone(served);
  const lookup = dereference(document as unknown as Schema, Object.create(null), new URL(BASE));
  return (pointer, value) => {
    const parts = pointer
      .slice(2)
      .split("/")
      .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    const schema = parts.reduce<unknown>((at, part) => (isObject(at) || Array.isArray(at) ? (at as Node)[part] : undefined), document);
    const result = validate(value, absolute(schema) as Schema, "2020-12", lookup, false);
    return result.valid ? [] : result.errors.map((e) => `${e.instanceLocation} ${e.error}`);
  };
}

/** A parameter pointer's holder (a parameter, header or media type) when `pointer` is its schema. */
const holderOf = (document: OpenApiDocument, pointer: string): Node | undefined => {
  if (!pointer.endsWith("/schema")) return undefined;
  const parts = pointer
    .slice(2, -"/schema".length)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const node = parts.reduce<unknown>((at, part) => (isObject(at) || Array.isArray(at) ? (at as Node)[part] : undefined), document);
  return isObject(node) ? node : undefined;
};

function findings(document: OpenApiDocument): Finding[] {
  const { schemas, examples } = walk(document);
  const refused = validator(document);
  const found: Finding[] = [];
  for (const [schema, pointer] of schemas) {
    const given = "example" in schema || (Array.isArray(schema.examples) && schema.examples.length > 0);
    const holder = holderOf(document, pointer);
    const byHolder = holder !== undefined && ("example" in holder || isObject(holder.examples));
    if (typeof schema.pattern === "string" && !given && !byHolder && !exclusiveWithout(holder))
      found.push({ pointer, problem: `a string with pattern ${schema.pattern} and no example` });
    const values = [...("example" in schema ? [schema.example] : []), ...(Array.isArray(schema.examples) ? schema.examples : [])];
    for (const value of values) {
      const errors = refused(pointer, value);
      if (errors.length > 0)
        found.push({ pointer, problem: `example ${JSON.stringify(value)?.slice(0, 80)} refused: ${errors.join("; ")}` });
    }
  }
  for (const { value, schemaPointer, pointer } of examples) {
    const errors = refused(schemaPointer, value);
    if (errors.length > 0) found.push({ pointer, problem: `example ${JSON.stringify(value)?.slice(0, 80)} refused: ${errors.join("; ")}` });
  }
  return found;
}

/** A parameter documented as the alternative of another ("Exactly one of A and B"), which must stay empty in Try-it. */
const EXCLUSIVE = /Exactly one of `?(\w+)`? and `?(\w+)`?/;
function exclusiveWithout(holder: Node | undefined): boolean {
  const match = typeof holder?.description === "string" ? EXCLUSIVE.exec(holder.description) : null;
  return match !== null && holder?.name === match[2];
}

function exclusiveParametersFilledIn(document: OpenApiDocument): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, op] of Object.entries(item as Record<string, Node>)) {
      const parameters = (Array.isArray(op?.parameters) ? op.parameters : []) as Node[];
      const filled = (name: string) => {
        const p = parameters.find((parameter) => parameter.name === name);
        const schema = isObject(p?.schema) ? p.schema : {};
        return p !== undefined && ("example" in p || isObject(p.examples) || "example" in schema || "default" in schema);
      };
      for (const parameter of parameters) {
        const match = typeof parameter.description === "string" ? EXCLUSIVE.exec(parameter.description) : null;
        if (match && filled(match[1]!) && filled(match[2]!)) found.push(`${method.toUpperCase()} ${path}: ${match[1]} and ${match[2]}`);
      }
    }
  return [...new Set(found)];
}

describe("examples in the OpenAPI document", () => {
  it("every string with a pattern has an example, and every example validates against its own schema, at every version", async () => {
    for (const version of [undefined, "2026-11-23"]) {
      const problems = findings(await servedDocument(version));
      expect(problems.map((f) => `${f.pointer}: ${f.problem}`)).toEqual([]);
    }
  });

  it("never fills in both of two parameters documented as mutually exclusive", async () => {
    const document = await servedDocument();
    expect(exclusiveParametersFilledIn(document)).toEqual([]);
    // The convention is in use: the lookup documents it, so the check above has something to check.
    const lookup = (document.paths?.["/customer/api/users/lookup"]?.get?.parameters ?? []) as unknown as Node[];
    expect(lookup.filter((p) => typeof p.description === "string" && EXCLUSIVE.test(p.description))).toHaveLength(2);
  });

  it("the check fails on what it must catch: a pattern without an example, an example its schema refuses, both exclusive parameters filled", async () => {
    const document = structuredClone(await servedDocument()) as OpenApiDocument & { components: { schemas: Record<string, Node> } };
    document.components.schemas.Probe = {
      type: "object",
      properties: { code: { type: "string", pattern: "^[A-Z]{3}$" }, size: { type: "integer", minimum: 1, example: 0 } },
    };
    const problems = findings(document).filter((f) => f.pointer.startsWith("#/components/schemas/Probe"));
    expect(problems.map((f) => f.pointer).sort()).toEqual([
      "#/components/schemas/Probe/properties/code",
      "#/components/schemas/Probe/properties/size",
    ]);
    const lookup = document.paths!["/customer/api/users/lookup"]!.get!.parameters as unknown as Node[];
    for (const parameter of lookup) parameter.example = parameter.name === "userId" ? 1 : "jsmith";
    expect(exclusiveParametersFilledIn(document)).toEqual(["GET /customer/api/users/lookup: userId and loginUserId"]);
  });
});
