import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { ProblemFieldErrorSchema, ProblemSchema, ValidationProblemSchema } from "../schemas";
import { API_VERSIONS, VERSION_HEADER } from "../versions/calendar";
import { AUDIENCE_NAMES, type Audience, audienceDocument } from "./audiences";
import { buildOpenApiDocument, type OpenApiDocument } from "./document";
import { API_INFO } from "./info";

const OpenApiDocumentSchema = z.record(z.string(), z.unknown()).openapi("OpenApiDocument", { description: "This OpenAPI 3.1 document" });

const ERROR_FORMS = {
  Problem: ProblemSchema,
  ValidationProblem: ValidationProblemSchema,
  ProblemFieldError: ProblemFieldErrorSchema,
};

const CACHE = { "Cache-Control": "public, max-age=300", Vary: VERSION_HEADER };

/**
 * Registers GET {base}/openapi.json on the top-level app, documenting the app's own registry, plus the operations of
 * `included` (another Worker's document, e.g. the operator plane's), when given and answering: one contract.
 */
export function openApiDocumentRoute(
  app: OpenAPIHono<AppEnv>,
  base: string,
  included?: (c: Context<AppEnv>) => Promise<OpenApiDocument | null>,
  info = API_INFO,
): void {
  // The error form is part of the contract whichever routes use it; the platform
  // responses added by buildOpenApiDocument reference Problem by name.
  for (const [name, schema] of Object.entries(ERROR_FORMS)) app.openAPIRegistry.register(name, schema);
  const route = createRoute({
    method: "get",
    path: `${base}/openapi.json`,
    security: [],
    tags: ["Contract"],
    summary: "This API's OpenAPI 3.1 contract (no token)",
    description:
      "Generated from the same schemas that validate requests: every operation, security scheme, error form and header. Generate clients and validate answers from it.",
    request: {
      query: z.object({
        version: z.enum(API_VERSIONS).optional().openapi({
          description: "The document of this API version (docs: Versions); default the Medparts-Version header's, else the latest",
        }),
        audience: z
          .enum(AUDIENCE_NAMES as [Audience, ...Audience[]])
          .optional()
          .openapi({
            description:
              "Only the operations of one audience, with its own title and security scheme: `customer` (buyers), `vendor`, `operator` or `scim`. Default: the whole contract",
            example: "customer",
          }),
      }),
    },
    responses: { 200: { description: "OpenAPI 3.1 document", content: { "application/json": { schema: OpenApiDocumentSchema } } } },
  });
  // Routes are fixed once the app is built; the document varies only with origin, issuer and audiences.
  const cache = new Map<string, OpenApiDocument>();
  const views = new WeakMap<OpenApiDocument, Map<Audience, OpenApiDocument>>();
  app.openapi(route, async (c) => {
    // Rendered at that version by the versioning middleware (src/platform/versions/middleware.ts), as any answer is.
    const { version, audience } = c.req.valid("query");
    if (version) c.set("requestedVersion", version);
    const context = {
      origin: new URL(c.req.url).origin,
      issuer: c.env.ISSUER,
      audience: c.env.AUDIENCE,
      vendorAudience: c.env.VENDOR_AUDIENCE,
      operatorAudience: c.env.OPERATOR_AUDIENCE,
    };
    const key = Object.values(context).join(" ");
    let document = cache.get(key);
    if (!document) {
      const other = included ? await included(c) : null;
      const own = buildOpenApiDocument(app, context, info);
      document = other ? withOperationsOf(own, other) : own;
      // Without the included document (its Worker not answering), the next request tries again.
      if (cache.size < 16 && (other || !included)) cache.set(key, document);
    }
    if (!audience) return c.json(document, 200, CACHE);
    // A view is cut from the document once per isolate, as the document is built once: each walks all of it.
    const ofDocument = views.get(document) ?? new Map<Audience, OpenApiDocument>();
    views.set(document, ofDocument);
    const view = ofDocument.get(audience) ?? audienceDocument(document, audience);
    ofDocument.set(audience, view);
    return c.json(view, 200, CACHE);
  });
}

/**
 * `document` with the operations of `other` added (its own openapi.json operation left out), and the schemas, tags and
 * security schemes they use; what both define (the error forms) is the same definition and kept once.
 */
export function withOperationsOf(document: OpenApiDocument, other: OpenApiDocument): OpenApiDocument {
  const paths = { ...document.paths };
  for (const [path, item] of Object.entries(other.paths ?? {})) if (!path.endsWith("/openapi.json")) paths[path] ??= item;
  const components = { ...document.components };
  for (const kind of ["schemas", "securitySchemes", "parameters", "headers", "responses"] as const) {
    components[kind] = { ...(other.components?.[kind] ?? {}), ...(document.components?.[kind] ?? {}) } as never;
  }
  const tags = [...(document.tags ?? [])];
  for (const tag of other.tags ?? []) if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
  return { ...document, paths, components, tags };
}
