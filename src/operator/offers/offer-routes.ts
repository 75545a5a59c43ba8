import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { readJsonBody } from "../../platform/content-type";
import { type FieldErrors, notFound, unprocessable } from "../../platform/errors";
import { OFFERS_TAG } from "../../platform/openapi/info";
import { PaginationSchema } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, closedObject, envelopeSchema, notFoundResponse, problem } from "../../platform/schemas";
import { fieldErrorsFromZod } from "../../platform/zod-errors";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { vendorScopedAccess } from "../../shared/auth/bearer";
import { findOffer, type OfferOutcome, presentedOffers, resolveProducts, withdrawOffer, writeOffers } from "./offers";
import { OFFER_BATCH_MAX, OfferBatchRowSchema, OfferInputSchema, OfferSchema, skuSchema } from "./schemas";
import { offerSearch, searchOffers } from "./search";

/**
 * The vendor API's offers (docs/api.md, "Offers and contract prices"), mounted at /vendor/api by the operator plane's
 * Worker (src/platform/planes.ts): publishing weighs on no buyer request.
 */

const SkuParams = z.object({ sku: skuSchema.openapi({ param: { name: "sku", in: "path" } }) });

const unprocessableResponse = problem("A business rule refused it; `errors` names the field and why (an unknown or withdrawn product)");

const listRoute = createRoute({
  method: "get",
  path: "/offers",
  tags: [OFFERS_TAG],
  summary: "Search the vendor's offers",
  description:
    "One per SKU, searched with the q language. The calling vendor's own current offers, withdrawn ones included (status), filtered, sorted and paged with a q query.",
  ...vendorScopedAccess("offers:read"),
  request: { query: searchQueryParams(offerSearch, 'withdrawnAt:null AND price<100 AND condition:"New OEM"') },
  responses: {
    200: {
      description: "A page of offers",
      content: { "application/json": { schema: envelopeSchema(z.object({ offers: z.array(OfferSchema), pagination: PaginationSchema })) } },
    },
    ...searchErrorResponses,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/offers/{sku}",
  tags: [OFFERS_TAG],
  summary: "One of the vendor's offers",
  description: "404 for a SKU the vendor has no offer of (another vendor's SKUs are not visible).",
  ...vendorScopedAccess("offers:read"),
  request: { params: SkuParams },
  responses: {
    200: { description: "The offer", content: { "application/json": { schema: envelopeSchema(OfferSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

const putRoute = createRoute({
  method: "put",
  path: "/offers/{sku}",
  tags: [OFFERS_TAG],
  summary: "Publish or change an offer",
  description:
    "Idempotent: the same body again changes nothing. Creates the SKU's offer (201) or replaces it (200). New quotes use it at once; quotes issued before keep their terms for their 30 days. A withdrawn SKU published again is active again.",
  ...vendorScopedAccess("offers:write"),
  request: { params: SkuParams, body: { content: { "application/json": { schema: OfferInputSchema } }, required: true } },
  responses: {
    200: { description: "The offer, updated (or unchanged)", content: { "application/json": { schema: envelopeSchema(OfferSchema) } } },
    201: { description: "The offer, created", content: { "application/json": { schema: envelopeSchema(OfferSchema) } } },
    ...authenticatedErrorResponses,
    422: unprocessableResponse,
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/offers/{sku}",
  tags: [OFFERS_TAG],
  summary: "Withdraw an offer",
  description:
    "No new quotes; issued quotes stay good for their 30 days. Withdrawing a withdrawn offer answers 204 too; 404 for a SKU the vendor has no offer of.",
  ...vendorScopedAccess("offers:write"),
  request: { params: SkuParams },
  responses: { 204: { description: "Withdrawn" }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const RESULT_OUTCOMES = ["created", "updated", "unchanged", "rejected"] as const;

const BatchResultSchema = z
  .object({
    index: z.number().int().openapi({ description: "The row's position in `offers`, from 0" }),
    sku: z.string().nullable().openapi({ description: "The row's sku, when it had a valid one" }),
    outcome: z.enum(RESULT_OUTCOMES),
    offer: z.union([OfferSchema, z.null()]),
    errors: z
      .record(z.string(), z.array(z.string()))
      .nullable()
      .openapi({ description: "A rejected row's fields and why (as a 400's errors, field names relative to the row)" }),
  })
  .openapi("OfferBatchResult", { description: "A row's result: `offer` is the offer as written, null for a rejected row" });

/** Every JSON type: a row that is no OfferBatchRow, spelt out (an empty schema reads as a mistake to linters). */
const ANY_JSON_TYPE = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;

const batchRoute = createRoute({
  method: "post",
  path: "/offers/batch",
  tags: [OFFERS_TAG],
  summary: `Publish up to ${OFFER_BATCH_MAX} offers`,
  description:
    "One result per row. Per row, not atomic: each row is checked on its own (its fields, its product, a SKU given twice: the first row wins, a later one is rejected) and the valid rows are written together in one transaction. The answer is 200 with a result per row in the order sent, whatever was rejected. A body that is not `{ offers: [...] }` with 1 to 1,000 objects is a 400.",
  ...vendorScopedAccess("offers:write"),
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          // Validated row by row in the handler, so the schema here is documentation only (a non-zod schema). A row
          // that is no OfferBatchRow is that row's rejection, not the request's: the items say so (anything else).
          schema: {
            type: "object",
            additionalProperties: false,
            required: ["offers"],
            properties: {
              offers: {
                type: "array",
                minItems: 1,
                maxItems: OFFER_BATCH_MAX,
                items: {
                  description:
                    "An OfferBatchRow. Any other value is taken too: that row's result is `rejected` with its errors, the other rows are still written",
                  anyOf: [
                    { $ref: "#/components/schemas/OfferBatchRow" },
                    { type: [...ANY_JSON_TYPE], items: true, description: "Any other value" },
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
  responses: {
    200: {
      description: "A result per row",
      content: {
        "application/json": {
          schema: envelopeSchema(
            z.object({
              results: z.array(BatchResultSchema),
              counts: z.object(
                Object.fromEntries(RESULT_OUTCOMES.map((o) => [o, z.number().int()])) as Record<
                  (typeof RESULT_OUTCOMES)[number],
                  z.ZodNumber
                >,
              ),
            }),
          ),
        },
      },
    },
    ...authenticatedErrorResponses,
  },
});

const BatchEnvelopeSchema = closedObject({ offers: z.array(z.unknown()).min(1).max(OFFER_BATCH_MAX) });

const router = createRouter();
router.openAPIRegistry.register("OfferBatchRow", OfferBatchRowSchema);

export const offerRoutes = router
  .openapi(listRoute, async (c) => {
    const params = c.req.valid("query");
    const vendorId = c.get("vendorPrincipal").vendorId;
    return c.json(envelope(c, await searchOffers(database(c.env.DB), vendorId, params, getPage(params))), 200);
  })
  .openapi(getRoute, async (c) => {
    const offer = await findOffer(c.env.DB, c.get("vendorPrincipal").vendorId, c.req.valid("param").sku);
    if (!offer) throw offerNotFound();
    return c.json(envelope(c, offer), 200);
  })
  .openapi(putRoute, async (c) => {
    const { sku } = c.req.valid("param");
    const input = c.req.valid("json");
    const vendorId = c.get("vendorPrincipal").vendorId;
    const [resolved] = await resolveProducts(c.env.CATALOG, [input]);
    if ("problem" in resolved!) throw unprocessable([`${resolved.problem.field}: ${resolved.problem.message}`]);
    const [outcome] = await writeOffers(c.env.DB, vendorId, [{ sku, input, productId: resolved!.productId }], new Date());
    const offer = (await findOffer(c.env.DB, vendorId, sku))!;
    if (outcome === "created") c.header("Location", new URL(c.req.url).pathname);
    return c.json(envelope(c, offer), outcome === "created" ? 201 : 200);
  })
  .openapi(deleteRoute, async (c) => {
    if (!(await withdrawOffer(c.env.DB, c.get("vendorPrincipal").vendorId, c.req.valid("param").sku, new Date()))) throw offerNotFound();
    return c.body(null, 204);
  })
  .openapi(batchRoute, async (c) => {
    const vendorId = c.get("vendorPrincipal").vendorId;
    const { offers } = BatchEnvelopeSchema.parse(await readJsonBody(c));
    const results = await publishBatch(c.env, vendorId, offers);
    const counts = Object.fromEntries(RESULT_OUTCOMES.map((o) => [o, results.filter((r) => r.outcome === o).length]));
    return c.json(envelope(c, { results, counts: counts as Record<(typeof RESULT_OUTCOMES)[number], number> }), 200);
  });

const offerNotFound = () => notFound("The vendor has no offer with that SKU.");

type BatchResult = z.infer<typeof BatchResultSchema>;

/** A batch, row by row: the fields, a SKU given twice (the first wins), the product; then the valid rows in one write. */
async function publishBatch(env: { DB: D1Database; CATALOG: D1Database }, vendorId: number, rows: unknown[]): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  const valid: { index: number; sku: string; input: z.infer<typeof OfferInputSchema> }[] = [];
  const firstOfSku = new Map<string, number>();
  const reject = (index: number, sku: string | null, errors: FieldErrors) => {
    results[index] = { index, sku, outcome: "rejected", offer: null, errors };
  };
  rows.forEach((row, index) => {
    const parsed = OfferBatchRowSchema.safeParse(row);
    if (!parsed.success) {
      reject(index, skuOf(row), fieldErrorsFromZod(parsed.error, "row"));
      return;
    }
    const { sku, ...input } = parsed.data;
    const first = firstOfSku.get(sku);
    if (first === undefined) {
      firstOfSku.set(sku, index);
      valid.push({ index, sku, input });
    } else {
      reject(index, sku, { sku: [`The same sku as offers[${first}]: a batch takes each sku once, from its first row.`] });
    }
  });
  const resolutions = await resolveProducts(
    env.CATALOG,
    valid.map((v) => v.input),
  );
  const writes: { index: number; sku: string; input: (typeof valid)[number]["input"]; productId: string }[] = [];
  valid.forEach((row, i) => {
    const resolution = resolutions[i]!;
    if ("problem" in resolution) reject(row.index, row.sku, { [resolution.problem.field]: [resolution.problem.message] });
    else writes.push({ ...row, productId: resolution.productId });
  });
  const outcomes: OfferOutcome[] = writes.length > 0 ? await writeOffers(env.DB, vendorId, writes, new Date()) : [];
  if (writes.length > 0) {
    const written = await presentedOffers(
      env.DB,
      vendorId,
      writes.map((w) => w.sku),
    );
    writes.forEach((write, i) => {
      results[write.index] = {
        index: write.index,
        sku: write.sku,
        outcome: outcomes[i]!,
        offer: written.get(write.sku) ?? null,
        errors: null,
      };
    });
  }
  return results;
}

const skuOf = (row: unknown): string | null => {
  const sku = typeof row === "object" && row !== null ? (row as { sku?: unknown }).sku : undefined;
  return typeof sku === "string" && skuSchema.safeParse(sku).success ? sku : null;
};
