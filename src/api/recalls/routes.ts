import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, ne } from "drizzle-orm";
import { database } from "../../db/client";
import { recallUnits } from "../../db/schema";
import { ValidationError } from "../../platform/errors";
import { IDEMPOTENCY_KEY_HEADER, idempotent } from "../../platform/idempotency/middleware";
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
import { vendorOwner } from "../../shared/recalls/records";
import { offerRecallsToStores } from "../../shared/tenants/recall-offer";
import { noticeWrites } from "./notices";
import { requestRecallReturns } from "./returns";
import {
  DispositionsSchema,
  FieldSafetyNoticeSchema,
  RecallReturnRequestSchema,
  RecallReturnsSchema,
  RecallSchema,
  RecallWithUnitsSchema,
  VendorRecallSchema,
} from "./schemas";
import { recallSearch } from "./search-fields";
import { vendorRecalls } from "./vendor-views";
import { acknowledgeStatement, findRecall, recallNotFound, recallQuery, searchRecalls, unitsAmong } from "./views";

/** Recalls (docs/recalls.md): the buyer's routes over its store, and the vendor's. */

const TAG = "Recalls";
const RecallIdParams = z.object({ recallId: integerPathParam("recallId", 41) });
const recallContent = { "application/json": { schema: envelopeSchema(RecallWithUnitsSchema) } };

const searchRoute = createRoute({
  method: "get",
  path: "/recalls",
  tags: [TAG],
  summary: "Search the recalls that touch the tenant's units",
  description:
    "Every recall (FDA, or a vendor's field safety notice) that touches units this tenant received: affected, or to review. " +
    "Matched in the tenant's own store against the device identifier, lot, serial and expiry of each unit its vendors shipped. " +
    'With the q language, e.g. `q=classification:"Class I" AND status:open AND acknowledgedAt:null`. Oldest change first by default; ' +
    "`sortBy=-lastUpdated` puts the newest first.",
  ...scopedAccess("orders:read"),
  request: { query: searchQueryParams(recallSearch, 'classification:"Class I" AND status:open AND acknowledgedAt:null') },
  responses: {
    200: {
      description: "A page of recalls",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ recalls: z.array(RecallSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/recalls/{recallId}",
  tags: [TAG],
  summary: "Get a recall with the units it touches",
  description:
    "The recall and each of the tenant's units it touches: its device identifier, lot, serial, expiry, order, line and facility, " +
    "the outcome (`affected` or `needs_review`) with the clause that decided, and what the hospital found. 404 for a recall that " +
    "touches none of the tenant's units (whether it exists is not said).",
  ...scopedAccess("orders:read"),
  request: { params: RecallIdParams },
  responses: { 200: { description: "The recall", content: recallContent }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const acknowledgeRoute = createRoute({
  method: "post",
  path: "/recalls/{recallId}/acknowledge",
  tags: [TAG],
  summary: "Acknowledge a recall",
  description: "Says the hospital has taken the recall in hand. Acknowledging again keeps the first time.",
  ...scopedAccess("orders:write"),
  request: { params: RecallIdParams },
  responses: { 200: { description: "The recall", content: recallContent }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const dispositionsRoute = createRoute({
  method: "post",
  path: "/recalls/{recallId}/units",
  tags: [TAG],
  summary: "Record what was found of the recall's units",
  description:
    "Each unit `found` (in stock: it can go back), `not_found`, or `used` (already used on a patient). A unit the recall does not " +
    "touch is a 400 naming it, and nothing is written. Recording the same again changes nothing.",
  ...scopedAccess("orders:write"),
  request: { params: RecallIdParams, body: { required: true, content: { "application/json": { schema: DispositionsSchema } } } },
  responses: { 200: { description: "The recall", content: recallContent }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const returnsRoute = createRoute({
  method: "post",
  path: "/recalls/{recallId}/returns",
  tags: [TAG],
  summary: "Send a recall's units back to their vendors",
  description:
    "Requests a return (an RMA, reason `recall`) of the named units, or of every affected unit not used and not in a return yet, one " +
    "per order line; the vendor authorizes it and credits what it states (docs/api.md, Returns). A line that cannot go back now " +
    "(not delivered yet, not bought outright) is listed in `skipped` with why. A retry with the same Idempotency-Key answers the " +
    "same returns.",
  ...scopedAccess("orders:write", idempotent),
  request: {
    params: RecallIdParams,
    headers: idempotencyKeyHeaders("UUID (with dashes), one per call: a retry with it answers the same returns"),
    body: { required: false, content: { "application/json": { schema: RecallReturnRequestSchema } } },
  },
  responses: {
    201: { description: "The returns requested", content: { "application/json": { schema: envelopeSchema(RecallReturnsSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
    409: problem(
      "Idempotency conflict (`idempotency-conflict`: the key is in use or was used with another body), or an order changed meanwhile (retry with the same key)",
    ),
    503: problem("The idempotency store is temporarily unavailable"),
  },
});

export const recallBuyerRoutes = createRouter()
  .openapi(searchRoute, async (c) => {
    const params = c.req.valid("query");
    return c.json(envelope(c, await searchRecalls(database(tenantDatabase(c)), params, getPage(params))), 200);
  })
  .openapi(getRoute, async (c) => c.json(envelope(c, await findRecall(database(tenantDatabase(c)), c.req.valid("param").recallId)), 200))
  .openapi(acknowledgeRoute, async (c) => {
    const db = database(tenantDatabase(c));
    const { recallId } = c.req.valid("param");
    // A recall the tenant does not have is no row: the update changes nothing, and the read answers 404.
    await acknowledgeStatement(db, recallId, c.get("principal").clientId, new Date().toISOString());
    return c.json(envelope(c, await findRecall(db, recallId)), 200);
  })
  .openapi(dispositionsRoute, async (c) => {
    const db = database(tenantDatabase(c));
    const { recallId } = c.req.valid("param");
    const { units } = c.req.valid("json");
    const [rows, among] = await db.batch([
      recallQuery(db, recallId),
      unitsAmong(
        db,
        recallId,
        units.map((unit) => unit.unitId),
      ),
    ]);
    if (!rows[0]) throw recallNotFound();
    const known = new Set(among.map((unit) => unit.unitId));
    const problems: Record<string, string[]> = {};
    units.forEach((unit, i) => {
      if (!known.has(unit.unitId)) problems[`units[${i}].unitId`] = [`Unit ${unit.unitId} is not one this recall touches.`];
    });
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
    const at = new Date().toISOString();
    const clientId = c.get("principal").clientId;
    const statements = units.map((unit) =>
      db
        .update(recallUnits)
        .set({ disposition: unit.disposition, dispositionAt: at, dispositionBy: clientId })
        .where(and(eq(recallUnits.recallId, recallId), eq(recallUnits.unitId, unit.unitId), ne(recallUnits.outcome, "cleared"))),
    );
    await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
    return c.json(envelope(c, await findRecall(db, recallId)), 200);
  })
  .openapi(returnsRoute, async (c) => {
    const db = database(tenantDatabase(c));
    const body = (c.req.valid("json") as z.infer<typeof RecallReturnRequestSchema> | undefined) ?? {};
    const result = await requestRecallReturns(
      db,
      c.get("principal").dataTenantId,
      c.req.valid("param").recallId,
      body,
      c.req.header(IDEMPOTENCY_KEY_HEADER)!,
    );
    return c.json(envelope(c, result), 201);
  });

const vendorListRoute = createRoute({
  method: "get",
  path: "/recalls",
  tags: [TAG],
  summary: "The recalls touching the vendor's products",
  description:
    "The vendor's own field safety notices, and every recall touching units the vendor delivered, with how many of those units it " +
    "affects (or leaves to review) and at how many hospitals: counts only, never a hospital's name. Newest first.",
  ...vendorScopedAccess("fulfilment:read"),
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(200).optional() }) },
  responses: {
    200: {
      description: "The recalls",
      content: { "application/json": { schema: envelopeSchema(z.object({ recalls: z.array(VendorRecallSchema) })) } },
    },
    ...authenticatedErrorResponses,
  },
});

const noticeRoute = createRoute({
  method: "post",
  path: "/recalls",
  tags: [TAG],
  summary: "Publish a field safety notice",
  description:
    "The vendor's own recall of its products: the device identifiers, part numbers, lots, serials and serial ranges it covers. " +
    "Name at least one device identifier or part number (400 otherwise: deviceIds). " +
    "Every hospital's store matches it against the units it received from anyone, at once; a hospital sees it with its units. " +
    "A second POST with the same noticeNumber revises it (status `terminated` closes it).",
  ...vendorScopedAccess("fulfilment:write"),
  request: { body: { required: true, content: { "application/json": { schema: FieldSafetyNoticeSchema } } } },
  responses: {
    200: { description: "Published (or revised)", content: { "application/json": { schema: envelopeSchema(VendorRecallSchema) } } },
    ...authenticatedErrorResponses,
  },
});

export const recallVendorRoutes = createRouter()
  .openapi(vendorListRoute, async (c) => {
    const limit = c.req.valid("query").limit ?? 50;
    return c.json(envelope(c, { recalls: await vendorRecalls(c.env.DB, c.get("vendorPrincipal").vendorId, { limit }) }), 200);
  })
  .openapi(noticeRoute, async (c) => {
    const notice = c.req.valid("json");
    if (notice.deviceIds.length === 0 && notice.partNumbers.length === 0) {
      throw new ValidationError({
        deviceIds: ["Name at least one device identifier or part number: the notice must say which devices it recalls."],
      });
    }
    const { vendorId } = c.get("vendorPrincipal");
    const vendor = await c.env.DB.prepare("SELECT name FROM vendors WHERE id = ?").bind(vendorId).first<{ name: string }>();
    const by = { owner: vendorOwner(vendorId), vendorId, firm: vendor?.name ?? `Vendor ${vendorId}` };
    await c.env.DB.batch(await noticeWrites(c.env.DB, c.env.CATALOG, by, notice, new Date()));
    // Every store matches it now; one that fails catches up with the housekeeping cron.
    c.executionCtx.waitUntil(offerRecallsToStores(c.env));
    const [recall] = await vendorRecalls(c.env.DB, vendorId, { productNumber: notice.noticeNumber, limit: 1 });
    if (!recall) throw recallNotFound();
    return c.json(envelope(c, recall), 200);
  });
