import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { notFound } from "../../platform/errors";
import { EVENT_ID_EXAMPLE } from "../../platform/openapi/try-it";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, envelopeSchema, notFoundResponse } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { answerVersion, renderEvent } from "../../platform/versions/middleware";
import { GET_MAX_LIMIT, parseNameList, SearchQueryParamsSchema } from "../../query/params";
import { scopedAccess } from "../../shared/auth/bearer";
import { VERSION_CHANGES } from "../../versions";
import { findEvent, listEvents } from "./feed";
import { type Event, EventSchema } from "./schemas";
import { EVENT_RETENTION_DAYS, EVENT_TYPES, type EventType } from "./types";

const EventIdSchema = z
  .string()
  .regex(/^[0-9a-f-]{36}$/, "Must be an event id (a UUID).")
  .openapi({ example: EVENT_ID_EXAMPLE });

const FeedParamsSchema = z.object({
  after: EventIdSchema.optional().openapi({
    param: { name: "after", in: "query" },
    description: "Cursor: the id of the last event you read (nextCursor); absent to start from the oldest. Unknown ids are a 400.",
  }),
  types: z
    .string()
    .max(500)
    .optional()
    .openapi({
      param: { name: "types", in: "query" },
      description: `Comma-separated event types: ${EVENT_TYPES.join(", ")}; any other type is a 400. Default: all.`,
      example: "order.shipped,order.delivered",
    }),
  limit: SearchQueryParamsSchema.shape.limit,
});

const parseTypes = (text: string | undefined): EventType[] | undefined =>
  text === undefined ? undefined : parseNameList("types", text, EVENT_TYPES);

const feedRoute = createRoute({
  method: "get",
  path: "/events",
  tags: ["Events"],
  summary: "The tenant's order events, oldest first (cursor paging)",
  description:
    `Every order change writes one event in the same transaction. Kept ${EVENT_RETENTION_DAYS} days. Poll with \`after\` = ` +
    `\`nextCursor\` of the previous page; \`limit\` 1-${GET_MAX_LIMIT}, default 50.`,
  ...scopedAccess("events:read"),
  request: { query: FeedParamsSchema },
  responses: {
    200: {
      description: "A page of events",
      content: {
        "application/json": {
          schema: envelopeSchema(
            z.object({
              events: z.array(EventSchema),
              hasMore: z.boolean(),
              nextCursor: z.string().nullable().openapi({ description: "Send as `after` next: the last event returned (or your `after`)" }),
            }),
          ),
        },
      },
    },
    ...authenticatedErrorResponses,
  },
});

const eventRoute = createRoute({
  method: "get",
  path: "/events/{eventId}",
  tags: ["Events"],
  summary: "One of the tenant's events",
  description:
    "The event exactly as the feed and webhook deliveries carry it: use it to check a delivery's Medparts-Event-Id. Another tenant's event is a 404.",
  ...scopedAccess("events:read"),
  request: { params: z.object({ eventId: EventIdSchema.openapi({ param: { name: "eventId", in: "path" } }) }) },
  responses: {
    200: { description: "The event", content: { "application/json": { schema: envelopeSchema(EventSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

export const eventRoutes = createRouter()
  .openapi(feedRoute, async (c) => {
    const { after, types, limit } = c.req.valid("query");
    const page = await listEvents(database(tenantDatabase(c)), c.get("principal").dataTenantId, {
      after,
      types: parseTypes(types),
      limit: limit ?? 50,
    });
    const version = answerVersion(c);
    const events = page.events.map((event) => renderEvent(VERSION_CHANGES, version, event as Event));
    return c.json(envelope(c, { ...page, events }), 200);
  })
  .openapi(eventRoute, async (c) => {
    const event = await findEvent(database(tenantDatabase(c)), c.get("principal").dataTenantId, c.req.valid("param").eventId);
    if (!event) throw notFound("The tenant has no event with that id.");
    return c.json(envelope(c, renderEvent(VERSION_CHANGES, answerVersion(c), event as Event)), 200);
  });
