import { z } from "@hono/zod-openapi";
import { closedObject, currencyCode, decimalPrice, moneyAmount, readableText } from "../../platform/schemas";
import { PURCHASE_TYPES, PurchaseTermsViewSchema, purchaseTermsRules, purchaseTypeFields } from "../../shared/catalog/purchase-terms";
import { FORMAT_REGEX_MAX_LENGTH, formatRegexProblem } from "./format-regex";

/** The offers and contract prices of the vendor API (docs/api.md, "Offers and contract prices"). */

/** The largest unit price an offer or agreement takes: prices travel as 32-bit cents in price option ids. */
export const MAX_PRICE = 9_999_999.99;
/** Offers per synchronous batch; larger price files go through an import job. */
export const OFFER_BATCH_MAX = 1000;

export const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The demo vendor's (4) offer of the first demo product (src/dev/seed/catalog.ts): /docs "Try it out" finds it. */
export const DEMO_OFFER_SKU = "MP-OFFER-10";
export const skuSchema = z
  .string()
  .regex(SKU, "Must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.")
  .openapi({ description: "The vendor's own number for the offer (its key)", example: DEMO_OFFER_SKU });

/** An instant: ISO 8601 with an offset, stored as UTC. */
export const instant = z.iso
  .datetime({ offset: true, message: "Must be an ISO 8601 date-time." })
  .transform((at) => new Date(at).toISOString());

const CustomFieldInputSchema = closedObject({
  fieldId: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, "Must be 1-40 letters, digits or '_', starting with a letter.")
    .openapi({ example: "costCenter" }),
  prompt: readableText(200).openapi({ example: "Cost center" }),
  isRequired: z.boolean(),
  formatRegex: z
    .string()
    .max(FORMAT_REGEX_MAX_LENGTH)
    .superRefine((pattern, ctx) => {
      const problem = formatRegexProblem(pattern);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .openapi({
      description: `A JavaScript regular expression the buyer's value must match; at most ${FORMAT_REGEX_MAX_LENGTH} characters, refused when it can backtrack catastrophically (nested or overlapping repetition) since it runs on every order line`,
      example: "^CC-\\d{4}$",
    }),
  errorMessage: readableText(300).openapi({ example: "A cost center is CC- and four digits." }),
}).openapi("CustomFieldInput");

const offerFields = {
  productId: z.string().min(1).max(64).optional().openapi({ description: "The catalog product, by id", example: "MP-0000001" }),
  gtin: z
    .string()
    .regex(/^\d{8}$|^\d{12,14}$/, "Must be a GTIN of 8, 12, 13 or 14 digits.")
    .optional()
    .openapi({ description: "Or by a GTIN of the product (any packaging level's)", example: "00614100000015" }),
  manufacturer: readableText(200)
    .optional()
    .openapi({ description: "Or by manufacturer name and part number together", example: "GE Healthcare" }),
  partNumber: readableText(100).optional().openapi({ example: "GE100000" }),
  condition: readableText(50).openapi({ example: "New OEM" }),
  purchaseChoice: readableText(50).openapi({
    description: "The choice as the buyer reads it (e.g. Buy, Exchange, Loan); purchaseType says what it means",
    example: "Buy",
  }),
  ...purchaseTypeFields,
  warranty: readableText(100).openapi({ example: "12 months" }),
  price: decimalPrice("List price per unit of measure, more than 0", MAX_PRICE),
  unitOfMeasure: z
    .string()
    .regex(/^[A-Z]{2,3}$/, "Must be a unit code of 2-3 capital letters (UN/ECE Rec. 20, e.g. EA, BX, CS).")
    .default("EA")
    .openapi({ description: "Default EA (each)", example: "EA" }),
  packQuantity: z.number().int().min(1).max(100_000).default(1).openapi({ description: "Items per unit of measure; default 1" }),
  leadTimeDays: z.number().int().min(0).max(365),
  quantityAvailable: z.number().int().min(0).max(1_000_000_000).nullish().openapi({ description: "Units in stock, if said" }),
  quantityCountedAt: instant.nullish().openapi({ description: "When quantityAvailable was counted (required with it)" }),
  customFields: z
    .array(CustomFieldInputSchema)
    .max(10)
    .default([])
    .openapi({ description: "What a buyer must give on an order line; their fieldIds are unique" }),
  effectiveFrom: instant.nullish().openapi({ description: "Quoted from this instant; default: now" }),
  effectiveTo: instant
    .nullish()
    .openapi({ description: "Quoted until this instant (exclusive), after effectiveFrom; default: until withdrawn" }),
  futurePrice: closedObject({
    price: decimalPrice("The new list price", MAX_PRICE),
    effectiveFrom: instant.openapi({ description: "When it replaces `price` in new quotes; before the offer's effectiveTo" }),
  })
    .nullish()
    .openapi({ description: "A price change announced ahead" }),
};

/** Rules across fields, each naming the field it refuses. */
function offerRules(offer: { [K in keyof typeof offerFields]?: unknown }, ctx: z.RefinementCtx) {
  const references = [
    offer.productId !== undefined,
    offer.gtin !== undefined,
    offer.manufacturer !== undefined || offer.partNumber !== undefined,
  ];
  if (references.filter(Boolean).length !== 1) {
    ctx.addIssue({
      code: "custom",
      path: ["productId"],
      message: "Name the product once: productId, gtin, or manufacturer with partNumber.",
    });
  } else if ((offer.manufacturer === undefined) !== (offer.partNumber === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [offer.manufacturer === undefined ? "manufacturer" : "partNumber"],
      message: "manufacturer and partNumber go together.",
    });
  }
  if (typeof offer.effectiveFrom === "string" && typeof offer.effectiveTo === "string" && offer.effectiveTo <= offer.effectiveFrom) {
    ctx.addIssue({ code: "custom", path: ["effectiveTo"], message: "Must be after effectiveFrom." });
  }
  if ((offer.quantityAvailable ?? null) !== null && (offer.quantityCountedAt ?? null) === null) {
    ctx.addIssue({ code: "custom", path: ["quantityCountedAt"], message: "Required with quantityAvailable: when was it counted?" });
  }
  const future = offer.futurePrice as { effectiveFrom: string } | null | undefined;
  if (future && typeof offer.effectiveTo === "string" && future.effectiveFrom >= offer.effectiveTo) {
    ctx.addIssue({ code: "custom", path: ["futurePrice", "effectiveFrom"], message: "Must be before the offer's effectiveTo." });
  }
  purchaseTermsRules(offer, ctx);
  const fieldIds = new Set<string>();
  (offer.customFields as { fieldId: string }[] | undefined)?.forEach((field, i) => {
    if (fieldIds.has(field.fieldId)) ctx.addIssue({ code: "custom", path: ["customFields", i, "fieldId"], message: "Duplicate fieldId." });
    fieldIds.add(field.fieldId);
  });
}

export const OfferInputSchema = closedObject(offerFields)
  .superRefine(offerRules)
  .openapi("OfferInput", {
    description: "An offer as the vendor publishes it; the product is named once (productId, gtin, or manufacturer with partNumber)",
    example: {
      productId: "MP-0000001",
      condition: "New OEM",
      purchaseChoice: "Buy",
      warranty: "12 months",
      price: "1249.50",
      leadTimeDays: 3,
      quantityAvailable: 12,
      quantityCountedAt: "2026-11-26T08:00:00Z",
    },
  });
export type OfferInput = z.infer<typeof OfferInputSchema>;

export const OfferBatchRowSchema = closedObject({ sku: skuSchema, ...offerFields })
  .superRefine(offerRules)
  .openapi("OfferBatchRow", { description: "An offer of a batch: OfferInput with its sku" });

export const OfferSchema = z
  .object({
    sku: z.string(),
    productId: z.string(),
    condition: z.string(),
    purchaseChoice: z.string(),
    purchaseType: z.enum(PURCHASE_TYPES),
    purchaseTerms: PurchaseTermsViewSchema,
    warranty: z.string(),
    price: moneyAmount("List price"),
    currency: currencyCode,
    unitOfMeasure: z.string(),
    packQuantity: z.number().int(),
    leadTimeDays: z.number().int(),
    quantityAvailable: z.number().int().nullable(),
    quantityCountedAt: z.string().datetime().nullable(),
    customFields: z.array(
      z.object({ fieldId: z.string(), prompt: z.string(), isRequired: z.boolean(), formatRegex: z.string(), errorMessage: z.string() }),
    ),
    effectiveFrom: z.string().datetime().nullable(),
    effectiveTo: z.string().datetime().nullable(),
    futurePrice: z.object({ price: moneyAmount("The new list price"), effectiveFrom: z.string().datetime() }).nullable(),
    status: z.enum(["active", "withdrawn"]).openapi({ description: "withdrawn: no new quotes (quotes issued before stay good)" }),
    revision: z.number().int().openapi({
      description:
        "The offer's revision: a new one whenever terms a quote promises change (product, condition, purchase choice, purchase type and terms, warranty, lead time, unit, pack, custom fields)",
    }),
    updatedAt: z.string().datetime(),
  })
  .openapi("Offer");
export type Offer = z.infer<typeof OfferSchema>;
