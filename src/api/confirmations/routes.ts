import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeSchema,
  FUTURE_DATE_EXAMPLE,
  integerPathParam,
  moneyText,
  notFoundResponse,
  optionalLineQuantity,
  problem,
  readableText,
} from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess, vendorScopedAccess } from "../../shared/auth/bearer";
import { CODE_SPELLINGS, CONFIRMATION_CODES, CONFIRMATION_TYPES } from "../../shared/confirmations/codes";
import { storeOfRow } from "../../shared/tenants/homes";
import { LINE_STATUSES, ORDER_STATUSES } from "../orders/lifecycle";
import { OrderNumberParams } from "../orders/retrieve-routes";
import { findVendorLines, vendorLineNotFound } from "../vendors/lines";
import { DEMO_LINE_ID, shipDate, VendorOrderLineSchema } from "../vendors/routes";
import { confirmLines } from "./confirm";
import { decideChange } from "./decide";

/** Confirmations with changes (docs/api.md, "Confirmations"): the vendor's route and the buyer's answer. */

const CODE_TABLE = CONFIRMATION_CODES.map((c) => `\`${c.code}\` ${c.name} (${c.meaning})`).join("; ");

const ConfirmationLineSchema = closedObject({
  lineId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({ description: "One of the vendor's lines of the order" }),
  code: z
    .enum(CODE_SPELLINGS as unknown as [string, ...string[]])
    .optional()
    .openapi({
      description: `The line's X12 855 status, as the code or its name (required for types detail and except): ${CODE_TABLE}`,
      example: "IP",
    }),
  unitPrice: moneyText("IP, IC, IS: the unit price the vendor can supply at").optional(),
  quantity: optionalLineQuantity("IQ, IC: the quantity the vendor can supply; BP: how much ships now"),
  substitute: closedObject({
    partNumber: readableText(64).openapi({ description: "The substitute's part number", example: "GE100000R" }),
    description: readableText(500).openapi({ example: "Multiparameter Module, OEM refurbished; replaces GE-100-000" }),
  })
    .optional()
    .openapi({ description: "IS, IC: the product the vendor offers instead" }),
  promisedShipDate: shipDate("IA, DR (required), BP, IP, IQ, IS, IC: when the vendor will ship").optional(),
  expectedShipDate: shipDate("IB, BP (required): when the vendor expects to ship the backordered quantity").optional(),
  reason: readableText(500)
    .nullish()
    .openapi({ description: "Why: shown to the buyer with the line", example: "Manufacturer price increase effective December 1" }),
});

const ConfirmationRequestSchema = closedObject({
  type: z.enum(CONFIRMATION_TYPES).openapi({
    description:
      "As cXML's ConfirmationRequest: accept (every line listed IA), reject (IR), backordered (IB), detail (each line its own code), except (the lines listed their codes, every other open line of the vendor on the order IA)",
  }),
  lines: z.array(ConfirmationLineSchema).min(1).max(200).openapi({ description: "Lines of one order; each lineId once" }),
  promisedShipDate: shipDate("The default of the lines' promisedShipDate (and of the lines an except confirmation accepts)").optional(),
  expectedShipDate: shipDate("The default of the lines' expectedShipDate").optional(),
  reason: readableText(500)
    .nullish()
    .openapi({ description: "The default of the lines' reason", example: "Allocated from the Memphis warehouse" }),
}).openapi("OrderConfirmationRequest", {
  example: { type: "detail", lines: [{ lineId: DEMO_LINE_ID, code: "IP", unitPrice: "125.00", promisedShipDate: FUTURE_DATE_EXAMPLE }] },
});

const ConfirmationResultSchema = z
  .object({
    orderNumber: z.string(),
    orderStatus: z.enum(ORDER_STATUSES),
    eventId: z
      .string()
      .nullable()
      .openapi({ description: "The order.confirmed event; null when every line already was as confirmed (a repeat)" }),
    lines: z.array(VendorOrderLineSchema).openapi({ description: "The lines confirmed, after the confirmation" }),
  })
  .openapi("OrderConfirmationResult");

const confirmRoute = createRoute({
  method: "post",
  path: "/order-confirmations",
  tags: ["Vendor fulfilment"],
  summary: "Confirm lines of an order with X12 855 codes",
  description:
    "Accept, backorder, change price, quantity or product, hold, reject. A purchase order acknowledgement for the vendor's lines of one order. A price above the line's (unless within the buyer's automatic acceptance), a quantity change or a substitution waits for the buyer's answer: the line keeps its status and shows `pendingChange`, and cannot ship meanwhile. A price above the buyer's contract price is flagged `contractPriceException` and never accepted automatically. Repeating a confirmation already in place answers 200 with `eventId` null. A field a code does not take, or one it requires and lacks, is a 400 naming it.",
  ...vendorScopedAccess("fulfilment:write"),
  request: { body: { required: true, content: { "application/json": { schema: ConfirmationRequestSchema } } } },
  responses: {
    200: { description: "Confirmed", content: { "application/json": { schema: envelopeSchema(ConfirmationResultSchema) } } },
    ...authenticatedErrorResponses,
    404: problem("lines[0] is not one of the vendor's lines (unknown or another vendor's: indistinguishable)"),
    409: problem("A line cannot take its code now (its status, a shipped part), or the order changed meanwhile (retry)"),
    422: problem("The lines are not all the vendor's lines of one order"),
  },
});

export const confirmationVendorRoutes = createRouter().openapi(confirmRoute, async (c) => {
  const { vendorId } = c.get("vendorPrincipal");
  const body = c.req.valid("json");
  const home = await storeOfRow(c.env, body.lines[0]!.lineId);
  if (!home) throw vendorLineNotFound();
  const db = database(home);
  const outcome = await confirmLines(db, vendorId, body as Parameters<typeof confirmLines>[2]);
  const lines = await findVendorLines(db, vendorId, outcome.lineIds);
  return c.json(envelope(c, { orderNumber: outcome.orderNumber, orderStatus: outcome.orderStatus, eventId: outcome.eventId, lines }), 200);
});

const DecisionSchema = closedObject({
  decision: z
    .enum(["accept", "decline"])
    .openapi({ description: "accept: the line takes the change and is Acknowledged; decline: the line is cancelled" }),
  reason: readableText(500)
    .nullish()
    .openapi({ description: "Why, for the vendor and the event", example: "Substitute approved by biomedical engineering" }),
  proposedAt: z.iso.datetime({ offset: true, message: "Must be an ISO 8601 date-time." }).optional().openapi({
    description:
      "The `proposedAt` of the pendingChange being answered: when the vendor has since replaced it, the answer is a 409 `change-superseded` instead of applying a change the buyer never saw (recommended for retries)",
  }),
}).openapi("ChangeDecisionRequest", { example: { decision: "accept" } });

const DecisionResultSchema = z
  .object({
    orderNumber: z.string(),
    lineId: z.number().int(),
    lineStatus: z.enum(LINE_STATUSES),
    orderStatus: z.enum(ORDER_STATUSES),
    eventId: z.string().nullable().openapi({ description: "The order.change_accepted or order.change_declined event; null for a repeat" }),
  })
  .openapi("ChangeDecisionResult");

const decideRoute = createRoute({
  method: "post",
  path: "/orders/{orderNumber}/lines/{lineId}/change-decision",
  tags: ["Orders"],
  summary: "Accept or decline a vendor's change of a line",
  description:
    "A change of price or quantity, or a substitution. Answers the `pendingChange` of a line. Accepting applies it (price, quantity, product, date; the order's total follows) and the line is Acknowledged; declining cancels the line. Answering again what was already answered answers 200 with `eventId` null; a line without a pending change is a 409.",
  ...scopedAccess("orders:write"),
  request: {
    params: OrderNumberParams.extend({ lineId: integerPathParam("lineId", DEMO_LINE_ID) }),
    body: { required: true, content: { "application/json": { schema: DecisionSchema } } },
  },
  responses: {
    200: { description: "Answered", content: { "application/json": { schema: envelopeSchema(DecisionResultSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
    409: problem(
      "The line has no change waiting for an answer, the vendor replaced the one answered (`proposedAt`), or the order changed meanwhile (retry)",
    ),
  },
});

export const confirmationBuyerRoutes = createRouter().openapi(decideRoute, async (c) => {
  const { orderNumber, lineId } = c.req.valid("param");
  const { decision, reason, proposedAt } = c.req.valid("json");
  const tenantId = c.get("principal").dataTenantId;
  const outcome = await decideChange(database(tenantDatabase(c)), tenantId, orderNumber, lineId, decision, {
    reason: reason ?? null,
    proposedAt,
  });
  const { eventIds: _all, ...answer } = outcome;
  return c.json(envelope(c, answer), 200);
});
