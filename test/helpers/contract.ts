import { SELF } from "cloudflare:test";
import { dereference, type Schema, Validator, validate } from "@cfworker/json-schema";
import { createApp } from "../../src/api/app";
import { createAdminApp } from "../../src/operator/app";
import { HTTP_METHODS, type HttpMethod, type OpenApiDocument } from "../../src/platform/openapi/document";
import { isApiVersion } from "../../src/platform/versions/calendar";
import { API, call, OUTSIDE_API } from "./api";

/**
 * Contract checks against the served OpenAPI document (GET /customer/api/openapi.json): what an
 * integrator's generated client relies on. Usage in any endpoint test:
 *
 *   const res = await call(token, "/users/lookup?userId=1");
 *   await expectMatchesContract(res, "GET", "/users/lookup?userId=1");
 *
 * `path` is written as for `call()` (relative to /customer/api unless it starts with /auth or /health;
 * query strings are ignored) and is matched against the documented path templates. The response must
 * have a documented status, a documented media type, a body valid against that status's JSON Schema
 * (2020-12, $refs into components resolved), every header the document marks required, and a value
 * valid against its schema for every documented header it sends.
 * The body is read from a clone, so the test can still read `res` afterwards.
 */

const DOCUMENT_ID = "https://contract.medparts.test/openapi.json";

const documents = new Map<string, Promise<OpenApiDocument>>();

/** The served document (of an API version, default the latest), fetched once per test file. */
export function servedDocument(version?: string): Promise<OpenApiDocument> {
  const key = version ?? "latest";
  let document = documents.get(key);
  if (!document) {
    document = (async () => {
      const res = await SELF.fetch(`${API}/openapi.json${version ? `?version=${version}` : ""}`);
      if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
      return (await res.json()) as OpenApiDocument;
    })();
    documents.set(key, document);
  }
  return document;
}

export interface DocumentedOperation {
  method: HttpMethod;
  path: string;
  operation: NonNullable<NonNullable<OpenApiDocument["paths"]>[string]["get"]>;
}

export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [{ method, path, operation: item[method]! }] : [])),
  );
}

function absolutePath(path: string): string {
  const bare = path.startsWith("http") ? new URL(path).pathname : path.split("?")[0]!;
  if (path.startsWith("http") || OUTSIDE_API.test(bare) || bare.startsWith(new URL(API).pathname)) return bare;
  return new URL(API).pathname + bare;
}

const templateMatcher = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^/}]+\}/g, "[^/]+")}$`);

/** The documented operation a request answers (`path` written as for `call()`); throws when the document has none. */
export function documentedOperation(document: OpenApiDocument, method: string, path: string): DocumentedOperation {
  const wanted = absolutePath(path);
  const found = operationsOf(document).find((o) => o.method === method.toLowerCase() && templateMatcher(o.path).test(wanted));
  if (!found) throw new Error(`${method.toUpperCase()} ${wanted} is not in the OpenAPI document`);
  return found;
}

function resolve<T>(document: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === "object" && "$ref" in value) {
    const pointer = value.$ref.replace(/^#\//, "").split("/");
    let node: unknown = document;
    for (const part of pointer) node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    return node as T;
  }
  return value as T;
}

interface HeaderObject {
  required?: boolean;
  schema?: { type?: string };
}

/** A header's text as the value its schema describes (headers are strings on the wire). */
const headerValue = (text: string, schema: { type?: string }): unknown =>
  (schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** An answer is checked against the document of the version it says it is in (Medparts-Version), else the latest. */
export async function expectMatchesContract(res: Response, method: string, path: string, template?: string): Promise<void> {
  const stated = res.headers.get("Medparts-Version");
  const document = await servedDocument(stated !== null && isApiVersion(stated) ? stated : undefined);
  // `template`: the operation the request was made for, when its path cannot show it (an empty path parameter).
  const found = template
    ? operationsOf(document).find((o) => o.method === method.toLowerCase() && o.path === template)!
    : documentedOperation(document, method, path);
  const where = `${method.toUpperCase()} ${absolutePath(path)}`;

  const status = String(res.status);
  const responses = found.operation.responses ?? {};
  const statusKey = [status, `${status[0]}XX`, "default"].find((k) => responses[k]);
  if (!statusKey) throw new Error(`${where}: status ${status} is not documented (documented: ${Object.keys(responses).join(", ")})`);
  const response = resolve(document, responses[statusKey]!);

  for (const [name, declared] of Object.entries(response.headers ?? {})) {
    const header = resolve<HeaderObject>(document, declared as HeaderObject);
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) throw new Error(`${where} ${status}: required header ${name} is missing`);
      continue;
    }
    if (header.schema && !new Validator(header.schema as Schema, "2020-12").validate(headerValue(value, header.schema)).valid) {
      throw new Error(`${where} ${status}: header ${name}: ${value} does not match its schema ${JSON.stringify(header.schema)}`);
    }
  }

  const body = await res.clone().text();
  const content = response.content ?? {};
  if (Object.keys(content).length === 0) {
    if (body.length > 0) throw new Error(`${where} ${status}: documented without a body, got ${body.slice(0, 200)}`);
    return;
  }
  const mediaType = (res.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!content[mediaType]) {
    throw new Error(
      `${where} ${status}: Content-Type ${mediaType || "(none)"} is not documented (documented: ${Object.keys(content).join(", ")})`,
    );
  }
  const pointer = ["paths", found.path, found.method, "responses", statusKey, "content", mediaType, "schema"].map(escapePointer).join("/");
  // JSON bodies are validated as values; others (the cXML endpoint's text/xml) as the text the schema describes.
  const result = validateAgainst(document, `#/${pointer}`, /json$/.test(mediaType) ? JSON.parse(body) : body);
  if (!result.valid) {
    const errors = result.errors.map((e) => `${e.instanceLocation}: ${e.error}`).join("\n  ");
    throw new Error(`${where} ${status}: body does not match the documented schema:\n  ${errors}\nbody: ${body.slice(0, 500)}`);
  }
}

/** Schemas by their URI, as the validator resolves `$ref`s. */
type SchemaLookup = Record<string, Schema | boolean>;

/** Every schema of a document by its URI, resolved once: a validator per pointer reads them, it does not resolve them again. */
const lookups = new WeakMap<OpenApiDocument, SchemaLookup>();
const roots = new WeakMap<OpenApiDocument, Map<string, { schema: Schema; lookup: SchemaLookup }>>();

/**
 * Validates a value against a schema of the document by JSON pointer, e.g. `#/components/schemas/User`. The document is
 * dereferenced once (walking it is most of a validation's cost: 11 of the contract fuzzer's 30 s when each pointer
 * dereferenced it again); each pointer's root schema is resolved into a lookup that falls back on the document's.
 */
export function validateAgainst(document: OpenApiDocument, pointer: string, value: unknown) {
  let ofDocument = roots.get(document);
  if (!ofDocument) {
    ofDocument = new Map();
    roots.set(document, ofDocument);
    lookups.set(document, dereference({ ...document, $id: DOCUMENT_ID } as unknown as Schema));
  }
  let root = ofDocument.get(pointer);
  if (!root) {
    const schema: Schema = { $ref: `${DOCUMENT_ID}${pointer}` };
    root = { schema, lookup: dereference(schema, Object.create(lookups.get(document)!) as SchemaLookup) };
    ofDocument.set(pointer, root);
  }
  return validate(value, root.schema, "2020-12", root.lookup, false);
}

/** `call()` whose response must match the OpenAPI document (see expectMatchesContract). */
export async function contractCall(token: string | null, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const res = await call(token, path, init);
  await expectMatchesContract(res, init.method ?? "GET", path);
  return res;
}

/**
 * Every route the service answers, as `method /path/{param}`: the API Worker's app and the operator plane's (its own
 * Worker behind the ADMIN binding), whose document is part of the API's; the operator plane's own copy of the
 * document at /admin/api/openapi.json is not a second contract.
 */
export function servedRoutes(): Set<string> {
  // The PunchOut shop's pages (/punchout) are for a person in a browser, not API operations (docs/api.md describes them);
  // /__procurement and /__edi are the operator plane's internal routes, reachable over the ADMIN binding only; /as2 is
  // AS2 (RFC 4130: MIME messages and MDNs, docs/as2.md), not an API operation; the order desk (/desk) is pages and the
  // browser's passkey ceremonies (docs/desk.md).
  const routes = [
    ...createApp().routes,
    ...createAdminApp().routes.filter(
      (r) =>
        r.path !== "/admin/api/openapi.json" &&
        !r.path.startsWith("/punchout/") &&
        !r.path.startsWith("/__procurement/") &&
        !r.path.startsWith("/__edi/") &&
        r.path !== "/desk" &&
        !r.path.startsWith("/desk/") &&
        r.path !== "/as2",
    ),
  ];
  return new Set(
    routes.filter((r) => r.method !== "ALL").map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`),
  );
}
