import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { readJsonBody } from "../../platform/content-type";
import { ValidationError } from "../../platform/errors";
import { webhookUrlProblem } from "../../platform/outbound-urls";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, closedObject, envelopeSchema, notFoundResponse, problem } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { API_VERSIONS, LATEST_VERSION } from "../../platform/versions/calendar";
import { answerVersion } from "../../platform/versions/middleware";
import { scopedAccess } from "../../shared/auth/bearer";
import { SAMPLE_ENDPOINT_ID, SAMPLE_ORDER_NUMBER, sampleEvent } from "../events/samples";
import { DELIVERED_EVENT_TYPES, EVENT_TYPES, TEST_EVENT_TYPE } from "../events/types";
import { postEvent, recordDelivery } from "./delivery";
import {
  ALL_EVENT_TYPES,
  createEndpoint,
  deleteEndpoint,
  endpointNotFound,
  endpointView,
  findEndpointRow,
  listDeliveries,
  listEndpoints,
  MAX_ENDPOINTS_PER_TENANT,
} from "./endpoints";
import { SIGNATURE_HEADER, signingSecret } from "./signing";

const TAG = "Webhooks";

const EndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    eventTypes: z.array(z.string()).openapi({ description: 'Event types delivered; ["*"] for all' }),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: z.string().nullable().openapi({ description: "First failed delivery since the last success" }),
    createdAt: z.string().datetime(),
    apiVersion: z.string().openapi({ description: "The API version its events are rendered at (docs: Versions)", example: LATEST_VERSION }),
  })
  .openapi("WebhookEndpoint");

const CreateEndpointSchema = closedObject({
  url: z.string().max(2048).openapi({
    description:
      "Where to POST events: an https URL of a public host (default port, no credentials, no special-purpose address such as loopback or private, no special-use name such as localhost, .test or .internal)",
    example: "https://erp.example-hospital.org/medparts/webhooks",
  }),
  eventTypes: z
    .array(z.enum([ALL_EVENT_TYPES, ...EVENT_TYPES]))
    .min(1)
    .max(EVENT_TYPES.length + 1)
    .refine((types) => new Set(types).size === types.length, "Each event type once.")
    .openapi({
      description: 'Event types to receive, each once; ["*"] for all',
      uniqueItems: true,
      example: ["order.shipped", "order.delivered"],
    }),
  apiVersion: z.enum(API_VERSIONS).optional().openapi({
    description: "The API version to render its events at (docs: Versions); default the request's version (the client's pin)",
  }),
}).openapi("CreateWebhookEndpointRequest");

const EndpointIdParams = z.object({
  id: z
    .string()
    .regex(/^we_[A-Za-z0-9_-]{1,64}$/, "Must be a webhook endpoint id (we_...).")
    .openapi({ param: { name: "id", in: "path" }, example: SAMPLE_ENDPOINT_ID }),
});

const TestRequestSchema = closedObject({
  type: z
    .enum(DELIVERED_EVENT_TYPES)
    .optional()
    .openapi({
      description: `The event type to send a sample of, in its documented shape; order events name the order ${SAMPLE_ORDER_NUMBER}, which does not exist. Without it (\`{}\` or no body): ${TEST_EVENT_TYPE}`,
    }),
}).openapi("WebhookTestRequest");

const routes = {
  create: createRoute({
    method: "post",
    path: "/webhook-endpoints",
    tags: [TAG],
    summary: "Register a webhook endpoint",
    description: `Its signing secret is in this answer only. At most ${MAX_ENDPOINTS_PER_TENANT} per tenant. Deliveries are signed with \`${SIGNATURE_HEADER}\` (docs/api.md).`,
    ...scopedAccess("webhooks:manage"),
    request: { body: { required: true, content: { "application/json": { schema: CreateEndpointSchema } } } },
    responses: {
      201: {
        description: "Registered. Store `secret` now: it is never shown again.",
        content: {
          "application/json": {
            schema: envelopeSchema(
              EndpointSchema.extend({ secret: z.string().openapi({ description: "whsec_...: verifies the signatures" }) }),
            ),
          },
        },
      },
      ...authenticatedErrorResponses,
      409: problem("The tenant already has the most endpoints allowed"),
    },
  }),
  list: createRoute({
    method: "get",
    path: "/webhook-endpoints",
    tags: [TAG],
    summary: "The tenant's webhook endpoints",
    description:
      "Every endpoint registered for the tenant, with the event types it receives and whether deliveries fail (enabled, failingSince); never its signing secret.",
    ...scopedAccess("webhooks:manage"),
    responses: {
      200: {
        description: "Endpoints",
        content: { "application/json": { schema: envelopeSchema(z.object({ endpoints: z.array(EndpointSchema) })) } },
      },
      ...authenticatedErrorResponses,
    },
  }),
  get: createRoute({
    method: "get",
    path: "/webhook-endpoints/{id}",
    tags: [TAG],
    summary: "One webhook endpoint",
    description: "The endpoint's URL and event types; its signing secret was shown once, at creation. Another tenant's endpoint is a 404.",
    ...scopedAccess("webhooks:manage"),
    request: { params: EndpointIdParams },
    responses: {
      200: { description: "The endpoint", content: { "application/json": { schema: envelopeSchema(EndpointSchema) } } },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
    },
  }),
  remove: createRoute({
    method: "delete",
    path: "/webhook-endpoints/{id}",
    tags: [TAG],
    summary: "Delete a webhook endpoint",
    description:
      "Deliveries still queued for it are dropped. Events from now on are no longer delivered to it; the event feed (GET /events) still has every event.",
    ...scopedAccess("webhooks:manage"),
    request: { params: EndpointIdParams },
    responses: {
      204: { description: "Deleted; no body" },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
    },
  }),
  test: createRoute({
    method: "post",
    path: "/webhook-endpoints/{id}/test",
    tags: [TAG],
    summary: "Send a test event to a webhook endpoint",
    description: `Sends a signed ${TEST_EVENT_TYPE} event, or a sample of any event type, to the endpoint now and reports what it answered. Checks an endpoint's URL, signature verification and handler before real events arrive: the delivery is made during the request and its result answered.`,
    ...scopedAccess("webhooks:manage"),
    request: {
      params: EndpointIdParams,
      // Validated in the handler, after the endpoint is found: another tenant's id is a 404 whatever the body.
      body: { required: false, content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookTestRequest" } } } },
    },
    responses: {
      200: {
        description: "The attempt (recorded with the endpoint's deliveries)",
        content: {
          "application/json": {
            schema: envelopeSchema(
              z.object({
                eventId: z.string(),
                delivered: z.boolean(),
                statusCode: z.number().int().nullable(),
                error: z.string().nullable(),
                latencyMs: z.number().int(),
              }),
            ),
          },
        },
      },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
    },
  }),
  deliveries: createRoute({
    method: "get",
    path: "/webhook-endpoints/{id}/deliveries",
    tags: [TAG],
    summary: "List an endpoint's delivery attempts",
    description:
      "The endpoint's latest delivery attempts, newest first, up to 100. Each attempt with its event, whether it was delivered, the status code or error and the latency: find why an endpoint missed an event.",
    ...scopedAccess("webhooks:manage"),
    request: { params: EndpointIdParams },
    responses: {
      200: {
        description: "Delivery attempts",
        content: {
          "application/json": {
            schema: envelopeSchema(
              z.object({
                deliveries: z.array(
                  z.object({
                    id: z.number().int(),
                    eventId: z.string(),
                    attempt: z.number().int(),
                    outcome: z.enum(["succeeded", "failed", "dead-lettered"]),
                    statusCode: z.number().int().nullable(),
                    error: z.string().nullable(),
                    latencyMs: z.number().int(),
                    createdAt: z.string().datetime(),
                  }),
                ),
              }),
            ),
          },
        },
      },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
    },
  }),
};

/** Writes of this module: their D1 session starts on the primary. */
export const WEBHOOK_WRITE_ROUTES = [
  /^POST \/customer\/api\/webhook-endpoints(\/[^/]+\/test)?$/,
  /^DELETE \/customer\/api\/webhook-endpoints\/[^/]+$/,
];

const router = createRouter();
router.openAPIRegistry.register("WebhookTestRequest", TestRequestSchema);

export const webhookRoutes = router
  .openapi(routes.create, async (c) => {
    const body = c.req.valid("json");
    const problemText = webhookUrlProblem(body.url, c.env.ALLOW_LOCAL_WEBHOOKS === "true");
    if (problemText) throw new ValidationError({ url: [problemText] });
    const { endpoint, secret } = await createEndpoint(
      database(tenantDatabase(c)),
      c.env.WEBHOOK_SECRET_KEY,
      c.get("principal").dataTenantId,
      {
        ...body,
        apiVersion: body.apiVersion ?? answerVersion(c),
      },
    );
    return c.json(envelope(c, { ...endpoint, secret }), 201);
  })
  .openapi(routes.list, async (c) =>
    c.json(envelope(c, { endpoints: await listEndpoints(database(tenantDatabase(c)), c.get("principal").dataTenantId) }), 200),
  )
  .openapi(routes.get, async (c) => {
    const row =
      (await findEndpointRow(database(tenantDatabase(c)), c.get("principal").dataTenantId, c.req.valid("param").id)) ?? throwNotFound();
    return c.json(envelope(c, endpointView(row)), 200);
  })
  .openapi(routes.remove, async (c) => {
    const { id } = c.req.valid("param");
    if (!(await deleteEndpoint(database(tenantDatabase(c)), c.get("principal").dataTenantId, id))) throw endpointNotFound();
    return c.body(null, 204);
  })
  .openapi(routes.test, async (c) => {
    const db = database(tenantDatabase(c));
    const endpoint = (await findEndpointRow(db, c.get("principal").dataTenantId, c.req.valid("param").id)) ?? throwNotFound();
    const type = TestRequestSchema.parse(await readJsonBody(c)).type ?? TEST_EVENT_TYPE;
    const createdAt = new Date().toISOString();
    const event = sampleEvent(type, { id: crypto.randomUUID(), createdAt, endpointId: endpoint.id });
    const result = await postEvent(endpoint, await signingSecret(c.env.WEBHOOK_SECRET_KEY, endpoint.secretSalt), event);
    await recordDelivery(db, endpoint.id, event.id, 1, result);
    return c.json(
      envelope(c, {
        eventId: event.id,
        delivered: result.ok,
        statusCode: result.statusCode,
        error: result.error,
        latencyMs: result.latencyMs,
      }),
      200,
    );
  })
  .openapi(routes.deliveries, async (c) => {
    const db = database(tenantDatabase(c));
    const endpoint = (await findEndpointRow(db, c.get("principal").dataTenantId, c.req.valid("param").id)) ?? throwNotFound();
    return c.json(envelope(c, { deliveries: await listDeliveries(db, endpoint.id, 100) }), 200);
  });

function throwNotFound(): never {
  throw endpointNotFound();
}
