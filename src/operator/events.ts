import { createRoute, z } from "@hono/zod-openapi";
import { envelope } from "../platform/responses";
import { createRouter } from "../platform/router";
import { authenticatedErrorResponses, envelopeSchema, wholeNumberText } from "../platform/schemas";
import { operatorScopedAccess } from "../shared/auth/bearer";

const OperatorEventSchema = z
  .object({
    id: z.string(),
    type: z.string().openapi({ example: "catalog.import.finished" }),
    createdAt: z.string().datetime(),
    data: z.record(z.string(), z.unknown()).openapi({
      description:
        "catalog.import.finished and offers.import.finished (a vendor's price file): importId, vendorId (null for the catalog), state, dryRun, failure, counts",
    }),
  })
  .openapi("OperatorEvent");

const route = createRoute({
  method: "get",
  path: "/events",
  tags: ["Operator events"],
  summary: "Follow the operator's events",
  description:
    "What happened on the operator's side, oldest first: follow it with the cursor (e.g. an import finished). The operator's own feed (catalog.import.finished and the like): poll it with the last id seen as after instead of polling each import job.",
  ...operatorScopedAccess("catalog:import"),
  request: {
    query: z.object({
      after: wholeNumberText(0, Number.MAX_SAFE_INTEGER, "The nextCursor of a previous page.")
        .optional()
        .openapi({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
      limit: wholeNumberText(1, 100, "A limit from 1 to 100.")
        .optional()
        .openapi({ type: "integer", minimum: 1, maximum: 100, example: 50 }),
    }),
  },
  responses: {
    200: {
      description: "Events after the cursor; nextCursor is where to continue (the same when nothing new arrived)",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ items: z.array(OperatorEventSchema), nextCursor: z.string() })) },
      },
    },
    ...authenticatedErrorResponses,
  },
});

/** The operator's event feed (catalog-migrations/0005 operator_events), paged by its sequence number. */
export const operatorEventRoutes = createRouter().openapi(route, async (c) => {
  const { after = 0, limit = 50 } = c.req.valid("query");
  const catalog = (c.env as unknown as { CATALOG: D1Database }).CATALOG;
  const { results } = await catalog
    .prepare("SELECT seq, id, type, created_at, data FROM operator_events WHERE seq > ? ORDER BY seq LIMIT ?")
    .bind(after, limit)
    .all<{ seq: number; id: string; type: string; created_at: string; data: string }>();
  const items = results.map((row) => ({
    id: row.id,
    type: row.type,
    createdAt: row.created_at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  }));
  return c.json(envelope(c, { items, nextCursor: String(results.at(-1)?.seq ?? after) }), 200);
});
