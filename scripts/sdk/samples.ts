import { pyLiteral, pythonNames } from "./python";

/**
 * The SDKs' code samples of each operation of sdks/openapi.json, for the portal's API references (beside curl): the
 * TypeScript SDK's typed call and the Python SDK's method, with the document's example values. `npm run sdk:test`
 * type-checks every TypeScript sample with the SDK and compiles every Python one.
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is untyped JSON, read field by field.
type Json = any;

export interface SdkSample {
  typescript: string;
  python: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function resolve(document: Json, schema: Json): Json {
  let node = schema;
  for (let depth = 0; node?.$ref && depth < 10; depth++) {
    node = node.$ref
      .slice(2)
      .split("/")
      .reduce((at: Json, key: string) => at?.[key], document);
  }
  return node;
}

/** A value for a parameter: its example, its schema's, else a placeholder of its type. */
function exampleOf(document: Json, parameter: Json): unknown {
  const schema = resolve(document, parameter.schema) ?? {};
  if (parameter.example !== undefined) return parameter.example;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  return schema.type === "integer" || schema.type === "number" ? 1 : parameter.name;
}

/**
 * An example body of a schema that has none of its own: its required properties, each from its own example, enum,
 * default or format, else a value of its type (a date where a date is asked).
 */
function exampleFromSchema(document: Json, given: Json, depth = 0): unknown {
  const schema = resolve(document, given) ?? {};
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.find((s: Json) => resolve(document, s)?.type !== "null");
  if (variant) return exampleFromSchema(document, variant, depth + 1);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part: Json) => exampleFromSchema(document, part, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  if (depth > 6) return type === "array" ? [] : type === "object" ? {} : null;
  if (type === "object" || schema.properties) {
    const required: string[] = schema.required ?? [];
    return Object.fromEntries(required.map((name) => [name, exampleFromSchema(document, schema.properties?.[name], depth + 1)]));
  }
  if (type === "array") return [exampleFromSchema(document, schema.items, depth + 1)];
  if (type === "integer" || type === "number") return schema.minimum ?? 1;
  if (type === "boolean") return true;
  if (schema.format === "date") return "2026-12-20";
  if (schema.format === "date-time") return "2026-12-20T09:00:00Z";
  if (schema.format === "uri") return "https://erp.example.org/medparts/webhooks";
  return "text";
}

/** A JSON value as a Python literal: dicts and lists a key or an item a line. */
export function pythonLiteral(value: unknown, indent = ""): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join("\n")}\n${indent}]`;
  }
  if (value === null || typeof value !== "object") return pyLiteral(value ?? null);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join("\n")}\n${indent}}`;
}

/** A JSON value as a TypeScript literal, indented for its place in a call. */
const tsLiteral = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);

export function sdkSamples(document: Json): Record<string, SdkSample> {
  const python = pythonNames(document);
  const samples: Record<string, SdkSample> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    if (!path.startsWith("/customer/api/") && !path.startsWith("/vendor/api/")) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const names = python[operation.operationId];
      if (!names) throw new Error(`the Python SDK has no method for ${operation.operationId}`);
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => resolve(document, p));
      const pathParams = parameters.filter((p: Json) => p.in === "path");
      const queryParams = parameters.filter((p: Json) => p.in === "query" && p.required);
      const content = operation.requestBody?.content ?? {};
      const json = content["application/json"];
      const raw = !json && Object.keys(content).length > 0;
      const body = json ? (json.example ?? exampleFromSchema(document, json.schema)) : undefined;

      const params = [
        pathParams.length > 0 &&
          `path: { ${pathParams.map((p: Json) => `${p.name}: ${JSON.stringify(exampleOf(document, p))}`).join(", ")} }`,
        queryParams.length > 0 &&
          `query: { ${queryParams.map((p: Json) => `${JSON.stringify(p.name)}: ${JSON.stringify(exampleOf(document, p))}`).join(", ")} }`,
      ].filter(Boolean);
      const init = [
        params.length > 0 && `  params: { ${params.join(", ")} },`,
        body !== undefined && `  body: ${tsLiteral(body, "  ")},`,
        raw && "  body: fileBytes as never, // the file's bytes, sent as they are",
      ].filter(Boolean);
      const call = `medparts.${method.toUpperCase()}(${JSON.stringify(path)}${init.length > 0 ? `, {\n${init.join("\n")}\n}` : ""})`;
      const typescript = `const data = await ${call};`;

      const args = [
        ...pathParams.map((p: Json) => JSON.stringify(exampleOf(document, p))),
        ...(body !== undefined ? [pythonLiteral(body)] : []),
        ...(raw ? ["content=file_bytes"] : []),
        ...queryParams.map((p: Json) => `${names.params[p.name]}=${pythonLiteral(exampleOf(document, p))}`),
      ];
      samples[`${method.toUpperCase()} ${path}`] = { typescript, python: `data = client.${names.method}(${args.join(", ")})` };
    }
  }
  return samples;
}
