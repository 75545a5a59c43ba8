import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { ValidationError } from "../../platform/errors";
import { PROCUREMENT_TAG } from "../../platform/openapi/info";
import { webhookUrlProblem } from "../../platform/outbound-urls";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  envelopeResponse,
  integerPathParam,
  notFoundResponse,
  problem,
  requiredJsonBody,
  wholeNumberText,
} from "../../platform/schemas";
import { operatorScopedAccess } from "../../shared/auth/bearer";
import { PAGE_QUERY } from "../onboarding/client-routes";
import { connectionOr404, createConnection, listConnections, replaceConnection } from "./connections";
import { syncDocumentEndpoint } from "./documents";
import { type ConnectionInput, ConnectionInputSchema, ConnectionSchema, CreateConnectionSchema } from "./schemas";

/** The operator's procurement connections on /admin/api (docs/api.md, "Procurement systems (cXML)"). */

const access = operatorScopedAccess("clients:manage");
const IdParams = z.object({ connectionId: integerPathParam("connectionId", 1) });

const WithSecretSchema = z
  .object({
    connection: ConnectionSchema,
    sharedSecret: z.string().openapi({
      description:
        "The cXML SharedSecret to enter in the suite: shown once, stored only as a hash (rotate it through the connection's client)",
    }),
    cxmlUrl: z.string().openapi({ description: "The one URL the suite is configured with for every cXML document" }),
  })
  .openapi("ProcurementConnectionWithSecret");

const routes = {
  create: createRoute({
    method: "post",
    path: "/procurement-connections",
    tags: [PROCUREMENT_TAG],
    summary: "Connect a procurement suite over cXML",
    description:
      "A tenant's procurement suite (Ariba, Coupa, Oracle, Workday); its SharedSecret is shown once. Makes the connection and the API client it stands on (scopes users:read catalog:read orders:read orders:write; mode test: the sandbox twin's) in one batch.",
    ...access,
    request: requiredJsonBody(CreateConnectionSchema),
    responses: {
      201: envelopeResponse("Connected", WithSecretSchema),
      ...authenticatedErrorResponses,
      422: problem("The facility, requester, user or an address is not the tenant's, or a buyer identity names another connection"),
    },
  }),
  list: createRoute({
    method: "get",
    path: "/procurement-connections",
    tags: [PROCUREMENT_TAG],
    summary: "Procurement connections, newest first",
    description: "Every tenant's, or one tenant's with tenantId; never a SharedSecret.",
    ...access,
    request: {
      query: z.object({
        ...PAGE_QUERY,
        tenantId: wholeNumberText(1, Number.MAX_SAFE_INTEGER, "A tenant id.")
          .optional()
          .openapi({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Only this tenant's" }),
      }),
    },
    responses: { 200: envelopeResponse("Connections", z.object({ items: z.array(ConnectionSchema) })), ...authenticatedErrorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/procurement-connections/{connectionId}",
    tags: [PROCUREMENT_TAG],
    summary: "One procurement connection",
    description: "Its identities and mapping, and whether the client it stands on is enabled; never its SharedSecret.",
    ...access,
    request: { params: IdParams },
    responses: { 200: envelopeResponse("The connection", ConnectionSchema), ...authenticatedErrorResponses, ...notFoundResponse },
  }),
  replace: createRoute({
    method: "put",
    path: "/procurement-connections/{connectionId}",
    tags: [PROCUREMENT_TAG],
    summary: "Replace a procurement connection",
    description:
      "Its identities and mapping; its tenant, mode and secret stay. The whole mapping, checked as at creation, in one batch: documents the suite sends after the answer (within 30 s on every isolate) are mapped the new way.",
    ...access,
    request: { params: IdParams, ...requiredJsonBody(ConnectionInputSchema.openapi("ProcurementConnectionInput")) },
    responses: {
      200: envelopeResponse("Replaced", ConnectionSchema),
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      422: problem("The facility, requester, user or an address is not the tenant's, or a buyer identity names another connection"),
    },
  }),
};

const actorOf = (c: Context<AppEnv>) => c.get("operatorPrincipal").clientId;

function checkDocumentUrl(c: Context<AppEnv>, input: ConnectionInput) {
  if (input.documentUrl === undefined || input.documentUrl === null) return;
  const problemText = webhookUrlProblem(input.documentUrl, c.env.ALLOW_LOCAL_WEBHOOKS === "true");
  if (problemText) throw new ValidationError({ documentUrl: [problemText] });
}

/** The one cXML URL of this deployment, as the suite must be given it. */
export const cxmlUrlOf = (requestUrl: string) => new URL("/cxml", requestUrl).toString();

export const connectionRoutes = createRouter()
  .openapi(routes.create, async (c) => {
    const { tenantId, mode, ...input } = c.req.valid("json");
    checkDocumentUrl(c, input);
    const created = await createConnection(c.env.DB, tenantId, mode, input, actorOf(c));
    await syncDocumentEndpoint(c.env, created.connection);
    return c.json(envelope(c, { ...created, cxmlUrl: cxmlUrlOf(c.req.url) }), 201, {
      Location: `${new URL(c.req.url).pathname}/${created.connection.id}`,
    });
  })
  .openapi(routes.list, async (c) => {
    const { limit, offset, tenantId } = c.req.valid("query");
    return c.json(envelope(c, { items: await listConnections(c.env.DB, tenantId, limit ?? 20, offset ?? 0) }), 200);
  })
  .openapi(routes.get, async (c) => c.json(envelope(c, await connectionOr404(c.env.DB, c.req.valid("param").connectionId)), 200))
  .openapi(routes.replace, async (c) => {
    const input = c.req.valid("json");
    checkDocumentUrl(c, input);
    const replaced = await replaceConnection(c.env.DB, c.req.valid("param").connectionId, input, actorOf(c));
    await syncDocumentEndpoint(c.env, replaced);
    return c.json(envelope(c, replaced), 200);
  });
