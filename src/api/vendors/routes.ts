import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { DEFAULT_VENDOR_LIST_RETENTION_DAYS } from "../../env";
import { ValidationError } from "../../platform/errors";
import { PaginationSchema } from "../../platform/pagination";
import { VENDOR_API_BASE } from "../../platform/planes";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  currencyCode,
  envelopeSchema,
  FUTURE_DATE_EXAMPLE,
  integerPathParam,
  moneyAmount,
  notFoundResponse,
  optionalLineQuantity,
  ProblemSchema,
  problem,
  readableText,
} from "../../platform/schemas";
import { GET_MAX_LIMIT, getPage, parseNameList, SearchQueryParamsSchema } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { vendorScopedAccess } from "../../shared/auth/bearer";
import { storeOfRow } from "../../shared/tenants/homes";
import { rangeFloor } from "../../shared/tenants/id-ranges";
import { MAX_SHIPPED_UNIT_CODES, readShippedUnits, readShippedUnitsOfLines } from "../../shared/udi/shipped-units";
import { CLOSED_LINE_STATUSES, LINE_STATUSES, type LineStatus, ORDER_STATUSES } from "../orders/lifecycle";
import { PendingChangeSchema } from "../orders/line-history";
import { SHIPPING_METHOD_CODES } from "../orders/options";
import { DEMO_ORDER_NUMBER, ORDER_NUMBER } from "../orders/retrieve-routes";
import { shipToFields } from "../orders/ship-to";
import { type MoveOutcome, moveLine, type VendorAction, type VendorMove } from "./fulfilment";
import { findVendorLine, findVendorLines, OPEN_LINE_STATUSES, type VendorOrderLine, vendorLineNotFound } from "./lines";
import { listLinesOfVendor } from "./projection/list";
import { ATTENTION_COLUMNS, type Attention } from "./projection/schema";
import { lineCondition, vendorLineSearch } from "./projection/search";
import { eachLineOnce, MAX_SHIPMENT_LINES, MAX_SHIPMENT_UNIT_CODES, shipLines } from "./shipments";

/** The vendor API, mounted at /vendor/api (docs/api.md, "Vendor API"). */
export { VENDOR_API_BASE };

const TAG = "Vendor fulfilment";

/**
 * The demo vendor (OEM Authorized Distribution) and its first line, of the demo order: /docs "Try it out" finds it. The
 * line is in tenant 1's store, its id in that store's range (src/dev/seed/orders.ts).
 */
export const DEMO_VENDOR_ID = 4;
export const DEMO_LINE_ID = rangeFloor(1) + 100_001;

/** Dates a vendor promises or expects: a calendar day, not before yesterday (UTC; a day of slack for time zones). */
export const shipDate = (description: string) =>
  z.iso
    .date("Must be a date, YYYY-MM-DD.")
    .refine((day) => day >= new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), "Must not be in the past.")
    .openapi({ description: `${description}; a date not before yesterday (UTC)`, example: FUTURE_DATE_EXAMPLE });

/** When something happened: an ISO 8601 instant, not in the future (5 minutes of clock skew allowed). */
const pastInstant = z.iso
  .datetime({ offset: true, message: "Must be an ISO 8601 date-time." })
  .refine((at) => Date.parse(at) <= Date.now() + 300_000, "Must not be in the future.")
  .transform((at) => new Date(at).toISOString())
  .openapi({ description: "Default: now; an instant not in the future" });

const reason = readableText(500);

const ShipmentSchema = z
  .object({
    shippingDocId: z.number().int(),
    trackingNumber: z.string().nullable(),
    carrierName: z.string(),
    serviceLevel: z.string(),
    quantity: z.number().int().openapi({ description: "How much of the line is in this parcel" }),
    shippedAt: z.string().datetime(),
  })
  .openapi("VendorShipment");

export const VendorOrderLineSchema = z
  .object({
    lineId: z.number().int(),
    orderNumber: z.string(),
    lineNumber: z.number().int(),
    orderDate: z.string().datetime(),
    statusName: z.enum(LINE_STATUSES),
    partNumber: z.string(),
    description: z.string(),
    quantity: z.number().int(),
    shippedQuantity: z.number().int().openapi({ description: "How much has shipped; the line is Shipped once all of it has" }),
    price: moneyAmount("Unit price"),
    extendedPrice: moneyAmount("price × quantity"),
    currency: currencyCode,
    poNumber: z.string().nullable(),
    requiredFields: z.array(z.object({ fieldId: z.string(), value: z.string() })).openapi({
      description: "The buyer's values for the price option's custom fields",
    }),
    promisedShipDate: z.iso.date().nullable(),
    expectedShipDate: z.iso.date().nullable(),
    statusReason: z.string().nullable().openapi({ description: "Why the line was backordered, rejected or cancelled" }),
    deliveredAt: z.string().datetime().nullable(),
    contractPrice: moneyAmount("The buyer's contract price when the line was ordered at one; null for a list price").nullable(),
    confirmationCode: z
      .string()
      .nullable()
      .openapi({ description: "The X12 855 code of the vendor's latest confirmation of the line", example: "IA" }),
    pendingChange: PendingChangeSchema.nullable().openapi({
      description: "A change the vendor proposed that waits for the buyer's answer",
    }),
    returnsToReceive: z.number().int().openapi({
      description:
        "The line's returns (cores, loaners, repairs, return requests) whose next step is the vendor's: to authorize or decline, receive, diagnose or send back (GET /vendor/api/order-lines/{lineId}/returns)",
    }),
    invoicesInException: z.number().int().openapi({
      description: "The vendor's invoices billing the line whose three-way match failed and on which the buyer has not decided",
    }),
    shippingMethod: z.enum(SHIPPING_METHOD_CODES),
    shipTo: z.object(shipToFields),
    shipments: z.array(ShipmentSchema),
  })
  .openapi("VendorOrderLine");

const LineIdParams = z.object({ lineId: integerPathParam("lineId", DEMO_LINE_ID) });

const ListParamsSchema = z.object({
  status: z
    .string()
    .max(200)
    .optional()
    .openapi({
      param: { name: "status", in: "query" },
      description: `Comma-separated line statuses (case-insensitive): ${LINE_STATUSES.join(", ")}; any other name is a 400. Default: the open ones, ${OPEN_LINE_STATUSES.join(", ")}.`,
      example: "Ordered,Acknowledged",
    }),
  orderNumber: z
    .string()
    .regex(ORDER_NUMBER, "Must be an order number.")
    .optional()
    .openapi({ param: { name: "orderNumber", in: "query" }, description: "Only lines of this order", example: DEMO_ORDER_NUMBER }),
  attention: z
    .enum(ATTENTION_COLUMNS.map(([attention]) => attention) as [Attention, ...Attention[]])
    .optional()
    .openapi({
      param: { name: "attention", in: "query" },
      description:
        "Instead of status, orderNumber and q (400 with any): the lines on which something else waits for the vendor, in any status: `returns` (returnsToReceive > 0) or `invoices` (invoicesInException > 0). A closed line stays listed for the list's retention after its last change.",
      example: "returns",
    }),
  q: SearchQueryParamsSchema.shape.q.openapi({
    description: `Query in the q language on the lines, with status and orderNumber (not with attention: 400). Fields: ${vendorLineSearch
      .fieldNames()
      .join(", ")}.`,
    example: 'partNumber~"CBL" AND shipToState:IL',
  }),
  limit: SearchQueryParamsSchema.shape.limit,
  offset: SearchQueryParamsSchema.shape.offset,
});

const parseStatuses = (text: string | undefined): LineStatus[] =>
  text === undefined ? [...OPEN_LINE_STATUSES] : parseNameList("status", text, LINE_STATUSES, true);

const listRoute = createRoute({
  method: "get",
  path: "/order-lines",
  tags: [TAG],
  summary: "The vendor's order lines, open ones by default, oldest first",
  description:
    `Only lines the vendor fulfils; \`limit\` 1-${GET_MAX_LIMIT}, default 50. Open lines are listed whatever their age; ` +
    `closed ones (${CLOSED_LINE_STATUSES.join(", ")}) for ${DEFAULT_VENDOR_LIST_RETENTION_DAYS} days after their last change ` +
    "(a deployment may keep them longer); an older closed line answers by id only (`GET /vendor/api/order-lines/{lineId}`).",
  ...vendorScopedAccess("fulfilment:read"),
  request: { query: ListParamsSchema },
  responses: {
    200: {
      description: "A page of lines",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ lines: z.array(VendorOrderLineSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/order-lines/{lineId}",
  tags: [TAG],
  summary: "One of the vendor's order lines",
  description: "404 for a line id that is unknown or another vendor's (indistinguishable).",
  ...vendorScopedAccess("fulfilment:read"),
  request: { params: LineIdParams },
  responses: {
    200: { description: "The line", content: { "application/json": { schema: envelopeSchema(VendorOrderLineSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

const MoveResultSchema = z
  .object({
    line: VendorOrderLineSchema,
    orderStatus: z.enum(ORDER_STATUSES).openapi({ description: "The order's status after the move (derived from all its lines)" }),
    eventId: z.string().nullable().openapi({ description: "The event this move wrote; null when it was already in place (a repeat)" }),
  })
  .openapi("VendorMoveResult");

/** The ship fields of a parcel, shared by a line's ship and a shipment of several lines. */
const parcelFields = {
  trackingNumber: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9.:_/-]([A-Za-z0-9 .:_/-]*[A-Za-z0-9.:_/-])?$/, "Letters, digits, inner spaces and . : _ / - only.")
    .openapi({ description: "The carrier's tracking number: names the parcel", example: "1Z999AA10123456784" }),
  carrierName: readableText(100).optional().openapi({ description: "Default: the carrier of the order's shipping method", example: "UPS" }),
  serviceLevel: readableText(100)
    .optional()
    .openapi({ description: "Default: the service level of the order's shipping method", example: "Ground" }),
  shippedAt: pastInstant.optional(),
};

const shippedUnitCodes = z.array(z.string().min(1).max(512)).min(1).max(MAX_SHIPPED_UNIT_CODES);

const MOVE_BODIES = {
  acknowledge: closedObject({ promisedShipDate: shipDate("When the vendor will ship the line") }).openapi("AcknowledgeLineRequest"),
  backorder: closedObject({
    expectedShipDate: shipDate("When the vendor now expects to ship the line"),
    reason: reason.nullish().openapi({ example: "Manufacturer backorder" }),
  }).openapi("BackorderLineRequest"),
  ship: closedObject({
    trackingNumber: parcelFields.trackingNumber,
    carrierName: parcelFields.carrierName,
    serviceLevel: parcelFields.serviceLevel,
    quantity: optionalLineQuantity("How much of the line is in this parcel; default all that remains"),
    shippedAt: parcelFields.shippedAt,
    units: shippedUnitCodes.optional().openapi({
      description:
        "The UDIs of the shipped units as scanned (GS1, HIBCC, ISBT 128; as POST /customer/api/catalog/resolve reads them), each of the line's product; a case's code counts its quantity. Their lots and serials go into order.shipped and order search (recalls)",
    }),
  }).openapi("ShipLineRequest", { example: { trackingNumber: "1Z999AA10123456784", carrierName: "UPS", serviceLevel: "Ground" } }),
  deliver: closedObject({ deliveredAt: pastInstant.optional() }).openapi("DeliverLineRequest"),
  reject: closedObject({
    reason: reason.openapi({ description: "Why the vendor cannot fulfil the line", example: "Discontinued by the manufacturer" }),
  }).openapi("RejectLineRequest"),
} satisfies Record<VendorAction, z.ZodType>;

const MOVE_SUMMARIES: Record<VendorAction, string> = {
  acknowledge: "Acknowledge a line with a promised ship date",
  backorder: "Backorder a line with an expected ship date",
  ship: "Ship a line or part of it",
  deliver: "Mark a shipped line delivered",
  reject: "Reject a line the vendor cannot fulfil",
};

const MOVE_NOTES: Partial<Record<VendorAction, string>> = {
  acknowledge: " Acknowledging again changes the promised date.",
  reject: " Only before the line is acknowledged.",
  ship:
    " A parcel with a tracking number." +
    " A tracking number names one parcel of the vendor on the order: shipping several lines with it puts them in one shipping document." +
    " `quantity` may not exceed what remains to ship of the line (400). Repeating a ship with a tracking number that already holds the line changes nothing.",
};

function moveRoute(action: VendorAction) {
  return createRoute({
    method: "post",
    path: `/order-lines/{lineId}/${action}`,
    tags: [TAG],
    summary: MOVE_SUMMARIES[action],
    description:
      "A move along the line lifecycle (docs/api.md). 409 `invalid-transition` lists the statuses allowed from the line's status; " +
      "409 `order-changed` when the order changed meanwhile (retry). A repeat of a move already in place answers 200 with `eventId` null." +
      (MOVE_NOTES[action] ?? ""),
    ...vendorScopedAccess("fulfilment:write"),
    request: {
      params: LineIdParams,
      // Optional where an empty body is a valid one (deliver).
      body: { required: !MOVE_BODIES[action].safeParse({}).success, content: { "application/json": { schema: MOVE_BODIES[action] } } },
    },
    responses: {
      200: { description: "The line after the move", content: { "application/json": { schema: envelopeSchema(MoveResultSchema) } } },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: {
        description: "Invalid transition, or the order changed meanwhile",
        content: { "application/problem+json": { schema: ProblemSchema } },
      },
    },
  });
}

async function lineOrThrow(db: ReturnType<typeof database>, vendorId: number, lineId: number): Promise<VendorOrderLine> {
  const line = await findVendorLine(db, vendorId, lineId);
  if (!line) throw vendorLineNotFound();
  return line;
}

const router = createRouter()
  .openapi(listRoute, async (c) => {
    const params = c.req.valid("query");
    if (params.attention !== undefined && (params.status !== undefined || params.orderNumber !== undefined || params.q !== undefined)) {
      throw new ValidationError({ attention: ["Not with status, orderNumber or q: it lists the lines in any status, of any order."] });
    }
    const filter = {
      statuses: parseStatuses(params.status),
      orderNumber: params.orderNumber,
      attention: params.attention,
      where: lineCondition(params.q) ?? undefined,
    };
    const result = await listLinesOfVendor(c.env, c.get("vendorPrincipal").vendorId, filter, getPage(params));
    return c.json(envelope(c, result), 200);
  })
  .openapi(getRoute, async (c) => {
    const { lineId } = c.req.valid("param");
    const home = await storeOfRow(c.env, lineId);
    if (!home) throw vendorLineNotFound();
    const line = await lineOrThrow(database(home), c.get("vendorPrincipal").vendorId, lineId);
    return c.json(envelope(c, line), 200);
  });

for (const action of Object.keys(MOVE_BODIES) as VendorAction[]) {
  router.openapi(moveRoute(action), async (c) => {
    const { vendorId } = c.get("vendorPrincipal");
    const { lineId } = c.req.valid("param");
    const home = await storeOfRow(c.env, lineId);
    if (!home) throw vendorLineNotFound();
    const db = database(home);
    const body = c.req.valid("json") as { units?: string[] };
    const units =
      action === "ship" && body.units ? await readShippedUnits({ home, catalog: c.env.CATALOG }, vendorId, lineId, body.units) : undefined;
    const move = { action, ...body, ...(units ? { units } : {}) } as VendorMove;
    const outcome: MoveOutcome = await moveLine(db, vendorId, lineId, move);
    const line = await lineOrThrow(db, vendorId, lineId);
    return c.json(envelope(c, { line, orderStatus: outcome.orderStatus, eventId: outcome.eventId }), 200);
  });
}

const ShipmentLineSchema = closedObject({
  lineId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({ description: "One of the vendor's lines of the order" }),
  quantity: optionalLineQuantity(
    "How much of the line is in this parcel; default all that remains; may not exceed what remains to ship of the line (400)",
  ),
  units: shippedUnitCodes.optional().openapi({
    description: "The UDIs of the line's shipped units as scanned, as a line's ship takes them (`units`): each of the line's product",
  }),
});

const ShipmentRequestSchema = closedObject({
  ...parcelFields,
  lines: z
    .array(ShipmentLineSchema)
    .min(1)
    .max(MAX_SHIPMENT_LINES)
    .refine(
      (lines) => lines.reduce((sum, line) => sum + (line.units?.length ?? 0), 0) <= MAX_SHIPMENT_UNIT_CODES,
      `At most ${MAX_SHIPMENT_UNIT_CODES} units' codes in one shipment.`,
    )
    .openapi({
      description: `The vendor's lines of one order in this parcel, each lineId once; 1-${MAX_SHIPMENT_LINES}, at most ${MAX_SHIPMENT_UNIT_CODES} units' codes in all`,
    }),
}).openapi("ShipmentRequest", {
  example: {
    trackingNumber: "1Z999AA10123456784",
    carrierName: "UPS",
    serviceLevel: "Ground",
    lines: [{ lineId: DEMO_LINE_ID, quantity: 1 }],
  },
});

const ShipmentResultSchema = z
  .object({
    orderNumber: z.string(),
    orderStatus: z.enum(ORDER_STATUSES).openapi({ description: "The order's status after the shipment (derived from all its lines)" }),
    lines: z.array(MoveResultSchema).openapi({
      description:
        "Each line as its own ship answers it, in the order of the request: the line after the shipment, the order's status, and its order.shipped event (null for a line the parcel already held)",
    }),
  })
  .openapi("ShipmentResult");

const shipmentRoute = createRoute({
  method: "post",
  path: "/shipments",
  tags: [TAG],
  summary: "Ship several lines of an order in one parcel",
  description:
    "A parcel (its tracking number) holding several of the vendor's lines of one order, as an X12 856's order level lists them: each line shipped as `POST /vendor/api/order-lines/{lineId}/ship` ships it (the same rules and messages, one `order.shipped` event per line), all in one change of the order. " +
    "All or nothing: a line refused refuses the shipment, naming it (`lines[i]` in a 400, its id in a 409), and nothing is written. " +
    "A line the parcel already holds is left as it is (`eventId` null): repeating a shipment changes nothing. " +
    "409 `invalid-transition` or `change-pending` for a line that cannot ship now; 409 `order-changed` when the order changed meanwhile (retry).",
  ...vendorScopedAccess("fulfilment:write"),
  request: { body: { required: true, content: { "application/json": { schema: ShipmentRequestSchema } } } },
  responses: {
    200: { description: "Shipped", content: { "application/json": { schema: envelopeSchema(ShipmentResultSchema) } } },
    ...authenticatedErrorResponses,
    404: problem("lines[0] is not one of the vendor's lines (unknown or another vendor's: indistinguishable)"),
    409: problem("A line cannot ship now (its status, a change awaiting the buyer), or the order changed meanwhile (retry)"),
    422: problem("The lines are not all the vendor's lines of one order"),
  },
});

router.openapi(shipmentRoute, async (c) => {
  const { vendorId } = c.get("vendorPrincipal");
  const body = c.req.valid("json");
  eachLineOnce(body.lines.map((line) => line.lineId));
  const home = await storeOfRow(c.env, body.lines[0]!.lineId);
  if (!home) throw vendorLineNotFound();
  const db = database(home);
  const scanned = body.lines.flatMap((line, i) =>
    line.units ? [{ lineId: line.lineId, codes: line.units, field: `lines[${i}].units` }] : [],
  );
  const units = scanned.length > 0 ? await readShippedUnitsOfLines({ home, catalog: c.env.CATALOG }, vendorId, scanned) : [];
  const unitsOf = new Map(scanned.map((line, i) => [line.lineId, units[i]!]));
  const outcome = await shipLines(db, vendorId, {
    ...body,
    lines: body.lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity, units: unitsOf.get(line.lineId) })),
  });
  const found = new Map(
    (
      await findVendorLines(
        db,
        vendorId,
        body.lines.map((line) => line.lineId),
      )
    ).map((line) => [line.lineId, line]),
  );
  const lines = body.lines.map((line, i) => ({
    line: found.get(line.lineId)!,
    orderStatus: outcome.orderStatus,
    eventId: outcome.eventIds[i] ?? null,
  }));
  return c.json(envelope(c, { orderNumber: outcome.orderNumber, orderStatus: outcome.orderStatus, lines }), 200);
});

export const vendorOrderLineRoutes = router;

/** The vendor API's writes: their D1 session starts on the primary (src/platform/read-replicas.ts). */
export const VENDOR_WRITE_ROUTE = new RegExp(
  `^POST ${VENDOR_API_BASE}/(order-lines/[^/]+/(${Object.keys(MOVE_BODIES).join("|")})|shipments)$`,
);
