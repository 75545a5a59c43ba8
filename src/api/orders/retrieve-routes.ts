import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, envelopeSchema, notFoundResponse } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../../shared/auth/bearer";
import { findOrder, orderNotFound, parseOrderIncludes } from "./search";
import { OrderIncludeParam, OrderSearchRecordSchema } from "./search-routes";

/** Order numbers as issued (`ORD-YYYYMMDD-XXXXXXXX`); anything else of this shape is simply not found. */
export const ORDER_NUMBER = /^[A-Za-z0-9-]{1,64}$/;

/** The first order of the demo tenant (St. Mary's) in the demo data: /docs "Try it out" finds it. */
export const DEMO_ORDER_NUMBER = "ORD-20251111-DEMO0001";

/** The `{orderNumber}` path parameter of the order's own routes (retrieve, cancel). */
export const OrderNumberParams = z.object({
  orderNumber: z
    .string()
    .regex(ORDER_NUMBER, "Must be an order number, e.g. ORD-20261123-7K3M9Q2W.")
    .openapi({ param: { name: "orderNumber", in: "path" }, example: DEMO_ORDER_NUMBER }),
});

const retrieveRoute = createRoute({
  method: "get",
  path: "/orders/{orderNumber}",
  tags: ["Orders"],
  summary: "Retrieve one of the tenant's orders by its order number",
  description:
    "The order record of spec 2.10, as in search, with the same `include`. 404 for an order number the tenant does not have " +
    "(another tenant's orders are indistinguishable from unknown ones).",
  ...scopedAccess("orders:read"),
  request: {
    params: OrderNumberParams,
    query: z.object({ include: OrderIncludeParam }),
  },
  responses: {
    200: { description: "The order", content: { "application/json": { schema: envelopeSchema(OrderSearchRecordSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

export const orderRetrieveRoutes = createRouter().openapi(retrieveRoute, async (c) => {
  const { orderNumber } = c.req.valid("param");
  const { include } = c.req.valid("query");
  const order = await findOrder(database(tenantDatabase(c)), c.get("principal").dataTenantId, orderNumber, parseOrderIncludes(include));
  if (!order) throw orderNotFound();
  return c.json(envelope(c, order), 200);
});
