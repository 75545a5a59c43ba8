import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { database } from "../../db/client";
import type { AppEnv } from "../../env";
import { ValidationError } from "../../platform/errors";
import { PaginationSchema } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeSchema,
  integerPathParam,
  notFoundResponse,
  problem,
  readableText,
} from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { scopedAccess, vendorScopedAccess } from "../../shared/auth/bearer";
import { storeOfRow } from "../../shared/tenants/homes";
import { decideInvoice } from "./decide";
import { CreditMemoRequestSchema, InvoiceRecordSchema, InvoiceRequestSchema } from "./schemas";
import { invoiceSearch } from "./search-fields";
import { noInvoiceOfVendor, noLineOfOrder, type SubmitOutcome, submitCreditMemo, submitInvoice } from "./submit";
import { findInvoice, invoiceNotFound, searchInvoices } from "./views";

/** Invoices and credit memos (docs/api.md, "Invoices"): vendors send them, buyers search, accept or dispute them. */

const TAG = "Invoices";
const InvoiceIdParams = z.object({ invoiceId: integerPathParam("invoiceId", 1) });

const submitted = (what: string) => ({
  201: {
    description: `The ${what}, as matched`,
    content: { "application/json": { schema: envelopeSchema(InvoiceRecordSchema) } },
  },
  200: {
    description: `The same ${what} again (same number, same content): the first one, as it is now; nothing written`,
    content: { "application/json": { schema: envelopeSchema(InvoiceRecordSchema) } },
  },
  ...authenticatedErrorResponses,
  409: problem("Another document under this number, or the order changed meanwhile (retry)"),
});

const invoiceRoute = createRoute({
  method: "post",
  path: "/invoices",
  tags: [TAG],
  summary: "Send an invoice for lines of one order",
  description:
    "It is matched against the order and what shipped (three-way match). Lines name the order lines they bill (`lineId`); a line without one is a charge not on the order. Amounts are decimal strings and must add up exactly (400 otherwise: each line's amount is quantity × unitPrice, the summary the sums, and a line without lineId needs a description). Each line is matched at once: matched, price_variance, quantity_variance, not_on_po or contract_price_exception, with an explanation. Sending the same invoice again answers 200 with it; another under a used number is a 409.",
  ...vendorScopedAccess("fulfilment:write"),
  request: { body: { required: true, content: { "application/json": { schema: InvoiceRequestSchema } } } },
  responses: { ...submitted("invoice"), 404: problem("The vendor has no line on an order of that number") },
});

const creditMemoRoute = createRoute({
  method: "post",
  path: "/credit-memos",
  tags: [TAG],
  summary: "Send a credit memo against an invoice",
  description:
    "Against one of the vendor's invoices, named by its `invoiceId` or by the vendor's own numbers, `orderNumber` and `invoiceNumber` (one form or the other: 400 on `invoiceId` for both or neither); each line names the invoice's line (`invoiceLineNumber`) or the order line it bills (`lineId`); by numbers, at least one line names its `lineId` (400 on `lines` otherwise). Some of its lines, or all that remains of it. A credit never exceeds what remains of the invoice, line by line (quantity, amount, tax) and its freight (400 otherwise; lines and summary come together, and must add up exactly). Credited quantities no longer count as invoiced, so the order's invoices are matched again. Sending the same credit memo again answers 200 with it.",
  ...vendorScopedAccess("fulfilment:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreditMemoRequestSchema } } } },
  responses: {
    ...submitted("credit memo"),
    404: problem("The vendor has no invoice with that id, or of that number on that order (another vendor's is indistinguishable)"),
  },
});

/**
 * The store of the invoice a credit memo names: its id's, or (by numbers) that of an order line the memo names. An order
 * number does not say which tenant's store holds the order, so a credit by numbers names its lines by lineId (a whole
 * credit names the invoice by invoiceId).
 */
async function creditedInvoiceStore(c: Context<AppEnv>, body: z.infer<typeof CreditMemoRequestSchema>) {
  if (body.invoiceId !== undefined) return storeOfRow(c.env, body.invoiceId);
  const lineId = body.lines?.find((line) => line.lineId !== undefined)?.lineId;
  if (lineId === undefined) {
    throw new ValidationError({
      lines: ["By orderNumber and invoiceNumber, name the credited lines by lineId (or name the invoice by invoiceId)."],
    });
  }
  return storeOfRow(c.env, lineId);
}

const vendorGetRoute = createRoute({
  method: "get",
  path: "/invoices/{invoiceId}",
  tags: [TAG],
  summary: "Get an invoice or credit memo",
  description:
    "One of the vendor's invoices or credit memos, with its match and the buyer's answer. Each line's three-way match and explanation, the buyer's `status` (accepted, disputed with its reason) and what credit memos credit. 404 for another vendor's document, exactly like an unknown id.",
  ...vendorScopedAccess("fulfilment:read"),
  request: { params: InvoiceIdParams },
  responses: {
    200: { description: "The document", content: { "application/json": { schema: envelopeSchema(InvoiceRecordSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

/** A document sent: the new one as written (no read after the write), or the first one again as it is now. */
async function answerDocument(c: Context<AppEnv>, home: D1Database, outcome: SubmitOutcome) {
  const record = outcome.record ?? (await findInvoice(database(home), { vendorId: c.get("vendorPrincipal").vendorId }, outcome.id));
  return c.json(envelope(c, record!), outcome.created ? 201 : 200);
}

export const invoiceVendorRoutes = createRouter()
  .openapi(invoiceRoute, async (c) => {
    const body = c.req.valid("json");
    const home = await storeOfRow(c.env, body.lines.find((line) => line.lineId !== undefined)!.lineId!);
    if (!home) throw noLineOfOrder();
    const outcome = await submitInvoice(database(home), c.get("vendorPrincipal").vendorId, body);
    return answerDocument(c, home, outcome) as never;
  })
  .openapi(creditMemoRoute, async (c) => {
    const body = c.req.valid("json");
    const home = await creditedInvoiceStore(c, body);
    if (!home) throw noInvoiceOfVendor(body.invoiceId === undefined);
    const outcome = await submitCreditMemo(database(home), c.get("vendorPrincipal").vendorId, body);
    return answerDocument(c, home, outcome) as never;
  })
  .openapi(vendorGetRoute, async (c) => {
    const { invoiceId } = c.req.valid("param");
    const home = await storeOfRow(c.env, invoiceId);
    const record = home && (await findInvoice(database(home), { vendorId: c.get("vendorPrincipal").vendorId }, invoiceId));
    if (!record) throw invoiceNotFound();
    return c.json(envelope(c, record), 200);
  });

const searchRoute = createRoute({
  method: "get",
  path: "/invoices",
  tags: [TAG],
  summary: "Search invoices and credit memos",
  description:
    "The invoices and credit memos vendors sent the tenant, with the q language. Each with its lines and their three-way match; oldest first by default (`sortBy=receivedAt&sortDir=Desc` for the newest).",
  ...scopedAccess("orders:read"),
  request: { query: searchQueryParams(invoiceSearch, 'status:exception AND receivedAt>="2026-01-01"') },
  responses: {
    200: {
      description: "A page of invoices and credit memos",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ invoices: z.array(InvoiceRecordSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/invoices/{invoiceId}",
  tags: [TAG],
  summary: "Get an invoice or credit memo",
  description:
    "One invoice or credit memo of the tenant, with its lines' match. 404 for an id the tenant does not have (another tenant's documents are indistinguishable from unknown ones).",
  ...scopedAccess("orders:read"),
  request: { params: InvoiceIdParams },
  responses: {
    200: { description: "The document", content: { "application/json": { schema: envelopeSchema(InvoiceRecordSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

const DecisionResultSchema = z
  .object({
    invoice: InvoiceRecordSchema,
    eventId: z.string().nullable().openapi({ description: "The invoice.accepted or invoice.disputed event; null for a repeat" }),
  })
  .openapi("InvoiceDecisionResult");

const decisionRoute = (decision: "accept" | "dispute") =>
  createRoute({
    method: "post",
    path: `/invoices/{invoiceId}/${decision}`,
    tags: [TAG],
    summary: decision === "accept" ? "Accept an invoice for payment" : "Dispute an invoice, with a reason for the vendor",
    description:
      "Whatever its match; it also settles a dispute. Answering again what was already answered answers 200 with `eventId` null. An accepted invoice is final (409).",
    ...scopedAccess("orders:write"),
    request: {
      params: InvoiceIdParams,
      body:
        decision === "accept"
          ? {
              required: false,
              content: {
                "application/json": {
                  schema: closedObject({
                    note: readableText(500).optional().openapi({
                      description: "Why the buyer accepts (an exception it agrees with), for the vendor",
                      example: "Freight charge agreed with the vendor by phone",
                    }),
                  }).openapi("AcceptInvoiceRequest"),
                },
              },
            }
          : {
              required: true,
              content: {
                "application/json": {
                  schema: closedObject({
                    reason: readableText(500).openapi({ description: "Why, for the vendor", example: "Billed 3 units; 2 were received" }),
                  }).openapi("DisputeInvoiceRequest"),
                },
              },
            },
    },
    responses: {
      200: { description: "Answered", content: { "application/json": { schema: envelopeSchema(DecisionResultSchema) } } },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: problem("Not allowed from the invoice's status, or the order changed meanwhile (retry)"),
      422: problem("A credit memo: only invoices are accepted or disputed"),
    },
  });

const router = createRouter()
  .openapi(searchRoute, async (c) => {
    const params = c.req.valid("query");
    const result = await searchInvoices(database(tenantDatabase(c)), c.get("principal").dataTenantId, params, getPage(params));
    return c.json(envelope(c, result), 200);
  })
  .openapi(getRoute, async (c) => {
    const record = await findInvoice(
      database(tenantDatabase(c)),
      { tenantId: c.get("principal").dataTenantId },
      c.req.valid("param").invoiceId,
    );
    if (!record) throw invoiceNotFound();
    return c.json(envelope(c, record), 200);
  });

for (const decision of ["accept", "dispute"] as const) {
  router.openapi(decisionRoute(decision), async (c) => {
    const { invoiceId } = c.req.valid("param");
    const body = (c.req.valid("json") ?? {}) as { reason?: string; note?: string };
    const db = database(tenantDatabase(c));
    const tenantId = c.get("principal").dataTenantId;
    const outcome = await decideInvoice(db, tenantId, invoiceId, decision, body.reason ?? body.note ?? null);
    const invoice = await findInvoice(db, { tenantId }, invoiceId);
    return c.json(envelope(c, { invoice: invoice!, eventId: outcome.eventId }), 200);
  });
}

export const invoiceBuyerRoutes = router;
