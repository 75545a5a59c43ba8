import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { unprocessable } from "../../platform/errors";
import { ONBOARDING_TAG } from "../../platform/openapi/info";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeResponse,
  notFoundResponse,
  problem,
  requiredJsonBody,
  wholeNumberText,
} from "../../platform/schemas";
import { API_VERSIONS, LATEST_VERSION } from "../../platform/versions/calendar";
import { operatorScopedAccess } from "../../shared/auth/bearer";
import { SCOPES_OF_KIND } from "../../shared/auth/clients";
import { auditPage } from "./audit";
import { clientOr404, createClient, disableClient, MAX_OVERLAP_SECONDS, pinVersion, presentClient, rotateSecret } from "./clients";

/** API clients and the audit log on the operator's admin API (docs/api.md, "Onboarding"). */

const access = operatorScopedAccess("clients:manage");
const KINDS = ["tenant", "vendor", "operator"] as const;

const SecretSchema = z.object({
  slot: z.enum(["current", "previous"]),
  createdAt: z.string().datetime(),
  expiresAt: z.string().datetime().nullable().openapi({ description: "previous: when it stops being accepted; current: null" }),
  lastUsedAt: z.string().datetime().nullable().openapi({ description: "When a token was last issued with it (hourly resolution)" }),
});

const ClientSchema = z
  .object({
    clientId: z.string(),
    kind: z.enum(KINDS),
    mode: z.enum(["live", "test"]).openapi({ description: "test: a test-mode buyer client (its id starts with mpc_test_; docs: Sandbox)" }),
    tenantId: z.number().int().nullable(),
    vendorId: z.number().int().nullable(),
    name: z.string(),
    scopes: z.array(z.string()),
    enabled: z.boolean(),
    createdAt: z.string().datetime(),
    apiVersion: z
      .string()
      .openapi({ example: LATEST_VERSION, description: "The API version its requests are answered in unless they send Medparts-Version" }),
    secrets: z
      .array(SecretSchema)
      .openapi({ description: "The live secrets (one, or two during a rotation's overlap); never the secrets themselves" }),
  })
  .openapi("ApiClient");

const WithSecretSchema = z
  .object({
    client: ClientSchema,
    secret: z.string().openapi({ description: "The new secret: shown once, stored only as a hash" }),
  })
  .openapi("ApiClientWithSecret");

const allScopes = [...new Set(Object.values(SCOPES_OF_KIND).flat())];

const CreateClientSchema = closedObject({
  kind: z
    .enum(KINDS)
    .openapi({ description: "tenant: a buyer's (customer API); vendor: a vendor's; operator: the marketplace's (/admin/api)" }),
  tenantId: z
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ description: "The buyer tenant: required with kind tenant, and only with it" }),
  vendorId: z.number().int().positive().optional().openapi({ description: "The vendor: required with kind vendor, and only with it" }),
  name: z.string().max(100).regex(/\S/, "Must contain a non-space character.").trim().openapi({ example: "St. Mary's ERP" }),
  mode: z
    .enum(["live", "test"])
    .optional()
    .openapi({ description: "test: a test-mode buyer client, for the sandbox (kind tenant only); default live" }),
  scopes: z
    .array(z.enum(allScopes as [string, ...string[]]))
    .min(1)
    .max(allScopes.length)
    .optional()
    .openapi({ description: "Default: every scope of the kind; each must be one of the kind's scopes" }),
})
  .superRefine((body, ctx) => {
    const owner = { tenant: "tenantId", vendor: "vendorId" } as const;
    for (const [kind, field] of Object.entries(owner) as ["tenant" | "vendor", "tenantId" | "vendorId"][]) {
      if ((body.kind === kind) !== (body[field] !== undefined)) {
        ctx.addIssue({ code: "custom", path: [field], message: `${field} goes with kind ${kind}, and only with it.` });
      }
    }
    if (body.mode === "test" && body.kind !== "tenant") {
      ctx.addIssue({ code: "custom", path: ["mode"], message: "Only buyer (tenant) clients have a test mode." });
    }
    const ofKind: readonly string[] = SCOPES_OF_KIND[body.kind];
    body.scopes?.forEach((scope, i) => {
      if (!ofKind.includes(scope)) ctx.addIssue({ code: "custom", path: ["scopes", i], message: `Not a scope of a ${body.kind} client.` });
    });
  })
  // An example of the whole body: one built from the fields' examples would give both tenantId and vendorId.
  .openapi("CreateApiClientRequest", { example: { kind: "tenant", tenantId: 1, name: "St. Mary's ERP" } });

const RotateSchema = closedObject({
  previousExpiresInSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_OVERLAP_SECONDS)
    .openapi({
      description: `How long the old secret stays valid, chosen by the operator: 0 (at once) to ${MAX_OVERLAP_SECONDS} (7 days)`,
    }),
}).openapi("RotateSecretRequest");

const PinVersionSchema = closedObject({
  apiVersion: z
    .enum(API_VERSIONS)
    .openapi({ description: "The version to answer the client's requests in (one of the released versions; docs: Versions)" }),
}).openapi("PinApiVersionRequest");

const ClientIdParams = z.object({
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "Must be a client id.")
    .openapi({ param: { name: "clientId", in: "path" }, example: "mpc_3kX9aQ2vL8pZ" }),
});

/** limit and offset of the onboarding lists. */
export const PAGE_QUERY = {
  limit: wholeNumberText(1, 100, "A limit from 1 to 100.").optional().openapi({ type: "integer", minimum: 1, maximum: 100 }),
  offset: wholeNumberText(0, 1_000_000, "An offset from 0 to 1000000.")
    .optional()
    .openapi({ type: "integer", minimum: 0, maximum: 1_000_000 }),
};

const routes = {
  create: createRoute({
    method: "post",
    path: "/clients",
    tags: [ONBOARDING_TAG],
    summary: "Create an API client",
    description:
      "For a buyer tenant, a vendor or the operator; its secret is shown once. The client's kind follows its owner and decides its tokens' audience and scopes; only a hash of the secret is kept, so hand it over now.",
    ...access,
    request: requiredJsonBody(CreateClientSchema),
    responses: {
      201: envelopeResponse("Created", WithSecretSchema),
      ...authenticatedErrorResponses,
      422: problem("An unknown tenant or vendor"),
    },
  }),
  list: createRoute({
    method: "get",
    path: "/clients",
    tags: [ONBOARDING_TAG],
    summary: "API clients, newest first",
    description: "Clients of every kind with their owner, scopes and state; never their secrets.",
    ...access,
    request: {
      query: z.object(PAGE_QUERY),
    },
    responses: { 200: envelopeResponse("Clients", z.object({ items: z.array(ClientSchema) })), ...authenticatedErrorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/clients/{clientId}",
    tags: [ONBOARDING_TAG],
    summary: "One API client",
    description: "Its owner, scopes, mode, whether it is enabled and when its secrets were last used; never a secret.",
    ...access,
    request: { params: ClientIdParams },
    responses: { 200: envelopeResponse("The client", ClientSchema), ...authenticatedErrorResponses, ...notFoundResponse },
  }),
  disable: createRoute({
    method: "post",
    path: "/clients/{clientId}/disable",
    tags: [ONBOARDING_TAG],
    summary: "Disable a client",
    description:
      "Its token requests fail at once, its tokens within 30 s (again: 200, nothing changes). For a leaked or retired client; there is no enable: create a new client. An operator client cannot disable itself (409).",
    ...access,
    request: { params: ClientIdParams },
    responses: {
      200: envelopeResponse("Disabled", ClientSchema),
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: problem("A client cannot disable itself"),
    },
  }),
  pin: createRoute({
    method: "patch",
    path: "/clients/{clientId}",
    tags: [ONBOARDING_TAG],
    summary: "Move a client to another API version",
    description:
      "Its requests then answer in it within 30 s. Every client is pinned to the latest version when created; a request's Medparts-Version header still overrides the pin. " +
      "The same version again changes nothing.",
    ...access,
    request: { params: ClientIdParams, ...requiredJsonBody(PinVersionSchema) },
    responses: { 200: envelopeResponse("The client", ClientSchema), ...authenticatedErrorResponses, ...notFoundResponse },
  }),
  rotate: createRoute({
    method: "post",
    path: "/clients/{clientId}/secrets",
    tags: [ONBOARDING_TAG],
    summary: "Rotate a client's secret",
    description:
      "A new one (shown once) is current; the old one stays valid for the overlap chosen. Deploy the new secret within the overlap; both work until it ends. Rotating again while the old one is still live is a 409.",
    ...access,
    request: { params: ClientIdParams, ...requiredJsonBody(RotateSchema) },
    responses: {
      201: envelopeResponse("Rotated", WithSecretSchema),
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: problem("The client already has two live secrets (the previous one has not expired)"),
    },
  }),
  audit: createRoute({
    method: "get",
    path: "/audit",
    tags: [ONBOARDING_TAG],
    summary: "Read the audit log",
    description:
      "Every change made through the admin API, newest first. Who (the operator client) changed what, with the target's before and after (never a secret); entries are kept 400 days.",
    ...access,
    request: {
      query: z.object({
        limit: wholeNumberText(1, 500, "A limit from 1 to 500.").optional().openapi({ type: "integer", minimum: 1, maximum: 500 }),
        before: wholeNumberText(1, Number.MAX_SAFE_INTEGER, "An entry id.")
          .optional()
          .openapi({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "nextBefore of the previous page" }),
        targetId: z.string().max(100).optional().openapi({ description: "Only the entries of this target (e.g. a client id)" }),
      }),
    },
    responses: {
      200: envelopeResponse(
        "Entries",
        z.object({
          entries: z.array(
            z
              .object({
                id: z.number().int(),
                at: z.string().datetime(),
                actor: z.string().openapi({ description: "The client id that made the change" }),
                action: z.string().openapi({ example: "client.secret.rotated" }),
                targetType: z.string(),
                targetId: z.string(),
                before: z.unknown().openapi({ description: "The target before the change (null for a creation)" }),
                after: z.unknown().openapi({ description: "The target after it" }),
              })
              .openapi("AuditEntry"),
          ),
          nextBefore: z.number().int().nullable(),
        }),
      ),
      ...authenticatedErrorResponses,
    },
  }),
};

const actorOf = (c: Context<AppEnv>) => c.get("operatorPrincipal").clientId;

export const onboardingRoutes = createRouter()
  .openapi(routes.create, async (c) => {
    const input = c.req.valid("json");
    const owner =
      input.kind === "tenant"
        ? await c.env.DB.prepare("SELECT 1 AS found FROM tenants WHERE id = ? AND disabled_at IS NULL").bind(input.tenantId!).first()
        : input.kind === "vendor"
          ? await c.env.DB.prepare("SELECT 1 AS found FROM vendors WHERE id = ? AND disabled_at IS NULL").bind(input.vendorId!).first()
          : { found: 1 };
    if (!owner) {
      throw unprocessable([
        input.kind === "tenant" ? `tenantId: no enabled tenant ${input.tenantId}.` : `vendorId: no enabled vendor ${input.vendorId}.`,
      ]);
    }
    const created = await createClient(c.env.DB, input, actorOf(c));
    return c.json(envelope(c, created), 201, { Location: `${new URL(c.req.url).pathname}/${created.client.clientId}` });
  })
  .openapi(routes.list, async (c) => {
    const { limit, offset } = c.req.valid("query");
    const { results } = await c.env.DB.prepare("SELECT * FROM api_clients ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
      .bind(limit ?? 20, offset ?? 0)
      .all<Parameters<typeof presentClient>[0]>();
    return c.json(envelope(c, { items: results.map((row) => presentClient(row)) }), 200);
  })
  .openapi(routes.get, async (c) => c.json(envelope(c, presentClient(await clientOr404(c.env.DB, c.req.valid("param").clientId))), 200))
  .openapi(routes.disable, async (c) => c.json(envelope(c, await disableClient(c.env.DB, c.req.valid("param").clientId, actorOf(c))), 200))
  .openapi(routes.pin, async (c) =>
    c.json(envelope(c, await pinVersion(c.env.DB, c.req.valid("param").clientId, c.req.valid("json").apiVersion, actorOf(c))), 200),
  )
  .openapi(routes.rotate, async (c) => {
    const { previousExpiresInSeconds } = c.req.valid("json");
    const rotated = await rotateSecret(c.env.DB, c.req.valid("param").clientId, previousExpiresInSeconds, actorOf(c));
    return c.json(envelope(c, rotated), 201);
  })
  .openapi(routes.audit, async (c) => {
    const { limit, before, targetId } = c.req.valid("query");
    return c.json(envelope(c, await auditPage(c.env.DB, limit ?? 50, before, targetId)), 200);
  });
