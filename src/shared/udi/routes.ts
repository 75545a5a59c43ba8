import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, closedObject, envelopeSchema, requesterForbiddenResponse } from "../../platform/schemas";
import { sideBySide } from "../../platform/side-by-side";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../auth/bearer";
import { CatalogDetailSchema, PriceOptionSchema } from "../catalog/routes";
import { readScanRecalls, recallsOfScan, scanRecallKeys } from "../recalls/scans";
import { requireFacilityAccess } from "../users/access";
import { priceOptionsOf, readOffersOfCodes } from "./quotes";
import { lookUpScans, scanLookups } from "./resolve";
import { scanCode } from "./scan";

/** Codes per request: a handful of labels of one device, or a tray of parts scanned in a row. */
export const MAX_CODES = 50;

const ResolveRequestSchema = closedObject({
  codes: z
    .array(
      z.string().min(1).max(512).openapi({ description: "One code exactly as the scanner sent it (GS as \\u001d) or a person typed it" }),
    )
    .min(1)
    .max(MAX_CODES)
    .openapi({
      example: ["]d2010061410000001517301231104711", "(01)00614100000015(17)301231(10)4711"],
      description: `1 to ${MAX_CODES} codes, each resolved on its own`,
    }),
  requesterId: z
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ description: "With facilityId: also issue the product's price options (quotes) for this user", example: 50001 }),
  facilityId: z
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ description: "With requesterId: the facility the price options are for", example: 1001 }),
})
  .superRefine((body, ctx) => {
    if ((body.requesterId === undefined) !== (body.facilityId === undefined)) {
      const path = [body.requesterId === undefined ? "requesterId" : "facilityId"];
      ctx.addIssue({ code: "custom", path, message: "requesterId and facilityId go together (they ask for price options)." });
    }
  })
  // JSON Schema 2020-12's dependentRequired states the rule above; the metadata type predates it (3.0's keywords only).
  .openapi("ResolveRequest", { dependentRequired: { requesterId: ["facilityId"], facilityId: ["requesterId"] } } as object);

const UdiSchema = z
  .object({
    agency: z.enum(["GS1", "HIBCC", "ICCBBA"]),
    deviceId: z
      .string()
      .nullable()
      .openapi({ description: "GS1: the GTIN-14; HIBCC: labeler, product and unit of measure; ICCBBA: the PPIC" }),
    lot: z.string().nullable(),
    serial: z.string().nullable(),
    expiry: z.string().nullable().openapi({ description: "ISO date (GS1 day 00: the month's last day); ISBT 128 with time: date-time" }),
    production: z.string().nullable(),
    additionalProductId: z.string().nullable().openapi({ description: "GS1 AI 240" }),
    customerPartNumber: z.string().nullable().openapi({ description: "GS1 AI 241" }),
    quantity: z.number().int().nullable().openapi({ description: "HIBCC quantity" }),
    donationId: z.string().nullable().openapi({ description: "ISBT 128 Donation Identification Number" }),
  })
  .openapi("UdiData");

const ResultSchema = z
  .object({
    index: z.number().int().openapi({ description: "The code's place in `codes`" }),
    code: z.string().openapi({ description: "The code as read (without the whitespace, CR and LF around it)" }),
    status: z.enum(["resolved", "unresolved"]),
    reading: z
      .enum(["gs1", "gtin", "hibcc", "isbt128", "partNumber"])
      .nullable()
      .openapi({ description: "How the code was read (null when it could be read no way)" }),
    form: z.string().nullable().openapi({
      description:
        "element-string, bracketed, digital-link, gtin, hibcc-primary, hibcc-secondary, hibcc-concatenated, isbt128 or partNumber",
    }),
    alternatives: z.array(z.string()).openapi({ description: "Other readings the code also has (e.g. gs1 for a part number like 10D9T)" }),
    // A union, not .nullable(): a nullable $ref comes out as allOf [ref, null], which null does not match.
    udi: z.union([UdiSchema, z.null()]),
    packaging: z
      .object({
        level: z.enum(["unit", "package"]),
        deviceId: z.string(),
        containsDeviceId: z.string().nullable(),
        quantity: z.number().int().openapi({ description: "Units of the product in this level (1 for the unit)" }),
      })
      .nullable()
      .openapi({ description: "Which packaging level of the product the device identifier names" }),
    product: z.union([CatalogDetailSchema.shape.product, z.null()]),
    priceOptions: z
      .array(PriceOptionSchema)
      .nullable()
      .openapi({ description: "With requesterId and facilityId: the product's price options, issued as catalog detail issues them" }),
    linkedTo: z.number().int().nullable().openapi({ description: "HIBCC: the index of the linked primary or secondary code" }),
    recalls: z
      .array(
        z.object({
          recallId: z.number().int().openapi({ description: "GET /recalls/{recallId} when it touches units the tenant received" }),
          productNumber: z
            .string()
            .openapi({ description: "The FDA product number (Z-NNNN-YYYY) or the vendor's notice number", example: "Z-1234-2026" }),
          classification: z.string().nullable().openapi({ example: "Class I" }),
          status: z.string().openapi({ description: "open or completed (a terminated recall is not listed)" }),
          outcome: z
            .enum(["affected", "needs_review"])
            .openapi({ description: "affected: this unit is recalled; needs_review: check it against the notice" }),
          reason: z.string().openapi({ description: "The clause that decided, in words" }),
        }),
      )
      .openapi({
        description: "The recalls not terminated that touch the scanned unit (its device identifier, lot, serial, expiry): empty when none",
      }),
    problem: z
      .object({
        element: z
          .string()
          .nullable()
          .openapi({ description: "The element at fault: a GS1 AI, an HIBCC part, an ISBT 128 data identifier" }),
        code: z.string().openapi({ example: "check_digit" }),
        message: z.string(),
      })
      .nullable(),
  })
  .openapi("ResolveResult");

const resolveRoute = createRoute({
  method: "post",
  path: "/catalog/resolve",
  tags: ["Catalog"],
  summary: "Resolve scanned labels to products",
  description:
    "Scan to order: UDI labels (GS1, HIBCC, ISBT 128), GTINs or part numbers to products and, optionally, their quotes. Each code is resolved on its own and answered in the order sent, with what its label carries (lot, expiry, serial) or why it did not resolve. With requesterId and facilityId, the products' price options too, as catalog detail issues them.",
  ...scopedAccess("catalog:read"),
  request: { body: { required: true, content: { "application/json": { schema: ResolveRequestSchema } } } },
  responses: {
    200: {
      description: "One result per code, in order; a code that fails says why without failing the others",
      content: { "application/json": { schema: envelopeSchema(z.object({ results: z.array(ResultSchema) })) } },
    },
    ...authenticatedErrorResponses,
    ...requesterForbiddenResponse,
  },
});

export const resolveRoutes = createRouter().openapi(resolveRoute, async (c) => {
  const { codes, requesterId, facilityId } = c.req.valid("json");
  const principal = c.get("principal");
  const now = new Date();
  const scanned = codes.map((code) => scanCode(code, now));
  const lookups = scanLookups(scanned);
  const scope = requesterId !== undefined && facilityId !== undefined ? { tenantId: principal.tenantId, requesterId, facilityId } : null;
  // One round trip: the access check, the catalog lookup and (with quotes) the offers of the products the scanned
  // codes name, side by side (src/shared/udi/quotes.ts).
  const recallKeys = scanRecallKeys(
    lookups.filter((lookup) => lookup.kind === "di").map((lookup) => lookup.value),
    lookups.filter((lookup) => lookup.kind === "part").map((lookup) => lookup.value),
  );
  const [, resolutions, read, recalls] = await sideBySide([
    scope ? requireFacilityAccess(database(tenantDatabase(c)), scope.tenantId, scope.requesterId, scope.facilityId) : Promise.resolve(null),
    lookUpScans(c.env.CATALOG, scanned, lookups),
    scope ? readOffersOfCodes(c.env.DB, lookups, scope, now) : Promise.resolve(null),
    readScanRecalls(c.env.DB, recallKeys, principal.dataTenantId),
  ]);
  const options = scope && read ? await priceOptionsOf(c.env, resolutions, read, scope, now, principal.mode) : null;
  const results = resolutions.map((resolution, index) => ({
    index,
    code: scanned[index]!.code,
    ...resolution,
    priceOptions: options && resolution.product ? (options.get(resolution.product.id) ?? []) : null,
    recalls: recallsOfScan(recalls, {
      di: resolution.udi?.deviceId ?? resolution.packaging?.deviceId ?? undefined,
      lot: resolution.udi?.lot ?? undefined,
      serial: resolution.udi?.serial ?? undefined,
      expiry: resolution.udi?.expiry?.slice(0, 10) ?? undefined,
      manufactured: resolution.udi?.production ?? undefined,
      catalog: resolution.product?.partNumber,
    }),
  }));
  return c.json(envelope(c, { results }), 200);
});
