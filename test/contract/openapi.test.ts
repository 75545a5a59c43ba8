import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OPERATOR_PLANE_INFO } from "../../src/platform/openapi/info";
import { OPERATOR_SCOPES, SCOPES, VENDOR_SCOPES } from "../../src/platform/principal";
import { TWO_DECIMALS_RULE } from "../../src/platform/schemas";
import { FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { call, TENANT_A, tokenFor } from "../helpers/api";
import { expectMatchesContract, operationsOf, servedDocument, servedRoutes, validateAgainst } from "../helpers/contract";

/** Public operations: everything else must declare the oauth2 scheme with one of our scopes. */
// /cxml authenticates inside the document (cXML credentials and SharedSecret), not with a bearer token.
const PUBLIC = /^(get|post) \/(health\/|auth\/|\.well-known\/|customer\/api\/openapi\.json$|cxml$)/;
/** The rows of a vendor's offer batch: OfferBatchRow, or any other value, rejected in that row's result. */
const BATCH_ROWS = "post /vendor/api/offers/batch.offers[]";
/** Operations that must require an Idempotency-Key (spec 8), whenever the app serves them. */
const IDEMPOTENT = ["post /customer/api/orders"];

/** What the app routes, as `method /path/{param}`, from Hono's route table (middleware entries excluded). */
describe("GET /customer/api/openapi.json", () => {
  it("is an OpenAPI 3.1 document served without a token, with the OAuth2 client credentials scheme", async () => {
    const res = await call(null, "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    await expectMatchesContract(res, "GET", "/openapi.json");
    const document = await res.json<any>();
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: "https://medparts.test", description: "This deployment" }]);
    const flow = document.components.securitySchemes.oauth2.flows.clientCredentials;
    expect(flow.tokenUrl).toBe(`${env.ISSUER}/oauth2/token`);
    expect(Object.keys(flow.scopes).sort()).toEqual([...SCOPES].sort());
  });

  it("the operator plane's own document (/admin/api/openapi.json, no token) says what it is: its title, and only its operations", async () => {
    const res = await call(null, "/admin/api/openapi.json");
    expect(res.status).toBe(200);
    const own = await res.json<any>();
    expect(own.info.title).toBe(OPERATOR_PLANE_INFO.title);
    expect(own.info.description).toContain("GET /customer/api/openapi.json");
    for (const path of Object.keys(own.paths))
      expect(path, path).toMatch(/^\/(admin\/api|vendor\/api\/(offers|offer-imports|agreements|edi)|scim\/v2|cxml)(\/|$)/);
    expect((await servedDocument()).info.title).toBe("Medparts Customer API");
  });

  it("documents every route the app serves, and nothing it does not serve", async () => {
    const documented = new Set(operationsOf(await servedDocument()).map((o) => `${o.method} ${o.path}`));
    const served = servedRoutes();
    expect(
      [...served].filter((r) => !documented.has(r)),
      "served but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r)),
      "documented but not served",
    ).toEqual([]);
    expect(served).toContain("post /auth/oauth2/token");
    expect(served).toContain("get /customer/api/users/lookup");
  });

  it("has the error form (and at the first version, the forms of spec 7.2) and the cross-cutting headers as components", async () => {
    const { components } = await servedDocument();
    expect(Object.keys(components?.schemas ?? {})).toEqual(expect.arrayContaining(["Problem", "ValidationProblem", "ProblemFieldError"]));
    expect(Object.keys(components?.schemas ?? {})).not.toContain("ControllerError");
    const first = await servedDocument(FIRST_VERSION);
    expect(Object.keys(first.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(["Problem", "ValidationProblem", "ControllerError", "IdempotencyConflict"]),
    );
    expect(Object.keys(components?.headers ?? {}).sort()).toEqual(
      [
        "Medparts-Mode",
        "Medparts-Version",
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "Retry-After",
        "X-Correlation-Id",
        "X-Idempotency-Cached",
        "X-Session-Bookmark",
      ].sort(),
    );
  });

  it("every pattern compiles as an ECMA-262 regex without flags and accepts its example (parameters and schemas)", async () => {
    const found: { where: string; pattern: string; examples: unknown[] }[] = [];
    const walk = (node: unknown, where: string, examples: unknown[]) => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${where}/${i}`, []);
        return;
      }
      if (!node || typeof node !== "object") return;
      const object = node as Record<string, unknown>;
      const own = [
        ...examples,
        ...("example" in object ? [object.example] : []),
        ...(Array.isArray(object.examples) ? object.examples : []),
      ];
      if (typeof object.pattern === "string") found.push({ where, pattern: object.pattern, examples: own });
      for (const [key, value] of Object.entries(object)) {
        // A parameter's example belongs to its schema.
        walk(value, `${where}/${key}`, key === "schema" && "example" in object ? [object.example] : []);
      }
    };
    walk(await servedDocument(), "#", []);
    expect(found.map((f) => f.where)).toEqual(expect.arrayContaining([expect.stringContaining("/orders/post/parameters")]));
    for (const { where, pattern, examples } of found) {
      const regex = new RegExp(pattern); // throws on anything that is not a flag-free ECMA-262 pattern
      for (const example of examples.filter((e) => typeof e === "string"))
        expect(regex.test(example as string), `${where}: ${example}`).toBe(true);
    }
    const idempotencyKey = found.find((f) => f.where.includes("/orders/post/parameters"))!;
    expect(new RegExp(idempotencyKey.pattern).test(crypto.randomUUID())).toBe(true);
    expect(new RegExp(idempotencyKey.pattern).test(crypto.randomUUID().toUpperCase())).toBe(true);
    expect(idempotencyKey.examples.length).toBeGreaterThan(0);
  });

  it("says what the server enforces, so generated clients and fuzzers do not send requests that always fail", async () => {
    const document = await servedDocument();
    const paths = document.paths ?? {};
    const schemas = document.components!.schemas as Record<string, any>;
    const parameters = (path: string) =>
      (paths[path]!.get!.parameters as any[]).map((p) => (p.$ref ? (document.components as any).parameters[p.$ref.split("/").pop()] : p));
    for (const name of ["emailContains", "lastNameContains", "companyNameContains"]) {
      expect(schemas.UserSearchRequest.properties.filters.properties[name].minLength, name).toBe(3);
    }
    for (const [path, operations] of Object.entries(paths)) {
      if (!operations?.get?.parameters) continue;
      for (const p of parameters(path)) {
        if (p.schema?.type === "integer") expect(p.schema.maximum, `${path} ${p.name}`).toBeDefined();
      }
    }
    const lookup = parameters("/customer/api/users/lookup");
    for (const p of lookup.filter((p) => p.in === "query")) expect(p.description, p.name).toMatch(/Exactly one of userId and loginUserId/);
    expect(schemas.TokenRequest.required).toEqual(["grant_type"]);
    expect(schemas.TokenRequest.properties.grant_type.enum).toEqual(["client_credentials"]);
    const item = schemas.CreateOrderRequest.properties.quoteItems.items;
    const quoteItem = item.$ref ? schemas[item.$ref.split("/").pop()] : item;
    // The two-decimal rule is prose: `multipleOf: 0.01` makes floating-point validators refuse valid prices
    // (test/contract/standard-validators.node.test.ts).
    expect(quoteItem.properties.price.multipleOf).toBeUndefined();
    expect(quoteItem.properties.price.description).toMatch(/at most two decimal places/);
    const example = schemas.CreateOrderRequest.example;
    expect(example).toMatchObject({ requesterId: 50001, facilityId: 1001, shippingMethod: "GROUND" });
    expect(JSON.stringify(example)).not.toContain('"string"');
  });

  it("states the rules the server enforces in a form validators evaluate (issue 40): prices, resolve's pair, PATCH bodies, dates, batch rows", async () => {
    const document = await servedDocument();
    const schemas = document.components!.schemas as Record<string, any>;
    const prices = {
      "OfferInput.price": schemas.OfferInput.properties.price,
      "OfferInput.futurePrice.price": schemas.OfferInput.properties.futurePrice.properties.price,
      "AgreementPriceLine.price": schemas.AgreementPriceLine.properties.price,
    };
    for (const [where, price] of Object.entries(prices)) {
      expect(price.description, where).toContain(TWO_DECIMALS_RULE);
      expect(price.multipleOf, where).toBeUndefined();
    }
    expect(schemas.ResolveRequest.dependentRequired).toEqual({ requesterId: ["facilityId"], facilityId: ["requesterId"] });
    const patches = operationsOf(document).filter((o) => o.method === "patch" && !o.path.startsWith("/scim/"));
    expect(patches.length).toBeGreaterThanOrEqual(6);
    for (const { path, operation } of patches) {
      const body = (operation.requestBody as any).content["application/json"].schema;
      const schema = body.$ref ? schemas[body.$ref.split("/").pop()] : body;
      expect((schema.required ?? []).length > 0 || schema.minProperties >= 1, `${path}: an empty body is a 400`).toBe(true);
    }
    for (const name of ["promisedShipDate", "expectedShipDate"]) expect(schemas.SimulateRequest.properties[name].format, name).toBe("date");
    const batch = document.paths!["/vendor/api/offers/batch"]!.post!.requestBody as any;
    const rows = batch.content["application/json"].schema.properties.offers.items;
    expect(rows.anyOf[0]).toEqual({ $ref: "#/components/schemas/OfferBatchRow" });
    expect(rows.anyOf[1].type).toEqual(expect.arrayContaining(["object", "array", "string", "number", "boolean", "null"]));
  });

  it("request bodies carry no `default` (generators would make those fields required); the description states it", async () => {
    const document = await servedDocument();
    const schemas = document.components!.schemas as Record<string, any>;
    const found: string[] = [];
    const seen = new Set<unknown>();
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== "object" || seen.has(node)) return;
      seen.add(node);
      if (node.$ref) walk(schemas[node.$ref.split("/").pop()], node.$ref);
      if (!Array.isArray(node) && "default" in node) found.push(where);
      for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
    };
    for (const { method, path, operation } of operationsOf(document)) walk(operation.requestBody, `${method} ${path}`);
    expect(found).toEqual([]);
    expect(schemas.CreateCatalogImportRequest.properties.maxErrors.description).toMatch(/default 1000$/);
    expect(schemas.OfferInput.properties.unitOfMeasure.description).toMatch(/Default EA/);
  });

  it("every operation has a description beyond its summary (what a reader of /docs needs)", async () => {
    const lacking = operationsOf(await servedDocument())
      .filter(({ operation }) => !operation.description?.trim() || operation.description.trim() === operation.summary?.trim())
      .map(({ method, path }) => `${method} ${path}`);
    expect(lacking).toEqual([]);
  });

  it("every tag an operation uses is declared, and every declared tag has an operation", async () => {
    const document = await servedDocument();
    const used = new Set(operationsOf(document).flatMap((o) => o.operation.tags ?? []));
    const declared = new Set((document.tags ?? []).map((t: { name: string }) => t.name));
    expect([...used].sort()).toEqual([...declared].sort());
  });

  it("each GET search's q example is a query its endpoint accepts; sortBy lists the sortable fields, and the server takes exactly those", async () => {
    const document = await servedDocument();
    const searches = operationsOf(document).filter((o) => o.method === "get" && o.path.endsWith("/search"));
    expect(searches.length).toBe(3);
    const token = await tokenFor(TENANT_A);
    for (const { path, operation } of searches) {
      const parameters = operation.parameters as { name: string; example?: string; schema?: { example?: string; enum?: string[] } }[];
      const q = parameters.find((p) => p.name === "q")!;
      const example = q.example ?? q.schema?.example;
      expect(example, path).toBeTruthy();
      const res = await call(token, `${path}?q=${encodeURIComponent(example!)}`.replace("/customer/api", ""));
      expect(res.status, `${path} q=${example}`).toBe(200);
      const sortBy = parameters.find((p) => p.name === "sortBy")!;
      expect(sortBy.schema?.enum?.length, path).toBeGreaterThan(1);
      for (const field of sortBy.schema!.enum!) {
        const sorted = await call(token, `${path}?sortBy=${field}`.replace("/customer/api", ""));
        expect(sorted.status, `${path} sortBy=${field}`).toBe(200);
      }
      // What a validating proxy refuses, the server refuses: a value of either enum in another case is a 400 naming it.
      const sortDir = parameters.find((p) => p.name === "sortDir")!;
      for (const [name, values] of [
        ["sortBy", sortBy.schema!.enum!],
        ["sortDir", sortDir.schema!.enum!],
      ] as const) {
        for (const value of values) {
          const respelt = (value[0] === value[0]!.toUpperCase() ? value[0]!.toLowerCase() : value[0]!.toUpperCase()) + value.slice(1);
          if (values.includes(respelt)) continue;
          const refused = await call(token, `${path}?${name}=${respelt}`.replace("/customer/api", ""));
          await expectMatchesContract(refused, "GET", path);
          expect(refused.status, `${path} ${name}=${respelt}`).toBe(400);
          expect(Object.keys((await refused.json<any>()).errors), `${path} ${name}=${respelt}`).toEqual([name]);
        }
      }
    }
  });

  it("request bodies are closed: every object of every JSON request body is additionalProperties: false (the token endpoint and SCIM excepted)", async () => {
    const document = await servedDocument();
    const resolve = (node: any): any => (node?.$ref ? resolve(document.components!.schemas![node.$ref.split("/").pop()]) : node);
    const open: string[] = [];
    const walk = (node: any, where: string) => {
      const schema = resolve(node);
      if (!schema || typeof schema !== "object") return;
      const types = [schema.type ?? []].flat();
      if ((types.includes("object") || schema.properties) && schema.additionalProperties !== false) open.push(where);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
        // A batch takes any row and rejects a bad one in its own result (an unknown field named there, never dropped):
        // its rows are OfferBatchRow, closed, or "any other value", which is that row's rejection.
        if (where === BATCH_ROWS && !alternative.$ref) continue;
        walk(alternative, where);
      }
    };
    const bodies = operationsOf(document).filter((o) => (o.operation.requestBody as any)?.content?.["application/json"]);
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    for (const { method, path, operation } of bodies) {
      // RFC 6749 3.2: the authorization server ignores request parameters it does not recognize.
      if (path === "/auth/oauth2/token") continue;
      // RFC 7643 3 and 7644 3.3: SCIM resources are extensible; an identity provider sends the attributes it maps
      // (the enterprise extension, titles), which are kept and answered back (docs/decisions.md).
      if (path.startsWith("/scim/v2/")) continue;
      walk((operation.requestBody as any).content["application/json"].schema, `${method} ${path}`);
    }
    expect(open).toEqual([]);
  });

  it("every operation: unique operationId, security as intended, a success response (204 without a body for DELETE), headers and platform errors", async () => {
    const operations = operationsOf(await servedDocument());
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { method, path, operation } of operations) {
      const name = `${method} ${path}`;
      const responses = operation.responses ?? {};
      const security = operation.security ?? [];
      const success = Object.entries(responses).filter(([s]) => s.startsWith("2"));
      expect(success.length, `${name} has no 2xx`).toBeGreaterThan(0);
      if (PUBLIC.test(name)) {
        expect(operation.security, `${name} says security: [] explicitly`).toEqual([]);
      } else {
        expect(security.length, `${name} declares no security`).toBeGreaterThan(0);
        // The vendor API takes vendor tokens only (scheme vendorOAuth2, vendor scopes), the operator plane operator tokens
        // only (operatorOAuth2); everything else, buyer tokens.
        // /scim/v2 takes a tenant's SCIM token (scimToken, a bearer token without scopes).
        const [scheme, scopes] = path.startsWith("/vendor/api/")
          ? ["vendorOAuth2", VENDOR_SCOPES]
          : path.startsWith("/admin/api/")
            ? ["operatorOAuth2", OPERATOR_SCOPES]
            : path.startsWith("/scim/v2/")
              ? ["scimToken", []]
              : ["oauth2", SCOPES];
        for (const requirement of security) {
          expect(Object.keys(requirement), name).toEqual([scheme]);
          for (const scope of requirement[scheme]!) expect(scopes, name).toContain(scope);
        }
        // A SCIM token has no scopes: it is valid for its tenant's whole SCIM surface, or refused (401).
        const refusals = scheme === "scimToken" ? ["401", "429", "500", "503"] : ["401", "403", "429", "500", "503"];
        for (const status of refusals) expect(responses, `${name} lacks ${status}`).toHaveProperty(status);
        expect((responses["429"] as any).headers, name).toHaveProperty("Retry-After");
        expect(success[0]![1] as any, name).toHaveProperty("headers.RateLimit-Remaining");
      }
      // Spec 7.1: a DELETE succeeds with 204 and no body.
      if (method === "delete")
        expect(
          success.map(([s, r]) => [s, (r as any).content]),
          name,
        ).toEqual([["204", undefined]]);
      for (const [status, response] of Object.entries(responses)) {
        expect((response as any).headers?.["X-Correlation-Id"], `${name} ${status}`).toEqual({
          $ref: "#/components/headers/X-Correlation-Id",
        });
      }
      // The cXML endpoint answers a bad document with HTTP 200 and a cXML Status 400 (docs/api.md, "Procurement systems").
      if (operation.requestBody && name !== "post /cxml") expect(responses, `${name} has a body but no 400`).toHaveProperty("400");
      // Customer API answers to a token say its mode (src/platform/test-mode.ts).
      if (path.startsWith("/customer/api/") && security.length > 0) {
        expect((success[0]![1] as any).headers, name).toHaveProperty("Medparts-Mode");
      }
      const idempotencyKey = (operation.parameters ?? []).find(
        (p: any) => p.in === "header" && p.name.toLowerCase() === "idempotency-key",
      ) as any;
      if (IDEMPOTENT.includes(name)) expect(idempotencyKey?.required, `${name} must require Idempotency-Key`).toBe(true);
      if (idempotencyKey) {
        expect((success[0]![1] as any).headers, name).toHaveProperty("X-Idempotency-Cached");
        expect(responses, name).toHaveProperty("409");
      }
    }
  });

  it("every example in the document is valid against its own schema", async () => {
    const document = await servedDocument();
    const withExamples = Object.entries(document.components?.schemas ?? {}).filter(([, s]) => "example" in s);
    expect(withExamples.map(([name]) => name)).toEqual(expect.arrayContaining(["Problem", "ValidationProblem", "User", "TokenResponse"]));
    for (const [name, schema] of withExamples) {
      const result = validateAgainst(document, `#/components/schemas/${name}`, (schema as { example: unknown }).example);
      expect(result.errors, name).toEqual([]);
    }
  });
});

describe("expectMatchesContract", () => {
  it("rejects a body that breaks the documented schema", async () => {
    const res = new Response(JSON.stringify({ status: "sleepy" }), {
      status: 200,
      headers: { "Content-Type": "application/json", "X-Correlation-Id": "x", "Medparts-Version": LATEST_VERSION },
    });
    await expect(expectMatchesContract(res, "GET", "/health/live")).rejects.toThrow(/does not match the documented schema/);
  });

  it("rejects an undocumented status, media type or missing required header", async () => {
    const headers = { "Content-Type": "application/json", "X-Correlation-Id": "x", "Medparts-Version": LATEST_VERSION };
    const ok = JSON.stringify({ status: "ok" });
    await expect(expectMatchesContract(new Response(ok, { status: 418, headers }), "GET", "/health/live")).rejects.toThrow(
      /status 418 is not documented/,
    );
    await expect(
      expectMatchesContract(
        new Response(ok, { status: 200, headers: { ...headers, "Content-Type": "text/plain" } }),
        "GET",
        "/health/live",
      ),
    ).rejects.toThrow(/Content-Type text\/plain is not documented/);
    await expect(
      expectMatchesContract(new Response(ok, { status: 200, headers: { "Content-Type": "application/json" } }), "GET", "/health/live"),
    ).rejects.toThrow(/required header (X-Correlation-Id|Medparts-Version)/);
    await expect(
      expectMatchesContract(
        new Response(ok, { status: 200, headers: { ...headers, "Medparts-Version": "2020-01-01" } }),
        "GET",
        "/health/live",
      ),
    ).rejects.toThrow(/header Medparts-Version: 2020-01-01 does not match its schema/);
    await expect(expectMatchesContract(new Response(ok, { status: 200, headers }), "GET", "/nowhere")).rejects.toThrow(
      /not in the OpenAPI document/,
    );
  });
});
