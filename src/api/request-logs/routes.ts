import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import type { Bindings } from "../../env";
import { PaginationSchema } from "../../platform/pagination";
import type { RequestLogOwner } from "../../platform/principal";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { envelopeSchema } from "../../platform/schemas";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { requireBearer, requireVendorBearer } from "../../shared/auth/bearer";
import { requestLogDatabase } from "../../shared/request-logs/owners";
import { requestLogSearch } from "./search-fields";
import { RequestLogSchema, searchRequestLogs } from "./views";

const TAG = "Request logs";
const EXAMPLE_Q = 'status>=400 AND at>"2026-12-01"';

const params = searchQueryParams(requestLogSearch, EXAMPLE_Q);
const query = params.extend({
  sortDir: params.shape.sortDir
    .unwrap()
    .optional()
    .openapi({ param: { name: "sortDir", in: "query" }, default: "Desc" }),
});

const responses = {
  200: {
    description: "A page of the log, newest first by default",
    content: {
      "application/json": { schema: envelopeSchema(z.object({ requests: z.array(RequestLogSchema), pagination: PaginationSchema })) },
    },
  },
  ...searchErrorResponses,
};

const DESCRIPTION =
  "What Medparts received and answered, with the q language: method, path, status, latency, correlation id, idempotency key, " +
  "an error's problem document and, in test mode only, both bodies of the reader's own client's requests (secrets and card-like numbers redacted). " +
  "Kept 30 days in test mode and 7 days live, at most 100,000 requests. Reads of the log are not logged. " +
  "Any valid token of the owner reads it; no scope is needed.";

const buyerRoute = createRoute({
  method: "get",
  path: "/request-logs",
  tags: [TAG],
  summary: "Search the tenant's request log",
  description: `${DESCRIPTION} A test-mode client sees the sandbox's requests, a live client the live ones, of every client of the tenant.`,
  security: [{ oauth2: [] }],
  middleware: [requireBearer],
  request: { query },
  responses,
});

const vendorRoute = createRoute({
  method: "get",
  path: "/request-logs",
  tags: [TAG],
  summary: "Search the vendor's request log",
  description: `${DESCRIPTION} The vendor's clients' requests to the vendor API (vendors have no test mode: no bodies).`,
  security: [{ vendorOAuth2: [] }],
  middleware: [requireVendorBearer],
  request: { query },
  responses,
});

const pageOfLog = (env: Bindings, owner: RequestLogOwner, request: z.infer<typeof query>, readerClientId: string) =>
  searchRequestLogs(database(requestLogDatabase(env, owner)), request, getPage(request), readerClientId);

export const requestLogBuyerRoutes = createRouter().openapi(buyerRoute, async (c) => {
  const { dataTenantId, clientId } = c.get("principal");
  return c.json(envelope(c, await pageOfLog(c.env, { tenantId: dataTenantId }, c.req.valid("query"), clientId)), 200);
});

export const requestLogVendorRoutes = createRouter().openapi(vendorRoute, async (c) => {
  const { vendorId, clientId } = c.get("vendorPrincipal");
  return c.json(envelope(c, await pageOfLog(c.env, { vendorId }, c.req.valid("query"), clientId)), 200);
});
