import { z } from "@hono/zod-openapi";
import { closedObject, readableText } from "../../platform/schemas";
import { RECALL_CLASSES, RECALL_STATUSES } from "../../shared/recalls/records";
import { RecallUnitSchema, recallFields } from "../events/schemas";

/** The recall routes' shapes (docs/recalls.md, "For the hospital" and "For the vendor"). */

export const DISPOSITIONS = ["found", "not_found", "used"] as const;

const day = z.iso.date();

export const RecallSchema = z
  .object({
    id: z.number().int(),
    ...recallFields,
    reason: z.string().nullable(),
    codeInfo: z.string().openapi({ description: "The notice's scope as the FDA published it (the units' outcomes read it)" }),
    classifiedOn: day.nullable(),
    acknowledgedAt: z.string().datetime().nullable().openapi({ description: "When the tenant acknowledged it (POST .../acknowledge)" }),
    affectedUnits: z.number().int(),
    reviewUnits: z.number().int().openapi({ description: "Units whose outcome is needs_review: someone checks them" }),
    matchedAt: z.string().datetime().openapi({ description: "When it first touched the tenant's units" }),
    lastUpdated: z.string().datetime(),
  })
  .openapi("Recall");

export const RecallUnitStateSchema = RecallUnitSchema.extend({
  disposition: z
    .enum(DISPOSITIONS)
    .nullable()
    .openapi({ description: "What the hospital found: found, not_found or used (already used on a patient)" }),
  dispositionAt: z.string().datetime().nullable(),
  returnId: z.number().int().nullable().openapi({ description: "The return requested for the unit (POST .../returns)" }),
}).openapi("RecallUnitState");

export const RecallWithUnitsSchema = RecallSchema.extend({
  units: z.array(RecallUnitStateSchema).openapi({ description: "The units it touches, affected first (at most 1,000)" }),
}).openapi("RecallWithUnits");

export const DispositionsSchema = closedObject({
  units: z
    .array(
      closedObject({
        unitId: z.number().int().min(1),
        disposition: z.enum(DISPOSITIONS),
      }),
    )
    .min(1)
    .max(500)
    .openapi({ description: "Units of the recall and what was found of each (at most 500 a call)" }),
}).openapi("RecallDispositions");

export const RecallReturnRequestSchema = closedObject({
  unitIds: z
    .array(z.number().int().min(1))
    .min(1)
    .max(500)
    .optional()
    .openapi({ description: "The units to send back; default: every affected unit not used and not in a return yet" }),
  note: readableText(500).optional().openapi({ description: "For the vendor", example: "Quarantined in OR storage B" }),
}).openapi("RecallReturnRequest");

export const RecallReturnsSchema = z
  .object({
    returns: z.array(
      z.object({
        returnId: z.number().int(),
        orderNumber: z.string(),
        lineId: z.number().int(),
        quantity: z.number().int(),
        unitIds: z.array(z.number().int()),
      }),
    ),
    skipped: z
      .array(z.object({ orderNumber: z.string(), lineId: z.number().int(), unitIds: z.array(z.number().int()), reason: z.string() }))
      .openapi({ description: "Lines whose units cannot be returned now (not delivered yet, not bought outright), with why" }),
  })
  .openapi("RecallReturns");

export const VendorRecallSchema = z
  .object({
    id: z.number().int(),
    ...recallFields,
    affectedUnits: z.number().int().openapi({ description: "Units the vendor delivered that the recall affects, at every hospital" }),
    reviewUnits: z.number().int(),
    hospitals: z.number().int().openapi({ description: "How many hospitals (tenants) received them: a count, never a name" }),
  })
  .openapi("VendorRecall");

export const FieldSafetyNoticeSchema = closedObject({
  noticeNumber: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/, "Must be 1-40 letters, digits, '.', '_', '/' or '-', starting with a letter or digit.")
    .openapi({ description: "The vendor's own number for the notice: a second POST with it revises the notice", example: "FSN-2026-014" }),
  classification: z.enum(RECALL_CLASSES).nullable().default(null),
  status: z.enum(RECALL_STATUSES).default("open"),
  productDescription: readableText(1000).openapi({ example: "Infusion pump cassette, REF 4410" }),
  reason: readableText(2000).openapi({ example: "The cassette latch may break and stop the infusion." }),
  deviceIds: z
    .array(
      z
        .string()
        .regex(/^(\d{8}|\d{12,14}|\+?[A-Z][A-Z0-9]{4,22})$/, "A GTIN (8, 12, 13 or 14 digits) or a HIBCC code.")
        .openapi({ example: "00812345000014" }),
    )
    .max(200)
    .default([])
    .openapi({ description: "The device identifiers it covers (GTIN or HIBCC)" }),
  partNumbers: z.array(z.string().min(1).max(64)).max(200).default([]).openapi({ description: "Catalog or part numbers it covers" }),
  lots: z.array(z.string().min(1).max(40)).max(1000).default([]).openapi({ description: "Lots it covers; none: every lot" }),
  serials: z.array(z.string().min(1).max(40)).max(1000).default([]),
  serialRanges: z
    .array(closedObject({ from: z.string().min(1).max(40), to: z.string().min(1).max(40) }))
    .max(100)
    .default([])
    .openapi({ description: "Serial ranges of one width, e.g. SN1000 to SN1999" }),
  initiatedOn: day.optional(),
}).openapi("FieldSafetyNotice");
