import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { OPERATOR_SCOPES, type OperatorScope, SCOPES, type Scope, VENDOR_SCOPES, type VendorScope } from "../principal";
import { BOOKMARK_HEADER, BOOKMARK_PATTERN } from "../read-replicas";
import { MODE_HEADER } from "../test-mode";
import { API_VERSIONS, isVersionedPath, LATEST_VERSION, VERSION_HEADER } from "../versions/calendar";
import { API_INFO, TAGS } from "./info";
import { CORRELATION_ID_EXAMPLE, SESSION_BOOKMARK_EXAMPLE } from "./try-it";

/**
 * The OpenAPI 3.1 document: generated from the zod schemas registered with createRoute, then decorated
 * with what no single route declares: the OAuth2 security scheme (its token URL depends on the ISSUER
 * var), the headers every response carries, and the responses the platform middleware can produce on
 * any operation. Route modules only describe their own requests and responses.
 */

export type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;
type PathItem = NonNullable<OpenApiDocument["paths"]>[string];
type Operation = NonNullable<PathItem["get"]>;
type Responses = NonNullable<Operation["responses"]>;
type ResponseObject = Exclude<Responses[string], { $ref: string }>;
type Parameter = NonNullable<Operation["parameters"]>[number];

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const TOKEN_PATH = "/auth/oauth2/token";

const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "users:read": "Look up and search the tenant's users",
  "catalog:read": "Search the catalog and get price options (quotes)",
  "orders:read": "Search the tenant's orders",
  "orders:write": "Create orders",
  "manufacturers:read": "Search manufacturers",
  "events:read": "Read the tenant's order events (the feed)",
  "webhooks:manage": "Register, list, test and delete webhook endpoints",
};

const OPERATOR_SCOPE_DESCRIPTIONS: Record<OperatorScope, string> = {
  "catalog:import": "Load the catalog: import jobs, their files, progress and errors; the operator's events",
  "recalls:import": "Load the FDA's device recalls: recall import jobs, their files, progress and errors",
  "tiers:write": "Create price tiers and assign buyer tenants to them (the scope of tier price agreements)",
  "clients:manage": "Create, list and disable API clients of every kind, rotate their secrets; read the audit log",
};

const VENDOR_SCOPE_DESCRIPTIONS: Record<VendorScope, string> = {
  "fulfilment:read": "List and read the order lines the vendor fulfils",
  "fulfilment:write": "Acknowledge, backorder, ship, deliver or reject the vendor's order lines",
  "offers:read": "Read the vendor's offers and price agreements",
  "offers:write": "Publish, change and withdraw the vendor's offers; make, change and end its price agreements",
};

/** The two APIs whose operations run in a D1 session and check JSON bodies before authentication. */
const API_PREFIXES = ["/customer/api/", "/vendor/api/"];
const inApi = (path: string) => API_PREFIXES.some((prefix) => path.startsWith(prefix));

const ref = (kind: "headers" | "parameters" | "responses", name: string) => ({ $ref: `#/components/${kind}/${name}` });

const integerHeader = (description: string) => ({ description, schema: { type: "integer" as const, minimum: 0 } });

const VERSION_VALUES = { type: "string" as const, enum: [...API_VERSIONS] };

const HEADERS = {
  "X-Correlation-Id": {
    description: "Correlation id of this request: the client's X-Correlation-Id if well formed, else a new UUID. Quote it to support.",
    required: true,
    schema: { type: "string" as const },
    example: "7d0f4c52-54c2-4b55-9a3e-1d8f2b0c6a11",
  },
  // Only referenced by 429 and 503, which always send it.
  "Retry-After": { ...integerHeader("Seconds to wait before retrying."), required: true },
  "RateLimit-Limit": integerHeader(
    "Burst size of the caller's bucket (IETF RateLimit headers). Sent on every response counted against a bucket; absent when " +
      "the request was refused before it was counted (401 for a missing or invalid token, 413, 415) and while the limiter " +
      "is unavailable (it fails open).",
  ),
  "RateLimit-Remaining": integerHeader("Requests left in the bucket."),
  "RateLimit-Reset": integerHeader("Seconds until the bucket is full again."),
  [BOOKMARK_HEADER]: {
    description:
      "D1 session bookmark after this request. Send it back as the X-Session-Bookmark request header to read at least what " +
      "this request saw or wrote (read replicas otherwise may lag by moments).",
    schema: { type: "string" as const, pattern: BOOKMARK_PATTERN.source, example: SESSION_BOOKMARK_EXAMPLE },
  },
  [VERSION_HEADER]: {
    description: "The API version this answer is in: the request's Medparts-Version, else the client's pinned version, else the latest.",
    required: true,
    schema: VERSION_VALUES,
  },
  [MODE_HEADER]: {
    description:
      "The mode of the customer API client whose token made the request: `test` (a test-mode client, ids mpc_test_...: the " +
      "sandbox) or `live`. Sent on every answer once the token is verified.",
    schema: { type: "string" as const, enum: ["test", "live"] },
  },
  "X-Idempotency-Cached": {
    description: "`true` when this is a replay of the cached result of an earlier request with the same Idempotency-Key.",
    schema: { type: "string" as const, enum: ["true"] },
  },
};

const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] as const;
/**
 * Responses given before any limiter runs: never counted, never with RateLimit-*. 413 (the body limit) and 415 (the
 * APIs' JSON check precedes authentication; the token endpoint limits in its handler, after its media-type check).
 */
const refusedBeforeLimiter = (status: string) => status === "413" || status === "415";
const IDEMPOTENCY_KEY = "idempotency-key";
/** Customer and vendor API operations run in a D1 session (src/platform/read-replicas.ts), except the document itself. */
const inD1Session = (path: string) => inApi(path) && path !== "/customer/api/openapi.json";
/** 413 and 415 are refused before the session starts, and a 400 may be the bookmark itself. */
const refusedBeforeSession = (status: string) => status === "413" || status === "415" || status === "400";

const problemResponse = (description: string, headers: string[] = []): ResponseObject => ({
  description,
  headers: Object.fromEntries(headers.map((h) => [h, ref("headers", h)])),
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

/** Responses the platform can give on any operation of a kind, whatever the route declares. */
const PLATFORM_RESPONSES = {
  any: { 500: problemResponse("Unexpected error; nothing internal is disclosed. Retry with backoff.") },
  rateLimited: {
    429: problemResponse("Rate limited. Wait Retry-After seconds.", ["Retry-After"]),
    503: problemResponse("A dependency is temporarily unavailable. Retry after Retry-After seconds with backoff.", ["Retry-After"]),
    504: problemResponse("A dependency timed out. Retry with exponential backoff."),
  },
  versioned: {
    400: {
      description: "Validation failed: Medparts-Version names no version of this API (its errors list the versions there are).",
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/ValidationProblem" } } },
    },
  },
  withPathParameter: {
    404: problemResponse("Not found: a path parameter names nothing here, or is empty (as in `.../order-lines//returns`)."),
  },
  withBody: {
    413: problemResponse("Request body too large."),
    415: problemResponse("Unsupported Content-Type for this operation's request body."),
  },
} satisfies Record<string, Record<number, ResponseObject>>;

const VERSION_PARAMETER = {
  name: VERSION_HEADER,
  in: "header" as const,
  required: false,
  description:
    "The API version to answer in (docs: Versions), overriding the version the client is pinned to; an unknown one is a 400 listing the versions.",
  schema: VERSION_VALUES,
  example: LATEST_VERSION,
};

const CORRELATION_PARAMETER = {
  name: "X-Correlation-Id",
  in: "header" as const,
  required: false,
  description: "Optional client correlation id (8-128 characters of A-Z a-z 0-9 . _ : -), echoed in the response.",
  schema: { type: "string" as const, pattern: "^[A-Za-z0-9._:-]{8,128}$" },
  example: CORRELATION_ID_EXAMPLE,
};

const SESSION_BOOKMARK_PARAMETER = {
  name: BOOKMARK_HEADER,
  in: "header" as const,
  required: false,
  description:
    "The X-Session-Bookmark of an earlier response: this request then reads data at least as new as that response " +
    "saw or wrote (read-your-writes). Without it, reads may come from a replica a moment behind.",
  schema: { type: "string" as const, pattern: BOOKMARK_PATTERN.source, example: SESSION_BOOKMARK_EXAMPLE },
};

export interface DocumentContext {
  /** Origin the document was requested on; becomes the server URL. */
  origin: string;
  /** The ISSUER var: `{auth_url}`. */
  issuer: string;
  /** The `aud` of customer API tokens (AUDIENCE var) and of vendor API tokens (VENDOR_AUDIENCE var). */
  audience: string;
  vendorAudience: string;
  /** The `aud` of operator tokens (OPERATOR_AUDIENCE var): the operator plane, /admin/api. */
  operatorAudience: string;
}

export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>, context: DocumentContext, info = API_INFO): OpenApiDocument {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info,
    servers: [{ url: context.origin, description: "This deployment" }],
    tags: TAGS,
  });
  document.components ??= {};
  const components = document.components;
  components.securitySchemes = {
    oauth2: {
      type: "oauth2",
      description:
        "OAuth 2.0 client credentials (machine to machine). Access tokens are RS256 JWTs valid 3600 s with the audience " +
        `\`${context.audience}\` (claim \`aud\`); keys at ${context.issuer}/.well-known/jwks.json. Send them as ` +
        "`Authorization: Bearer <token>`.",
      flows: {
        clientCredentials: {
          tokenUrl: `${context.issuer}/oauth2/token`,
          scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
        },
      },
    },
    vendorOAuth2: {
      type: "oauth2",
      description:
        "The vendor API's OAuth 2.0 client credentials: the same token endpoint, with a vendor client. Its tokens carry the vendor " +
        `(claim \`vid\`) and the vendor API's audience \`${context.vendorAudience}\`; a customer token is refused there (401), ` +
        "and a vendor token on the customer API.",
      flows: {
        clientCredentials: {
          tokenUrl: `${context.issuer}/oauth2/token`,
          scopes: Object.fromEntries(VENDOR_SCOPES.map((s) => [s, VENDOR_SCOPE_DESCRIPTIONS[s]])),
        },
      },
    },
    operatorOAuth2: {
      type: "oauth2",
      description:
        "The operator plane's OAuth 2.0 client credentials (/admin/api): the same token endpoint, with an operator client (the " +
        `marketplace itself). Its tokens carry claim \`opr\` and the audience \`${context.operatorAudience}\`; buyer and vendor ` +
        "tokens are refused there (401), and an operator token on the buyer and vendor APIs.",
      flows: {
        clientCredentials: {
          tokenUrl: `${context.issuer}/oauth2/token`,
          scopes: Object.fromEntries(OPERATOR_SCOPES.map((s) => [s, OPERATOR_SCOPE_DESCRIPTIONS[s]])),
        },
      },
    },
    scimToken: {
      type: "http",
      scheme: "bearer",
      description:
        "A tenant's SCIM token (/scim/v2), issued by the operator with POST /admin/api/tenants/{tenantId}/scim-tokens and shown " +
        "once; the identity provider (Entra ID, Okta) sends it as `Authorization: Bearer <token>`. It sees only its tenant.",
    },
  };
  components.headers = { ...components.headers, ...HEADERS };
  components.parameters = {
    ...components.parameters,
    CorrelationId: CORRELATION_PARAMETER,
    SessionBookmark: SESSION_BOOKMARK_PARAMETER,
    ApiVersion: VERSION_PARAMETER,
  };

  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) decorateOperation(path, method, operation);
    }
  }
  defaultsInProse(document);
  return document;
}

/**
 * Request bodies state their defaults in prose, not with `default`: openapi-typescript (by default) types a field
 * with a `default` as required, so generated clients would have to send what the server fills in. The zod schemas keep
 * their defaults; only the document's annotation moves into the description.
 */
function defaultsInProse(document: OpenApiDocument): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    const schema = node as Record<string, unknown>;
    if (typeof schema.$ref === "string") walk(schemas[schema.$ref.split("/").pop()!]);
    if ("default" in schema) {
      const stated = typeof schema.description === "string" ? schema.description : "";
      if (!/default/i.test(stated)) schema.description = `${stated ? `${stated}; ` : ""}default ${JSON.stringify(schema.default)}`;
      delete schema.default;
    }
    for (const key of ["properties", "items", "anyOf", "oneOf", "allOf", "additionalProperties", "prefixItems"]) {
      const child = schema[key];
      if (key === "properties" && child && typeof child === "object") Object.values(child).forEach(walk);
      else walk(child);
    }
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const body = item[method]?.requestBody;
      if (body && !("$ref" in body)) for (const media of Object.values(body.content ?? {})) walk(media.schema);
    }
  }
}

function decorateOperation(path: string, method: HttpMethod, operation: Operation): void {
  operation.operationId ??= operationIdFor(path, method);
  operation.parameters = [...(operation.parameters ?? []), ref("parameters", "CorrelationId")];
  const inSession = inD1Session(path);
  if (inSession) operation.parameters.push(ref("parameters", "SessionBookmark"));
  const versioned = isVersionedPath(path);
  if (versioned) operation.parameters.push(ref("parameters", "ApiVersion"));

  const rateLimited = Boolean(operation.security?.length) || path === TOKEN_PATH;
  // src/platform/test-mode.ts markMode: customer API operations, once a token is verified.
  const marksMode = path.startsWith(API_PREFIXES[0]!) && Boolean(operation.security?.length);
  const idempotent = operation.parameters.some(isIdempotencyKey);
  operation.responses ??= {};
  const responses = operation.responses;
  const addIfAbsent = (extra: Record<number, ResponseObject>) => {
    for (const [status, response] of Object.entries(extra)) responses[status] ??= structuredClone(response);
  };
  addIfAbsent(PLATFORM_RESPONSES.any);
  if (versioned) addIfAbsent(PLATFORM_RESPONSES.versioned);
  if (rateLimited) addIfAbsent(PLATFORM_RESPONSES.rateLimited);
  if (operation.requestBody) addIfAbsent(PLATFORM_RESPONSES.withBody);
  if (path.includes("{")) addIfAbsent(PLATFORM_RESPONSES.withPathParameter);

  for (const [status, response] of Object.entries(responses)) {
    if ("$ref" in response) continue;
    response.headers ??= {};
    const headers = response.headers;
    headers["X-Correlation-Id"] = ref("headers", "X-Correlation-Id");
    if (versioned) headers[VERSION_HEADER] = ref("headers", VERSION_HEADER);
    if (inSession && !refusedBeforeSession(status)) headers[BOOKMARK_HEADER] = ref("headers", BOOKMARK_HEADER);
    // 413 and 415 are refused before the mode is known (src/platform/body-limit.ts, content-type.ts), like the limiter.
    if (marksMode && !refusedBeforeLimiter(status)) headers[MODE_HEADER] = ref("headers", MODE_HEADER);
    if (rateLimited && !refusedBeforeLimiter(status)) for (const h of RATE_LIMIT_HEADERS) headers[h] = ref("headers", h);
    if (status === "429" || status === "503") headers["Retry-After"] = ref("headers", "Retry-After");
    if (idempotent && (status.startsWith("2") || status.startsWith("5"))) {
      headers["X-Idempotency-Cached"] = ref("headers", "X-Idempotency-Cached");
    }
  }
}

function isIdempotencyKey(parameter: Parameter): boolean {
  return "in" in parameter && parameter.in === "header" && parameter.name.toLowerCase() === IDEMPOTENCY_KEY;
}

/** `post /customer/api/orders/search` -> `postOrdersSearch`; stable names for generated clients. */
export function operationIdFor(path: string, method: HttpMethod): string {
  const words = path
    .replace(/^\/customer\/api/, "")
    .replace(/^\/vendor\/api/, "/vendor")
    .replace(/^\/admin\/api/, "/admin")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}
