import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { PaginationSchema } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { currencyCode, envelopeSchema, moneyAmount } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { scopedAccess } from "../../shared/auth/bearer";
import { LineRevisionSchema, PendingChangeSchema } from "./line-history";
import { parseOrderIncludes, searchOrders } from "./search";
import { orderSearch } from "./search-fields";
import { shipToFields } from "./ship-to";

const OrderLineSchema = z
  .object({
    lineId: z.number().int(),
    partNumber: z.string(),
    requestedPartNumber: z.string(),
    replacementPartNumber: z.string().nullable(),
    poNumber: z.string().nullable(),
    description: z.string(),
    quantity: z.number().int(),
    price: moneyAmount("Unit price"),
    extendedPrice: moneyAmount("price × quantity"),
    statusName: z.string().openapi({ example: "Ordered", description: "The line's status (docs/api.md, Order lifecycle)" }),
    shippedQuantity: z.number().int().openapi({ description: "How much of the line has shipped" }),
    promisedShipDate: z.iso.date().nullable().openapi({ description: "When the vendor promised to ship it (on acknowledging)" }),
    expectedShipDate: z.iso.date().nullable().openapi({ description: "When the vendor expects to ship it (on backordering)" }),
    statusReason: z.string().nullable().openapi({ description: "Why it was backordered, rejected or cancelled" }),
    deliveredAt: z.string().datetime().nullable(),
    contractPrice: moneyAmount("The buyer's contract price when the line was ordered at one; null for a list price").nullable(),
    confirmationCode: z.string().nullable().openapi({
      description: "The X12 855 code of the vendor's latest confirmation of the line (docs/api.md, Confirmations)",
      example: "IA",
    }),
    pendingChange: PendingChangeSchema.nullable().openapi({
      description: "A change of the vendor waiting for the buyer's answer (POST /orders/{orderNumber}/lines/{lineId}/change-decision)",
    }),
  })
  .openapi("OrderLine");

const ShippingInfoSchema = z
  .object({
    shippingDocId: z.number().int(),
    lineItemIds: z.array(z.number().int()).openapi({ description: "lineId of each line this document ships" }),
    lines: z
      .array(z.object({ lineId: z.number().int(), quantity: z.number().int() }))
      .openapi({ description: "How much of each line this document ships (before it ships: what is left to ship)" }),
    ...shipToFields,
    carrierName: z.string(),
    serviceLevel: z.string(),
    trackingNumber: z.string().nullable().openapi({ description: "The carrier's tracking number once the parcel has shipped" }),
    shippedAt: z.string().datetime().nullable().openapi({ description: "When the parcel shipped; null until then" }),
  })
  .openapi("ShippingInfo");

export const OrderSearchRecordSchema = z
  .object({
    orderId: z.number().int(),
    orderNumber: z.string(),
    companyId: z.number().int(),
    facilityId: z.number().int(),
    requesterId: z.number().int().openapi({ description: "The requester's contact id" }),
    poNumber: z.string().nullable(),
    requesterName: z.string(),
    orderDate: z.string().datetime(),
    lastUpdated: z.string().datetime(),
    total: moneyAmount("The sum of the lines' extended prices"),
    currency: currencyCode,
    shippingMethod: z.string(),
    status: z.string(),
    lineItems: z.array(OrderLineSchema).optional().openapi({ description: "Present only with include=lineItems" }),
    shippingInfo: z.array(ShippingInfoSchema).optional().openapi({ description: "Present only with include=shippingInfo" }),
    history: z.array(LineRevisionSchema).optional().openapi({
      description: "Present only with include=history: every change of the order's lines after it was placed, oldest first per line",
    }),
  })
  .openapi("OrderSearchRecord");

/** `include` of the order record: shared by search and retrieve. */
export const OrderIncludeParam = z
  .string()
  .max(200)
  .optional()
  .openapi({
    param: { name: "include", in: "query" },
    description: "Comma-separated, case-sensitive: `lineItems`, `shippingInfo`, `history`. Unknown names are ignored.",
    example: "lineItems,shippingInfo",
  });

const OrderSearchParamsSchema = searchQueryParams(orderSearch, 'status:"Ordered" AND orderDate>="2026-01-01"').extend({
  include: OrderIncludeParam,
});

const searchRoute = createRoute({
  method: "get",
  path: "/orders/search",
  tags: ["Orders"],
  summary: "Search the tenant's orders with the q language",
  description:
    "Filters, sorts and pages the tenant's orders with a q query; include=lineItems,shippingInfo adds the lines and shipping. Send the X-Session-Bookmark of a POST /orders answer to find an order just created.",
  ...scopedAccess("orders:read"),
  request: { query: OrderSearchParamsSchema },
  responses: {
    200: {
      description: "A page of orders",
      content: {
        "application/json": {
          schema: envelopeSchema(z.object({ orders: z.array(OrderSearchRecordSchema), pagination: PaginationSchema })),
        },
      },
    },
    ...searchErrorResponses,
  },
});

export const orderSearchRoutes = createRouter().openapi(searchRoute, async (c) => {
  const params = c.req.valid("query");
  const db = database(tenantDatabase(c));
  const result = await searchOrders(db, c.get("principal").dataTenantId, params, getPage(params), parseOrderIncludes(params.include));
  return c.json(envelope(c, result), 200);
});
