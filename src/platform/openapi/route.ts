import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ControllerErrorSchema, IdempotencyConflictSchema, ProblemSchema, ValidationProblemSchema } from "../schemas";
import { buildOpenApiDocument, type OpenApiDocument } from "./document";

const OpenApiDocumentSchema = z.record(z.string(), z.unknown()).openapi("OpenApiDocument", { description: "This OpenAPI 3.1 document" });

const ERROR_FORMS = {
  Problem: ProblemSchema,
  ValidationProblem: ValidationProblemSchema,
  ControllerError: ControllerErrorSchema,
  IdempotencyConflict: IdempotencyConflictSchema,
};

const CACHE = { "Cache-Control": "public, max-age=300" };

/** Registers GET {base}/openapi.json on the top-level app, documenting the app's own registry. */
export function openApiDocumentRoute(app: OpenAPIHono<AppEnv>, base: string): void {
  // The error forms of spec 7.2 are part of the contract whichever routes use them; the platform
  // responses added by buildOpenApiDocument reference Problem by name.
  for (const [name, schema] of Object.entries(ERROR_FORMS)) app.openAPIRegistry.register(name, schema);
  const route = createRoute({
    method: "get",
    path: `${base}/openapi.json`,
    security: [],
    tags: ["Contract"],
    summary: "This API's OpenAPI 3.1 contract (no token)",
    responses: { 200: { description: "OpenAPI 3.1 document", content: { "application/json": { schema: OpenApiDocumentSchema } } } },
  });
  // Routes are fixed once the app is built; the document varies only with origin, issuer and audiences.
  const cache = new Map<string, OpenApiDocument>();
  app.openapi(route, (c) => {
    const context = {
      origin: new URL(c.req.url).origin,
      issuer: c.env.ISSUER,
      audience: c.env.AUDIENCE,
      vendorAudience: c.env.VENDOR_AUDIENCE,
    };
    const key = Object.values(context).join(" ");
    let document = cache.get(key);
    if (!document) {
      document = buildOpenApiDocument(app, context);
      if (cache.size < 16) cache.set(key, document);
    }
    return c.json(document, 200, CACHE);
  });
}
