import { createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { inBackground } from "../../platform/background";
import { noRoute } from "../../platform/error-handler";
import { notFound } from "../../platform/errors";
import { SANDBOX_TAG } from "../../platform/openapi/info";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeSchema,
  FUTURE_DATE_EXAMPLE,
  moneyText,
  optionalLineQuantity,
  problem,
} from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { requireBearer, requireScope, scopedAccess } from "../../shared/auth/bearer";
import { CODE_SPELLINGS } from "../../shared/confirmations/codes";
import { handSandboxOrderToEdi } from "./edi";
import { INVOICE_EXCEPTIONS } from "./purchasing";
import { simulateRecall } from "./recall";
import { runScenario, SCENARIOS, sandboxLines } from "./simulator";

/** Test helpers of the sandbox (docs/api.md, "Sandbox"): test-mode clients only; to a live token they do not exist. */

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "A date, YYYY-MM-DD.")
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    "Not a calendar date.",
  )
  .refine((value) => value >= new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), "A date not before yesterday (UTC).")
  .openapi({ format: "date", example: FUTURE_DATE_EXAMPLE });

const SimulateRequest = closedObject({
  scenario: z.enum(SCENARIOS).openapi({
    description:
      "acknowledge: every Ordered or Backordered line; backorder: every Ordered or Acknowledged line, with expectedShipDate; ship_partial: one parcel per vendor with half of what remains of each of its lines; ship: everything that remains, a parcel per line; deliver: every fully shipped line; reject_line: the first Ordered line (or lineId), with reason; confirm: a confirmation per vendor of every open line with `code` (default IA; each code sends plausible values: IP 10% more, IQ one less, IS a substitute...); invoice: an invoice per vendor of what shipped, at the order's prices, with `exception` on its first line; core_received, core_refused (with reason; then charged): each core of the order, shipped back for the buyer if still open, then received; core_overdue: each open core, its due day moved to yesterday, overdue and charged; loaner_overdue: each open loaner, warned on its due day moved to today (unless warned already), then overdue with it moved to yesterday: its late fees accrue; loaner_received: each loaner, shipped back for the buyer if still out, then received: late fees billed (an invoice) when it left after its due day; repair_beyond_flat_rate: each repair, sent in for the buyer if needed, received and diagnosed beyond its flat rate at half as much again (the buyer then approves or declines); rma_declined: each requested return declined, with reason; recall: a made-up recall of the units the order received (each shipped unit without a scanned code gets the product's GTIN and lot SBX-LOT-1), matched at once: recall.affects_you, GET /recalls",
  }),
  code: z
    .enum(CODE_SPELLINGS as unknown as [string, ...string[]])
    .optional()
    .openapi({ description: "confirm: the X12 855 code (or its name) of every line; default IA" }),
  unitPrice: moneyText("confirm: the unit price IP, IC send instead of the scenario's").optional(),
  quantity: optionalLineQuantity("confirm: the quantity IQ, IC, BP send instead of the scenario's"),
  exception: z.enum(INVOICE_EXCEPTIONS).optional().openapi({
    description: "invoice: the exception of the invoice's first line (contract_price_exception: of its first contract line); default none",
  }),
  lineId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().openapi({ description: "Only this line of the order" }),
  promisedShipDate: day.optional().openapi({ description: "acknowledge: a date not before yesterday (UTC); default in 2 days" }),
  expectedShipDate: day.optional().openapi({ description: "backorder: a date not before yesterday (UTC); default in 14 days" }),
  reason: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .openapi({ description: "backorder, reject_line, confirm, core_refused, repair_beyond_flat_rate, rma_declined: why" }),
}).openapi("SimulateRequest", { example: { scenario: "ship_partial" } });

const SimulateResult = z
  .object({
    orderNumber: z.string(),
    scenario: z.enum(SCENARIOS),
    orderStatus: z.string().nullable().openapi({ description: "The order's status after the run" }),
    eventIds: z.array(z.string()).openapi({ description: "The events the run wrote (feed and webhooks), in order" }),
  })
  .openapi("SimulateResult");

/**
 * For a live token the route is not there: the same 404 as any unknown path, before its scope is checked or its body
 * read (src/api/app.ts answers a wrong method on it as on an unknown path).
 */
const testModeOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("principal").mode !== "test") throw noRoute(c);
  await next();
};

const TEST_HELPERS_PATH = "/customer/api/test-helpers/";

/** A path of the test helpers, to a caller that is not a test-mode client: a route that does not exist for it. */
export const hiddenTestHelper = (c: Context<AppEnv>) => c.req.path.startsWith(TEST_HELPERS_PATH) && c.get("principal")?.mode !== "test";

// The mode before the scope: a live token without the scope gets the unknown path's 404 too, not a 403.
const testModeAccess = { ...scopedAccess("orders:write"), middleware: [requireBearer, testModeOnly, requireScope("orders:write")] };

const simulateRoute = createRoute({
  method: "post",
  path: "/test-helpers/orders/{orderNumber}/simulate",
  tags: [SANDBOX_TAG],
  summary: "Run a scenario on a test order",
  description:
    "Test mode only: the simulated vendor runs a scenario on a test order now, with the real events and webhooks. For test-mode clients only (to a live token the path does not exist): moves the test order's lines at once instead of waiting for the simulated vendor's schedule, which then stops for this order.",
  ...testModeAccess,
  request: {
    params: z.object({
      orderNumber: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/)
        .openapi({ param: { name: "orderNumber", in: "path" }, example: "MP-100001" }),
    }),
    body: { required: true, content: { "application/json": { schema: SimulateRequest } } },
  },
  responses: {
    200: { description: "The scenario ran", content: { "application/json": { schema: envelopeSchema(SimulateResult) } } },
    ...authenticatedErrorResponses,
    404: problem("No test order of that number for this tenant; or a live token (the route does not exist for it)"),
    409: problem("No line of the order can take the step now (the detail says which step)"),
  },
});

export const sandboxRoutes = createRouter().openapi(simulateRoute, async (c) => {
  const principal = c.get("principal");
  const { orderNumber } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = tenantDatabase(c);
  const order = await sandboxLines(db, principal.dataTenantId, orderNumber);
  if (!order) throw notFound(`No test order ${orderNumber}.`);
  const run =
    body.scenario === "recall"
      ? await simulateRecall(c.env, db, principal.dataTenantId, orderNumber)
      : (await runScenario(db, principal.dataTenantId, orderNumber, body.scenario, body))!;
  // Driven by hand from now on (a scenario ran): the default schedule leaves the order alone.
  await db
    .prepare("INSERT INTO sandbox_manual_orders (order_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING")
    .bind(order.orderId, new Date().toISOString())
    .run();
  inBackground(c, handSandboxOrderToEdi(c.env, db, principal.dataTenantId, orderNumber));
  return c.json(envelope(c, { orderNumber, scenario: body.scenario, orderStatus: run.orderStatus, eventIds: run.eventIds }), 200);
});
