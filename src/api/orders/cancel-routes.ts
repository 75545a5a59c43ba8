import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { IDEMPOTENCY_CACHED_HEADER, idempotent, idempotentRequest, storedJson } from "../../platform/idempotency/middleware";
import { committedResultStatements } from "../../platform/idempotency/results";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, closedObject, envelopeSchema, idempotencyKeyHeaders, problem } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../../shared/auth/bearer";
import { type CancelOutcome, cancelOrder } from "./cancel";
import { LINE_STATUSES, ORDER_STATUSES } from "./lifecycle";
import { OrderNumberParams } from "./retrieve-routes";

const CancelOrderSchema = closedObject({
  lineIds: z
    .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
    .min(1)
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, "Each lineId once.")
    .optional()
    .openapi({
      description: "Lines to cancel, each a line of this order (lineId of the order record); all lines when absent",
      uniqueItems: true,
    }),
  reason: z.string().max(500).nullish().openapi({ description: "Why, for the vendor and the order.cancelled event" }),
  partial: z.boolean().optional().openapi({
    description: "true: cancel the lines that can be, report the others in notCancelled (default false: all or nothing, 409)",
  }),
}).openapi("CancelOrderRequest", { example: { reason: "Ordered twice by mistake" } });

const CancelOutcomeSchema = z
  .object({
    orderNumber: z.string(),
    status: z.enum(ORDER_STATUSES).openapi({ description: "The order's status after the cancel (derived from its lines)" }),
    cancelledLineIds: z.array(z.number().int()).openapi({ description: "Lines this request cancelled (empty when none was open)" }),
    notCancelled: z
      .array(z.object({ lineId: z.number().int(), statusName: z.enum(LINE_STATUSES) }))
      .openapi({ description: "With partial: the lines left as they were because they had shipped or been delivered" }),
    eventId: z.string().nullable().openapi({ description: "Id of the order.cancelled event; null when nothing changed" }),
  })
  .openapi("OrderCancelled");

const cancelRoute = createRoute({
  method: "post",
  path: "/orders/{orderNumber}/cancel",
  tags: ["Orders"],
  summary: "Cancel an order or some of its lines",
  description:
    "Lines that have not shipped; idempotent with Idempotency-Key. Without lineIds every line not yet shipped; all or nothing unless partial is true (then the others are listed). A retry with the same Idempotency-Key answers the first result.",
  ...scopedAccess("orders:write", idempotent),
  request: {
    params: OrderNumberParams,
    headers: idempotencyKeyHeaders("UUID (with dashes), one per logical cancel; results are replayed for 24 hours"),
    body: { required: false, content: { "application/json": { schema: CancelOrderSchema } } },
  },
  responses: {
    200: {
      description: `Cancelled (or nothing left to cancel). A replay of a cached result carries ${IDEMPOTENCY_CACHED_HEADER}: true.`,
      content: { "application/json": { schema: envelopeSchema(CancelOutcomeSchema) } },
    },
    ...authenticatedErrorResponses,
    404: problem("The tenant has no order with that number"),
    409: problem(
      "Idempotency conflict (`idempotency-conflict`); lines already shipped or delivered without partial, or the order changed meanwhile",
    ),
    503: problem("The idempotency store is temporarily unavailable"),
  },
});

export const orderCancelRoutes = createRouter().openapi(cancelRoute, async (c) => {
  // Like order creation, the 200 commits in the cancel's own batch as the result of this Idempotency-Key.
  const request = idempotentRequest(c);
  let payload: ReturnType<typeof envelope<CancelOutcome>> | undefined;
  await cancelOrder(database(tenantDatabase(c)), request.tenantId, c.req.valid("param").orderNumber, c.req.valid("json"), {
    commitWith: (outcome) => {
      payload = envelope(c, outcome);
      return committedResultStatements(database(tenantDatabase(c)), request, storedJson(200, payload));
    },
  });
  return c.json(payload!, 200);
});
