import { z } from "@hono/zod-openapi";
import type { PurchaseTerms, PurchaseType } from "../../db/purchase-terms";
import { amountCents, centsToText } from "../../platform/money";
import { closedObject, decimalPrice, moneyAmount, readableText } from "../../platform/schemas";

/**
 * Purchase types and their terms (docs/api.md, "Purchase types"): how an offer sells a part, what a price option
 * promises with its price, what an order line keeps. One file for the rules: offers take them, quotes show them,
 * orders check repair lines against them.
 */

export const PURCHASE_TYPES = ["buy", "exchange", "loan", "repair"] as const satisfies readonly PurchaseType[];

/** Why a unit goes in for repair: the documented list a repair line's `reason` is one of. */
export const REPAIR_REASONS = [
  "no_power",
  "error_code",
  "physical_damage",
  "intermittent_failure",
  "calibration_failure",
  "noise_or_vibration",
  "display_failure",
  "fluid_leak",
  "failed_self_test",
  "other",
] as const;

const days = (what: string, example: number) => z.number().int().min(1).max(365).openapi({ description: what, example });
const returnTo = readableText(500).optional().openapi({
  description: "Where the unit goes back: the vendor's return address or a return label URL",
  example: "Medparts Returns, 100 Dock St, Memphis TN 38118",
});

export const ExchangeTermsSchema = closedObject({
  coreCharge: decimalPrice("What the buyer pays per unit if the core does not come back by its due date, or is refused"),
  coreDueDays: days("Days after shipment by which the core must be back", 30),
  coreConditions: z
    .array(readableText(200).openapi({ example: "Complete, not disassembled" }))
    .max(10)
    .default([])
    .openapi({ description: "What a core must be to be accepted", example: ["Complete, not disassembled", "No fluid damage"] }),
  returnTo,
}).openapi("ExchangeTerms");

export const LoanTermsSchema = closedObject({
  loanDays: days("Days after shipment by which the loaner must be back", 30),
  lateFeePerDay: decimalPrice("Fee per unit and day the loaner is late"),
  returnTo,
}).openapi("LoanTerms");

export const RepairTermsSchema = closedObject({
  turnaroundDays: days("Days from receiving the unit to sending it back repaired", 10),
  reasons: z
    .array(z.enum(REPAIR_REASONS))
    .min(1)
    .max(REPAIR_REASONS.length)
    .default([...REPAIR_REASONS])
    .openapi({ description: "The repair reasons the vendor takes at its flat rate (the offer's price); default all" }),
  returnTo,
}).openapi("RepairTerms");

/** The fields an offer takes besides its others: the type and the terms that type needs. */
export const purchaseTypeFields = {
  purchaseType: z.enum(PURCHASE_TYPES).default("buy").openapi({
    description:
      "How the part is sold: buy (outright), exchange (a core goes back), loan, or repair (the buyer's unit is sent in; the price is the flat rate). Default buy. Its terms object is required with it, and the others refused",
  }),
  exchangeTerms: ExchangeTermsSchema.optional(),
  loanTerms: LoanTermsSchema.optional(),
  repairTerms: RepairTermsSchema.optional(),
};

type TermsInput = {
  purchaseType?: PurchaseType;
  exchangeTerms?: z.infer<typeof ExchangeTermsSchema>;
  loanTerms?: z.infer<typeof LoanTermsSchema>;
  repairTerms?: z.infer<typeof RepairTermsSchema>;
};

const TERMS_FIELD = { exchange: "exchangeTerms", loan: "loanTerms", repair: "repairTerms" } as const;

/** Each terms object goes with its type only: the one the type needs is required, the others are refused. */
export function purchaseTermsRules(input: { [K in keyof TermsInput]?: unknown }, ctx: z.RefinementCtx): void {
  const type = (input.purchaseType ?? "buy") as PurchaseType;
  for (const [of, field] of Object.entries(TERMS_FIELD) as [Exclude<PurchaseType, "buy">, string][]) {
    const given = (input as Record<string, unknown>)[field] !== undefined;
    if (of === type && !given) ctx.addIssue({ code: "custom", path: [field], message: `Required with purchaseType ${type}.` });
    if (of !== type && given) ctx.addIssue({ code: "custom", path: [field], message: `Only with purchaseType ${of}.` });
  }
}

/** Exact cents of a validated amount (a staged price file row of before 2026-12-07 holds a JSON number). */
const cents = (amount: string) => amountCents(amount)!;

/** The stored terms of a validated offer input. */
export function termsOfInput(input: TermsInput): PurchaseTerms {
  switch (input.purchaseType ?? "buy") {
    case "exchange": {
      const t = input.exchangeTerms!;
      return {
        type: "exchange",
        coreChargeCents: cents(t.coreCharge),
        coreDueDays: t.coreDueDays,
        coreConditions: t.coreConditions,
        returnTo: t.returnTo ?? null,
      };
    }
    case "loan": {
      const t = input.loanTerms!;
      return { type: "loan", loanDays: t.loanDays, lateFeePerDayCents: cents(t.lateFeePerDay), returnTo: t.returnTo ?? null };
    }
    case "repair": {
      const t = input.repairTerms!;
      return { type: "repair", turnaroundDays: t.turnaroundDays, reasons: [...t.reasons], returnTo: t.returnTo ?? null };
    }
    default:
      return { type: "buy" };
  }
}

/** Stored terms, or none (a buy, an offer or quote from before purchase types): a buy. */
export const termsOrBuy = (terms: PurchaseTerms | null | undefined): PurchaseTerms => terms ?? { type: "buy" };

/** The terms as offers and price options show them (money as decimals, like their price); null for a buy. */
export function presentTerms(stored: PurchaseTerms | null | undefined) {
  const terms = termsOrBuy(stored);
  switch (terms.type) {
    case "exchange":
      return {
        type: terms.type,
        coreCharge: centsToText(terms.coreChargeCents),
        coreDueDays: terms.coreDueDays,
        coreConditions: terms.coreConditions,
        returnTo: terms.returnTo,
      };
    case "loan":
      return {
        type: terms.type,
        loanDays: terms.loanDays,
        lateFeePerDay: centsToText(terms.lateFeePerDayCents),
        returnTo: terms.returnTo,
      };
    case "repair":
      return { type: terms.type, turnaroundDays: terms.turnaroundDays, reasons: terms.reasons, returnTo: terms.returnTo };
    default:
      return null;
  }
}

const returnToView = z.string().nullable();
export const PurchaseTermsViewSchema = z
  .discriminatedUnion("type", [
    z.object({
      type: z.literal("exchange"),
      coreCharge: moneyAmount("The core charge per unit"),
      coreDueDays: z.number().int(),
      coreConditions: z.array(z.string()),
      returnTo: returnToView,
    }),
    z.object({
      type: z.literal("loan"),
      loanDays: z.number().int(),
      lateFeePerDay: moneyAmount("The late fee per unit and day"),
      returnTo: returnToView,
    }),
    z.object({ type: z.literal("repair"), turnaroundDays: z.number().int(), reasons: z.array(z.string()), returnTo: returnToView }),
  ])
  .nullable()
  .openapi("PurchaseTerms", {
    description:
      "The terms of the purchase type, frozen in the price option like its price: an exchange's core charge and due days, a loan's days and late fee, a repair's turnaround and accepted reasons; null for a buy",
  });

/** What a repair line of an order says about the unit that goes in. */
export const RepairRequestSchema = closedObject({
  serialNumber: readableText(64).openapi({ description: "The unit's serial number", example: "SN-48213-B" }),
  reason: readableText(50).openapi({
    description: `Why it goes in, one of: ${REPAIR_REASONS.join(", ")} (and among those the vendor's repair terms take); anything else is a 422`,
    example: "error_code",
  }),
  description: readableText(500).optional().openapi({ description: "What fails, in the buyer's words", example: "E-42 on start-up" }),
}).openapi("RepairRequest", { description: "Required on a line of a repair price option, refused on any other" });

/**
 * A line's repair request against its quote's terms: a repair quote needs quantity 1 and a request with a reason its
 * vendor takes; any other quote takes none. Each violation names the field.
 */
export function repairLineViolations(
  at: string,
  line: { quantity: number; repair?: { reason: string } | undefined },
  terms: PurchaseTerms,
): string[] {
  if (terms.type !== "repair") return line.repair ? [`${at}.repair: only a repair price option takes a repair request.`] : [];
  const violations: string[] = [];
  if (line.quantity !== 1) violations.push(`${at}.quantity: a repair line is one unit (quantity 1), not ${line.quantity}.`);
  if (!line.repair) violations.push(`${at}.repair: a repair line needs the unit's serialNumber and reason.`);
  else if (!(REPAIR_REASONS as readonly string[]).includes(line.repair.reason)) {
    violations.push(`${at}.repair.reason: "${line.repair.reason}" is not a repair reason (one of: ${REPAIR_REASONS.join(", ")}).`);
  } else if (!terms.reasons.includes(line.repair.reason)) {
    violations.push(
      `${at}.repair.reason: "${line.repair.reason}" is not a reason this vendor repairs (it takes: ${terms.reasons.join(", ")}).`,
    );
  }
  return violations;
}
