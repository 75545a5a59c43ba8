import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { database } from "../../db/client";
import type { AppEnv } from "../../env";
import { IDEMPOTENCY_KEY_HEADER } from "../../platform/idempotency/middleware";
import { PaginationSchema } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  envelopeSchema,
  idempotencyKeyHeaders,
  integerPathParam,
  notFoundResponse,
  problem,
} from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { scopedAccess, vendorScopedAccess } from "../../shared/auth/bearer";
import { storeOfRow } from "../../shared/tenants/homes";
import { requestReturn } from "./request";
import { returnNotFound, type StepOutcome } from "./returns";
import {
  AuthorizeReturnSchema,
  DeclineReturnSchema,
  DiagnoseRepairSchema,
  ReceiveReturnSchema,
  RepairDecisionSchema,
  RequestReturnSchema,
  ReturnRecordSchema,
  SendBackSchema,
  ShipReturnSchema,
  StepResultSchema,
} from "./schemas";
import { returnSearch } from "./search-fields";
import { takeBuyerStep, takeVendorStep, type VendorAction } from "./take";
import { findReturn, returnsOfLine, searchReturns } from "./views";

/** Returns, cores, loaners and repairs (docs/api.md): the buyer's and the vendor's routes. */

const TAG = "Returns";
const ReturnIdParams = z.object({ returnId: integerPathParam("returnId", 1) });
const LineParams = z.object({
  orderNumber: z.string().min(1).max(40).openapi({ example: "ORD-20261128-7K3M9Q2X" }),
  lineId: integerPathParam("lineId", 1),
});

const recordContent = { "application/json": { schema: envelopeSchema(ReturnRecordSchema) } };
const stepResponses = {
  200: {
    description: "Done (or already done: eventId null)",
    content: { "application/json": { schema: envelopeSchema(StepResultSchema) } },
  },
  ...authenticatedErrorResponses,
  ...notFoundResponse,
  409: problem("Not a step from the return's status (the allowed steps are listed), or the order changed meanwhile (retry)"),
};

/** A step's answer: the return as the step left it, with the step's event. */
async function answerStep(c: Context<AppEnv>, home: D1Database, scope: Parameters<typeof findReturn>[1], outcome: StepOutcome) {
  const record = await findReturn(database(home), scope, outcome.returnId);
  return c.json(envelope(c, { return: record!, eventId: outcome.eventIds[0] ?? null }), 200);
}

const requestRoute = createRoute({
  method: "post",
  path: "/orders/{orderNumber}/lines/{lineId}/returns",
  tags: [TAG],
  summary: "Request a return of delivered units",
  description:
    "Units of a line bought outright (an RMA), with a reason. At most the units delivered that are not in other returns (those the vendor declined count no more); 400 naming quantity otherwise; of two requests sent at once one is written and the other is a 409 order-changed to retry. The vendor authorizes it (RMA number, return-by date, restocking fee) or declines it. A retry with the same Idempotency-Key answers the same return (200).",
  ...scopedAccess("orders:write"),
  request: {
    params: LineParams,
    headers: idempotencyKeyHeaders("UUID (with dashes), one per return request: a retry with it answers the same return"),
    body: { required: true, content: { "application/json": { schema: RequestReturnSchema } } },
  },
  responses: {
    201: { description: "Requested", content: { "application/json": { schema: envelopeSchema(StepResultSchema) } } },
    200: {
      description: "The same request again (its Idempotency-Key): the return as it is now",
      content: { "application/json": { schema: envelopeSchema(StepResultSchema) } },
    },
    ...authenticatedErrorResponses,
    404: problem("The tenant has no order with that number, or it has no line with that id"),
    409: problem("The line is not delivered, the key was used for another request, or the order changed meanwhile (retry)"),
    422: problem("A line bought on exchange, loan or for repair goes back as such, not as a return"),
  },
});

const searchRoute = createRoute({
  method: "get",
  path: "/returns",
  tags: [TAG],
  summary: "Search cores, loaners, repairs and returns",
  description:
    "The tenant's cores, loaners, repairs and returns, with the q language. " +
    'Open ones with their due dates: e.g. `q=kind:core AND status:open AND dueAt<"2026-12-15"`. Oldest first by default.',
  ...scopedAccess("orders:read"),
  request: { query: searchQueryParams(returnSearch, 'kind:core AND status:open AND dueAt<"2026-12-15"') },
  responses: {
    200: {
      description: "A page of returns",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ returns: z.array(ReturnRecordSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/returns/{returnId}",
  tags: [TAG],
  summary: "Get a core, loaner, repair or return",
  description: "One core, loaner, repair or return of the tenant, with its next steps. 404 for an id the tenant does not have.",
  ...scopedAccess("orders:read"),
  request: { params: ReturnIdParams },
  responses: { 200: { description: "The return", content: recordContent }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const shipRoute = createRoute({
  method: "post",
  path: "/returns/{returnId}/ship",
  tags: [TAG],
  summary: "Ship a unit back to the vendor",
  description:
    "A core, a loaner, a unit for repair or an authorized return. With carrier and tracking, and the unit's UDI label when scanned (its serial is kept). Sending the same tracking number again answers as done.",
  ...scopedAccess("orders:write"),
  request: { params: ReturnIdParams, body: { required: true, content: { "application/json": { schema: ShipReturnSchema } } } },
  responses: stepResponses,
});

const repairDecisionRoute = createRoute({
  method: "post",
  path: "/returns/{returnId}/repair-decision",
  tags: [TAG],
  summary: "Approve or decline a repair beyond its flat rate",
  description:
    "A repair the vendor found beyond its flat rate. Approving takes the new price onto the order line (and the order's total); declining has the unit sent back unrepaired.",
  ...scopedAccess("orders:write"),
  request: { params: ReturnIdParams, body: { required: true, content: { "application/json": { schema: RepairDecisionSchema } } } },
  responses: stepResponses,
});

const buyer = createRouter()
  .openapi(requestRoute, async (c) => {
    const { orderNumber, lineId } = c.req.valid("param");
    const home = tenantDatabase(c);
    const tenantId = c.get("principal").dataTenantId;
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER)!;
    const outcome = await requestReturn(database(home), tenantId, orderNumber, lineId, c.req.valid("json"), key);
    const record = await findReturn(database(home), { tenantId }, outcome.returnId);
    return c.json(envelope(c, { return: record!, eventId: outcome.eventIds[0] ?? null }), outcome.created ? 201 : 200);
  })
  .openapi(searchRoute, async (c) => {
    const params = c.req.valid("query");
    const result = await searchReturns(database(tenantDatabase(c)), c.get("principal").dataTenantId, params, getPage(params));
    return c.json(envelope(c, result), 200);
  })
  .openapi(getRoute, async (c) => {
    const record = await findReturn(
      database(tenantDatabase(c)),
      { tenantId: c.get("principal").dataTenantId },
      c.req.valid("param").returnId,
    );
    if (!record) throw returnNotFound();
    return c.json(envelope(c, record), 200);
  })
  .openapi(shipRoute, async (c) => {
    const home = tenantDatabase(c);
    const tenantId = c.get("principal").dataTenantId;
    const outcome = await takeBuyerStep(database(home), tenantId, c.req.valid("param").returnId, {
      action: "ship",
      ...c.req.valid("json"),
    });
    return answerStep(c, home, { tenantId }, outcome) as never;
  })
  .openapi(repairDecisionRoute, async (c) => {
    const home = tenantDatabase(c);
    const tenantId = c.get("principal").dataTenantId;
    const outcome = await takeBuyerStep(database(home), tenantId, c.req.valid("param").returnId, {
      action: "repair-decision",
      ...c.req.valid("json"),
    });
    return answerStep(c, home, { tenantId }, outcome) as never;
  });

export const returnBuyerRoutes = buyer;

const VENDOR_STEPS = {
  authorize: {
    schema: AuthorizeReturnSchema,
    summary: "Authorize a return",
    description: "With an RMA number, a return-by date and a restocking fee.",
  },
  decline: { schema: DeclineReturnSchema, summary: "Decline a return", description: "With a reason." },
  receive: {
    schema: ReceiveReturnSchema,
    summary: "Receive a unit",
    description: "A core accepted or refused (a refused core is charged), a loaner (late fees charged), a repair, a return.",
  },
  diagnose: {
    schema: DiagnoseRepairSchema,
    summary: "Diagnose a repair",
    description: "Within the flat rate, or beyond it with a price the buyer decides on.",
  },
  "send-back": {
    schema: SendBackSchema,
    summary: "Send a repair's unit back",
    description: "With tracking: repaired, or unrepaired when the buyer declined.",
  },
} as const;

const vendorGetRoute = createRoute({
  method: "get",
  path: "/returns/{returnId}",
  tags: [TAG],
  summary: "Get a return",
  description:
    "One of the vendor's returns (a core, a loaner, a repair, a return), with its next steps. 404 for another vendor's, exactly like an unknown id.",
  ...vendorScopedAccess("fulfilment:read"),
  request: { params: ReturnIdParams },
  responses: { 200: { description: "The return", content: recordContent }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const lineReturnsRoute = createRoute({
  method: "get",
  path: "/order-lines/{lineId}/returns",
  tags: [TAG],
  summary: "List the returns of an order line",
  description:
    "The returns of one of the vendor's order lines (its cores, loaners, repair, return requests), newest first. How a vendor finds a return request to authorize, and the cores and loaners its parcels opened.",
  ...vendorScopedAccess("fulfilment:read"),
  request: { params: z.object({ lineId: integerPathParam("lineId", 1) }) },
  responses: {
    200: {
      description: "The line's returns",
      content: { "application/json": { schema: envelopeSchema(z.object({ returns: z.array(ReturnRecordSchema) })) } },
    },
    ...authenticatedErrorResponses,
  },
});

const vendor = createRouter()
  .openapi(vendorGetRoute, async (c) => {
    const { returnId } = c.req.valid("param");
    const home = await storeOfRow(c.env, returnId);
    const record = home && (await findReturn(database(home), { vendorId: c.get("vendorPrincipal").vendorId }, returnId));
    if (!record) throw returnNotFound();
    return c.json(envelope(c, record), 200);
  })
  .openapi(lineReturnsRoute, async (c) => {
    const { lineId } = c.req.valid("param");
    const home = await storeOfRow(c.env, lineId);
    // A line no store holds has no returns, as an unknown line of a store has none.
    const returns = home ? await returnsOfLine(database(home), { vendorId: c.get("vendorPrincipal").vendorId }, lineId) : [];
    return c.json(envelope(c, { returns }), 200);
  });

for (const [action, { schema, summary, description }] of Object.entries(VENDOR_STEPS)) {
  vendor.openapi(
    createRoute({
      method: "post",
      path: `/returns/{returnId}/${action}`,
      tags: [TAG],
      summary,
      description: `${description} Repeating a step already in place answers as done, with eventId null.`,
      ...vendorScopedAccess("fulfilment:write"),
      request: { params: ReturnIdParams, body: { required: true, content: { "application/json": { schema } } } },
      responses: stepResponses,
    }),
    async (c) => {
      const { returnId } = c.req.valid("param");
      const home = await storeOfRow(c.env, returnId);
      if (!home) throw returnNotFound();
      const scope = { vendorId: c.get("vendorPrincipal").vendorId };
      const body = c.req.valid("json") as object;
      const outcome = await takeVendorStep(database(home), scope, returnId, { action, ...body } as VendorAction);
      return answerStep(c, home, scope, outcome) as never;
    },
  );
}

export const returnVendorRoutes = vendor;
