import { describe, expect, it } from "vitest";
import { isVersionedPath, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { generatedDocument } from "../helpers/generated-document";

/**
 * The latest version's document, walked whole (issue 71): every documented error of every versioned operation is a
 * problem document, and every amount of money, in any answer, request, component or event, is a decimal string with
 * a `currency` beside it (on its object or an enclosing one). A test per rule, failing with every place that breaks it.
 */

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
};
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
}

const document = (await generatedDocument()) as {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
  webhooks?: Record<string, Record<string, Operation>>;
};
const METHODS = ["get", "put", "post", "delete", "patch"];

/** A member that holds money by its name: a price, an amount, a total, a tax, a charge, a fee. */
const MONEY_NAME = /^(price|amount|total|subtotal|tax|freight)$|(Price|Amount|Total|Charge|Fee|FeePerDay|Cost)$/;
/** Counts that are named like money: a page's `total` (beside limit and offset), byte and row counts. */
const isCount = (name: string, holder: Schema) =>
  (name === "total" && holder.properties?.limit !== undefined) || /^(bytes|rows)Total$/.test(name);

const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.split("/").pop()!]!) : schema);
const typesOf = (schema: Schema): string[] => {
  const resolved = resolve(schema);
  const own = resolved.type === undefined ? [] : Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  return [...own, ...[...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])].flatMap(typesOf)];
};

/** Every amount member under `schema`: where it is, its types, and whether its object or an enclosing one has `currency`. */
function amountsIn(
  schema: Schema,
  where: string,
  currencyAbove: boolean,
  seen = new Set<Schema>(),
): { where: string; types: string[]; currency: boolean }[] {
  const resolved = resolve(schema);
  if (seen.has(resolved)) return [];
  const inner = new Set(seen).add(resolved);
  const variants = [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.allOf ?? [])];
  const found = variants.flatMap((variant) => amountsIn(variant, where, currencyAbove, inner));
  if (resolved.items) found.push(...amountsIn(resolved.items, `${where}[]`, currencyAbove, inner));
  if (typeof resolved.additionalProperties === "object")
    found.push(...amountsIn(resolved.additionalProperties, `${where}{}`, currencyAbove, inner));
  const properties = resolved.properties ?? {};
  const currency = currencyAbove || properties.currency !== undefined;
  for (const [name, property] of Object.entries(properties)) {
    const types = typesOf(property);
    const container = types.length > 0 && types.every((type) => type === "object" || type === "null"); // futurePrice: { price, ... }
    if (MONEY_NAME.test(name) && !isCount(name, resolved) && !container) found.push({ where: `${where}.${name}`, types, currency });
    found.push(...amountsIn(property, `${where}.${name}`, currency, inner));
  }
  return found;
}

/** Every schema of the document an amount can be in: answers and requests of versioned operations, components, webhooks. */
function roots(): [string, Schema, "request" | "answer"][] {
  const found: [string, Schema, "request" | "answer"][] = [];
  const ofOperations = (paths: Record<string, Record<string, Operation>>, versioned: (path: string) => boolean) => {
    for (const [path, item] of Object.entries(paths)) {
      if (!versioned(path)) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        for (const [type, content] of Object.entries(operation.requestBody?.content ?? {}))
          if (content.schema && type.includes("json")) found.push([`${method} ${path} request`, content.schema, "request"]);
        for (const [status, response] of Object.entries(operation.responses ?? {}))
          for (const [type, content] of Object.entries(response.content ?? {}))
            if (content.schema && type.includes("json")) found.push([`${method} ${path} ${status}`, content.schema, "answer"]);
      }
    }
  };
  ofOperations(document.paths, isVersionedPath);
  ofOperations(document.webhooks ?? {}, () => true);
  // Components, for a schema no operation reaches yet; an amount's currency is checked where answers reach it.
  for (const [name, schema] of Object.entries(document.components.schemas)) found.push([`#/components/schemas/${name}`, schema, "request"]);
  return found;
}

/**
 * Versioned operations whose errors keep another form: the token endpoint's are RFC 6749 5.2's (OAuth clients need
 * exactly it), and the readiness check's 503 is a probe's health report, not an error of the API.
 */
const OWN_ERROR_FORM = /^(post \/auth\/oauth2\/token \d+|get \/health\/ready 503)$/;

describe(`the latest version's document (${LATEST_VERSION}): one error form, one money form`, () => {
  it("is the latest version's", () => {
    expect(document.info.version).toBe(LATEST_VERSION);
  });

  it("documents every error of every versioned operation as a problem document, and nothing else", () => {
    const problems = new Set(["#/components/schemas/Problem", "#/components/schemas/ValidationProblem"]);
    const wrong: string[] = [];
    let errors = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      if (!isVersionedPath(path)) continue;
      for (const method of METHODS) {
        for (const [status, declared] of Object.entries(item[method]?.responses ?? {})) {
          if (Number(status) < 400 || OWN_ERROR_FORM.test(`${method} ${path} ${status}`)) continue;
          errors++;
          const response = declared.$ref ? document.components.responses![declared.$ref.split("/").pop()!]! : declared;
          const types = Object.keys(response.content ?? {});
          const schema = response.content?.["application/problem+json"]?.schema;
          const refs = (schema?.oneOf ?? schema?.anyOf)?.map((variant) => variant.$ref) ?? [schema?.$ref];
          if (types.length !== 1 || !refs.every((ref) => ref !== undefined && problems.has(ref)))
            wrong.push(`${method} ${path} ${status}: ${types.join(", ") || "no body"}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(errors).toBeGreaterThan(1000);
    const problem = document.components.schemas.Problem!;
    expect(problem.required).toEqual(expect.arrayContaining(["type", "title", "status", "detail", "correlationId", "errors"]));
    expect(resolve(problem.properties!.errors!.items!).properties).toHaveProperty("field");
    expect(document.components.schemas.ValidationProblem!.properties).toEqual(problem.properties);
  });

  it("answers every success with a JSON body in the one envelope: success, data, correlationId, timestamp", () => {
    // Standards' own documents: the token endpoint's answer (RFC 6749 5.1), the keys and metadata (RFC 7517, OpenID
    // Connect Discovery, RFC 8414), the health checks' and this document itself.
    const OWN_FORM = /^(post \/auth\/oauth2\/token|get \/(auth\/)?\.well-known\/|get \/health\/|get \/[a-z/]*openapi\.json)/;
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      if (!isVersionedPath(path)) continue;
      for (const method of METHODS) {
        for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
          const schema = response.content?.["application/json"]?.schema;
          if (Number(status) >= 300 || !schema || OWN_FORM.test(`${method} ${path}`)) continue;
          const members = Object.keys(resolve(schema).properties ?? {});
          if (["success", "data", "correlationId", "timestamp"].some((member) => !members.includes(member)))
            wrong.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has no amount of money as a JSON number, and a currency beside every amount an answer or event gives", () => {
    const amounts = roots().flatMap(([where, schema, kind]) => amountsIn(schema, where, false).map((amount) => ({ ...amount, kind })));
    expect(amounts.length).toBeGreaterThan(100);
    expect(amounts.filter((amount) => amount.types.some((type) => type === "number" || type === "integer")).map((a) => a.where)).toEqual(
      [],
    );
    expect(amounts.filter((amount) => !amount.types.includes("string")).map((a) => `${a.where}: ${a.types}`)).toEqual([]);
    // A request's amounts are in the currency of what it names (the quote, the offer, the order): requests carry none.
    expect([...new Set(amounts.filter((amount) => amount.kind === "answer" && !amount.currency).map((a) => a.where))]).toEqual([]);
  });
});
