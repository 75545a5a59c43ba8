import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { centsToText, MARKET_CURRENCY, textToCents } from "../../platform/money";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, closedObject, envelopeSchema, moneyText } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../../shared/auth/bearer";
import { DEFAULT_DUE_SOON_DAYS, type PurchasingSettings, readSettings, type Tolerance, writeSettings } from "./settings";

/** The tenant's purchasing settings (docs/api.md, "Purchasing settings"): read and replace them. */

const percentText = z
  .string()
  .regex(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, 'Must be a percentage from 0 to 100 with at most two decimal places, e.g. "2.5".')
  .openapi({ description: "A percentage of the line's unit price, 0 to 100, at most two decimal places", example: "2.50" });

const ToleranceSchema = closedObject({
  percent: percentText.nullable().openapi({ description: "At most this share of the unit price; null: no share limit" }),
  amount: moneyText("At most this much a unit")
    .nullable()
    .openapi({ description: "At most this much a unit (a decimal string); null: no amount limit" }),
}).openapi({ description: "A price difference within both limits that are set; with neither set, none is" });

const SettingsSchema = closedObject({
  autoAcceptPriceIncrease: ToleranceSchema.nullable().openapi({
    description:
      "Price increases of a vendor's confirmation applied without asking the buyer (like Amazon Business's order safeguards); null: every increase waits for the buyer. A price above the contract price always waits",
  }),
  priceTolerance: ToleranceSchema.openapi({ description: "How far an invoiced unit price may differ from the order's and still match" }),
  currency: z.literal(MARKET_CURRENCY).optional().openapi({
    description: "ISO 4217 currency of the amounts: always in an answer; a request may leave it out (it can only be the market's, USD)",
  }),
  quantityTolerance: z
    .number()
    .int()
    .min(0)
    .max(9999)
    .openapi({ description: "How many units an order line's invoices may bill beyond what shipped and still match" }),
  dueSoonDays: z
    .number()
    .int()
    .min(0)
    .max(60)
    .default(DEFAULT_DUE_SOON_DAYS)
    .openapi({
      description: `How many days before a core's or loaner's due day the tenant is warned (core.due_soon, loaner.due_soon); default ${DEFAULT_DUE_SOON_DAYS}`,
    }),
}).openapi("PurchasingSettings", {
  example: {
    autoAcceptPriceIncrease: { percent: "2.00", amount: "5.00" },
    priceTolerance: { percent: "1.00", amount: null },
    quantityTolerance: 0,
    dueSoonDays: 5,
  },
});

type SettingsBody = z.infer<typeof SettingsSchema>;
type ToleranceBody = z.infer<typeof ToleranceSchema>;

/** A percentage with two decimal places is a whole number of basis points, as money is of cents. */
const percentToBp = (percent: string) => textToCents(percent)!;
const toTolerance = (body: ToleranceBody): Tolerance => ({
  percentBp: body.percent === null ? null : percentToBp(body.percent),
  amountCents: body.amount === null ? null : textToCents(body.amount),
});
const fromTolerance = (tolerance: Tolerance): ToleranceBody => ({
  percent: tolerance.percentBp === null ? null : centsToText(tolerance.percentBp),
  amount: tolerance.amountCents === null ? null : centsToText(tolerance.amountCents),
});

const toSettings = (body: SettingsBody): PurchasingSettings => ({
  // Neither limit set accepts no increase: the same as none (null), and read back as null.
  autoAccept:
    body.autoAcceptPriceIncrease && (body.autoAcceptPriceIncrease.percent !== null || body.autoAcceptPriceIncrease.amount !== null)
      ? toTolerance(body.autoAcceptPriceIncrease)
      : null,
  priceTolerance: toTolerance(body.priceTolerance),
  quantityTolerance: body.quantityTolerance,
  dueSoonDays: body.dueSoonDays,
});
const fromSettings = (settings: PurchasingSettings): SettingsBody => ({
  autoAcceptPriceIncrease: settings.autoAccept ? fromTolerance(settings.autoAccept) : null,
  priceTolerance: fromTolerance(settings.priceTolerance),
  currency: MARKET_CURRENCY,
  quantityTolerance: settings.quantityTolerance,
  dueSoonDays: settings.dueSoonDays,
});

const answer = { description: "The tenant's settings", content: { "application/json": { schema: envelopeSchema(SettingsSchema) } } };

const getRoute = createRoute({
  method: "get",
  path: "/purchasing-settings",
  tags: ["Invoices"],
  summary: "Get the purchasing settings",
  description:
    "The tenant's purchasing settings: automatic acceptance of vendors' price changes, and match tolerances. A tenant that never set them has the defaults: no automatic acceptance, exact matching.",
  ...scopedAccess("orders:read"),
  responses: { 200: answer, ...authenticatedErrorResponses },
});

const putRoute = createRoute({
  method: "put",
  path: "/purchasing-settings",
  tags: ["Invoices"],
  summary: "Replace the tenant's purchasing settings",
  description:
    "Applies to confirmations and invoices from now on; an earlier invoice is matched with them at its order's next change (an invoice, a credit memo, a parcel, a price accepted).",
  ...scopedAccess("orders:write"),
  request: { body: { required: true, content: { "application/json": { schema: SettingsSchema } } } },
  responses: { 200: answer, ...authenticatedErrorResponses },
});

export const purchasingSettingsRoutes = createRouter()
  .openapi(getRoute, async (c) => {
    const settings = await readSettings(database(tenantDatabase(c)), c.get("principal").dataTenantId);
    return c.json(envelope(c, fromSettings(settings)), 200);
  })
  .openapi(putRoute, async (c) => {
    const settings = toSettings(c.req.valid("json"));
    await writeSettings(database(tenantDatabase(c)), c.get("principal").dataTenantId, settings, new Date().toISOString());
    return c.json(envelope(c, fromSettings(settings)), 200);
  });
