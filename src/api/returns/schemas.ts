import { z } from "@hono/zod-openapi";
import { closedObject, currencyCode, FUTURE_DATE_EXAMPLE, moneyText, readableText } from "../../platform/schemas";
import { RETURN_REASONS } from "./request";
import { RETURN_KINDS } from "./steps";

/** The shapes of returns (docs/api.md, "Returns, cores, loaners and repairs"): requests, steps and the record. */

/** An instant: ISO 8601 with an offset, kept as UTC. */
const instant = z.iso.datetime({ offset: true, message: "Must be an ISO 8601 date-time." }).transform((at) => new Date(at).toISOString());

const carrierName = readableText(50).openapi({ example: "UPS" });
const trackingNumber = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{3,39}$/, "Must be 4-40 letters, digits or '-', starting with a letter or digit.")
  .openapi({ example: "1Z999AA10123456784" });

const parcelFields = {
  carrierName,
  trackingNumber,
  shippedAt: instant.optional().openapi({
    description:
      "When it left; default now. Not in the future, nor before the return was opened (a repair's send-back: nor before it arrived), nor more than 2 days before this report.",
  }),
};

export const RequestReturnSchema = closedObject({
  quantity: z.number().int().min(1).max(9999).openapi({ description: "Units to return: at most those delivered and not in returns yet" }),
  reason: z.enum(RETURN_REASONS).openapi({ description: "Why the units go back" }),
  note: readableText(500).optional().openapi({ description: "For the vendor", example: "Ordered the 24V model by mistake" }),
}).openapi("ReturnRequest");

export const ShipReturnSchema = closedObject({
  ...parcelFields,
  udi: z.string().min(1).max(200).optional().openapi({
    description:
      "The unit's UDI label as scanned (GS1, HIBCC or ISBT 128, the scan-to-order parser reads it): its serial number is kept when the return has none",
    example: "(01)00614100000015(21)SN-48213-B",
  }),
}).openapi("ReturnShipment", { description: "The buyer's parcel back to the vendor (a core, a loaner, a unit for repair, a return)" });

export const RepairDecisionSchema = closedObject({
  decision: z.enum(["approve", "decline"]).openapi({ description: "approve: repair at the new price; decline: send it back unrepaired" }),
  reason: readableText(500).optional().openapi({ description: "For the vendor", example: "Over budget: replacing the unit instead" }),
}).openapi("RepairDecision");

export const AuthorizeReturnSchema = closedObject({
  rmaNumber: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, "Must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit.")
    .openapi({ description: "The vendor's RMA number", example: "RMA-20391" }),
  returnBy: z.iso
    .date()
    .openapi({ description: "The day by which the units must be shipped back (not before today)", example: FUTURE_DATE_EXAMPLE }),
  restockingFee: moneyText(
    "Deducted from the credit, per the vendor's terms, at most what the units were bought for; default 0",
  ).optional(),
  returnTo: readableText(500).optional().openapi({
    description: "Where the units go: an address or a return label URL",
    example: "Medparts Returns, 100 Dock St, Memphis TN 38118",
  }),
}).openapi("ReturnAuthorization");

export const DeclineReturnSchema = closedObject({
  reason: readableText(500).openapi({ description: "Why, for the buyer", example: "Sterile packaging opened" }),
}).openapi("ReturnDecline");

export const ReceiveReturnSchema = closedObject({
  outcome: z.enum(["accepted", "refused"]).optional().openapi({
    description: "A core's grade (required for a core): accepted, or refused as not repairable (then charged). Other units are received.",
  }),
  reason: readableText(500)
    .optional()
    .openapi({ description: "Why a core is refused (required then)", example: "Housing cracked: not repairable" }),
  receivedAt: instant.optional().openapi({ description: "When it arrived, not before it left nor in the future; default now" }),
}).openapi("ReturnReceipt");

export const DiagnoseRepairSchema = closedObject({
  withinFlatRate: z
    .boolean()
    .openapi({ description: "true: repaired at the flat rate; false: beyond it, at `price`, which the buyer approves or declines" }),
  price: moneyText("The repair's price beyond the flat rate (above it; required when withinFlatRate is false)").optional(),
  reason: readableText(500).optional().openapi({ description: "The diagnosis, for the buyer", example: "Main board failed" }),
}).openapi("RepairDiagnosis");

export const SendBackSchema = closedObject(parcelFields).openapi("RepairSendBack", {
  description: "The vendor's parcel with the unit back to the buyer: repaired when the repair went on, unrepaired when the buyer declined",
});

const shipmentView = z
  .object({
    carrierName: z.string(),
    trackingNumber: z.string(),
    shippedAt: z.string().datetime(),
    udi: z
      .object({
        agency: z.string(),
        deviceId: z.string(),
        lot: z.string().nullable(),
        serial: z.string().nullable(),
        expiry: z.string().nullable(),
      })
      .nullable()
      .optional(),
    repaired: z.boolean().optional(),
  })
  .nullable();
const amount = (description: string) =>
  z
    .string()
    .nullable()
    .openapi({ description: `${description}: a decimal string with two places`, example: "450.00" });

export const ReturnRecordSchema = z
  .object({
    returnId: z.number().int(),
    kind: z.enum(RETURN_KINDS),
    status: z.string().openapi({
      description: "Where it is in its state machine (docs/api.md); `cancelled`: a repair whose line was withdrawn before its unit went in",
      example: "open",
    }),
    open: z.boolean().openapi({ description: "Still waiting for a step" }),
    orderNumber: z.string(),
    lineId: z.number().int(),
    vendorId: z.number().int(),
    facilityId: z.number().int(),
    partNumber: z.string(),
    description: z.string(),
    quantity: z.number().int(),
    rmaNumber: z.string().nullable(),
    reason: z.string().nullable().openapi({ description: "A return's or a repair's reason" }),
    note: z.string().nullable(),
    serialNumber: z.string().nullable(),
    dueAt: z
      .string()
      .nullable()
      .openapi({ description: "The day it is due back (a core, a loaner) or must ship by (a return)", example: "2026-12-28" }),
    returnTo: z.string().nullable(),
    coreCharge: amount("A core's charge per unit, if it is late or refused"),
    lateFeePerDay: amount("A loaner's fee per unit and day late"),
    accruedLateFees: amount("A loaner's late fees so far (to the day it shipped back)"),
    repairPrice: amount("A repair's price: the flat rate, or the price the buyer approved"),
    proposedPrice: amount("A repair's price beyond the flat rate, while the buyer decides"),
    restockingFee: amount("A return's restocking fee"),
    creditDue: amount("A return's credit: the units at their price, less the restocking fee"),
    billed: amount("What was billed (a core charge, late fees)"),
    currency: currencyCode,
    invoiceId: z.number().int().nullable().openapi({ description: "The invoice of the charge (GET /invoices/{invoiceId})" }),
    inbound: shipmentView.openapi({ description: "The unit's parcel to the vendor" }),
    outbound: shipmentView.openapi({ description: "A repair's parcel back to the buyer" }),
    receivedAt: z.string().datetime().nullable(),
    outcome: z
      .string()
      .nullable()
      .openapi({ description: "A core's grade (accepted, refused); a repair's diagnosis (within_flat_rate, beyond_flat_rate)" }),
    outcomeReason: z.string().nullable(),
    dueSoonNotifiedAt: z.string().datetime().nullable(),
    createdAt: z.string().datetime(),
    lastUpdated: z.string().datetime(),
    nextSteps: z.array(z.object({ step: z.string(), actor: z.enum(["buyer", "vendor"]) })).openapi({
      description:
        "What may come next, and whose it is: each `step` is the action of a route (buyer: ship, repair-decision; vendor: authorize, decline, receive, diagnose, send-back); the housekeeping's overdue and charge steps are not listed",
    }),
  })
  .openapi("UnitReturn");

export const StepResultSchema = z
  .object({
    return: ReturnRecordSchema,
    eventId: z.string().nullable().openapi({ description: "The step's event; null when the step was already in place (a retry)" }),
  })
  .openapi("ReturnStepResult");
