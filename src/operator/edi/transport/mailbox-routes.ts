import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../env";
import { readAtMost } from "../../../platform/body-limit";
import { notFound, ProblemError } from "../../../platform/errors";
import { EDI_TAG } from "../../../platform/openapi/info";
import { envelope } from "../../../platform/responses";
import { createRouter } from "../../../platform/router";
import { authenticatedErrorResponses, envelopeResponse, integerPathParam, notFoundResponse, problem } from "../../../platform/schemas";
import { vendorScopedAccess } from "../../../shared/auth/bearer";
import { ediOf } from "../bindings";
import { type IntakeResult, takeInbound } from "../intake";
import { listOutbound, MAX_PAGE, readOutbound, takeOutbound } from "../outbound/outbox";
import { readPartner } from "../partners/partners";
import type { Partner } from "../partners/schemas";
import { X12_LIMITS } from "../x12/limits";

/**
 * The HTTPS mailbox (docs/edi.md, "The mailbox"): a partner without AS2 posts its interchanges and fetches ours under
 * /vendor/api/edi with a client of its vendor, acknowledging each document it took. Its documents act on the vendor
 * API as the partner's own client, as AS2's do.
 */

export const EDI_MAILBOX_PATH = "/edi/partners/{partnerId}";
export const MAILBOX_MEDIA_TYPE = "application/edi-x12";

const PartnerParams = z.object({ partnerId: integerPathParam("partnerId", 1) });
const DocumentParams = PartnerParams.extend({ controlNumber: integerPathParam("controlNumber", 1, 999_999_999) });

const AppliedSetSchema = z
  .object({
    set: z.string().openapi({ example: "855" }),
    controlNumber: z.string().openapi({ example: "0001" }),
    outcome: z.enum(["applied", "checked", "refused", "retry"]).openapi({
      description:
        "applied: the vendor API took it; checked: a test partner's set, read in full and not applied; refused: it or part of it was refused (messages); retry: Medparts applies it again later",
    }),
    messages: z.array(z.string()),
    job: z.string().optional().openapi({ description: "An 832's price file job (/vendor/api/offer-imports/{job})" }),
  })
  .openapi("EdiAppliedSet");

const InterchangeResultSchema = z
  .object({
    outcome: z.enum(["received", "duplicate", "refused"]).openapi({
      description:
        "received: recorded, acknowledged and applied; duplicate: received before (its first answer again); refused: no partner of the caller sends as its sender, or not X12",
    }),
    interchangeControl: z.string().optional().openapi({ description: "ISA13" }),
    acknowledgment: z.string().nullable().optional().openapi({
      description: "Our TA1 and 997/999 for it (also in the outbox, to be taken as any document)",
    }),
    reason: z.string().optional(),
    sets: z.array(AppliedSetSchema).optional(),
    applied: z.boolean().optional().openapi({ description: "False: a set waits to be applied again (the vendor API was unavailable)" }),
  })
  .openapi("EdiInterchangeResult");

const OutboundDocumentSchema = z
  .object({
    controlNumber: z.number().int().openapi({ description: "ISA13 of the interchange", example: 17 }),
    document: z.string().openapi({ description: "What it carries: 850, 997, 999, TA1", example: "850" }),
    size: z.number().int(),
    storedAt: z.string().datetime(),
  })
  .openapi("EdiOutboundDocument");

const notAMailbox = problem("The partner trades over AS2, not the mailbox");

const routes = {
  post: createRoute({
    method: "post",
    path: `${EDI_MAILBOX_PATH}/inbound`,
    tags: [EDI_TAG],
    summary: "Post X12 interchanges from the partner",
    description:
      "The body is the X12 file (one or more interchanges, at most 16 MiB). Each is recorded by its sender, ISA13 and date, answered with a TA1 and 997/999 (in the answer and in the outbox) and applied as the partner's client; the same interchange again is a duplicate.",
    ...vendorScopedAccess("fulfilment:write"),
    request: {
      params: PartnerParams,
      body: { required: true, description: "An X12 file", content: { [MAILBOX_MEDIA_TYPE]: { schema: z.string() } } },
    },
    responses: {
      200: envelopeResponse("What each interchange became", z.object({ interchanges: z.array(InterchangeResultSchema) })),
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: notAMailbox,
    },
  }),
  list: createRoute({
    method: "get",
    path: `${EDI_MAILBOX_PATH}/outbound`,
    tags: [EDI_TAG],
    summary: "The partner's documents waiting to be taken",
    description: "Oldest control number first; `cursor` from the previous page. A document stays until it is taken (DELETE).",
    ...vendorScopedAccess("fulfilment:read"),
    request: {
      params: PartnerParams,
      query: z.object({
        limit: z.coerce.number().int().min(1).max(MAX_PAGE).optional().openapi({ type: "integer", minimum: 1, maximum: MAX_PAGE }),
        cursor: z.string().max(1024).optional(),
      }),
    },
    responses: {
      200: envelopeResponse(
        "Documents",
        z.object({ items: z.array(OutboundDocumentSchema), cursor: z.string().nullable().openapi({ description: "null: the last page" }) }),
      ),
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: notAMailbox,
    },
  }),
  get: createRoute({
    method: "get",
    path: `${EDI_MAILBOX_PATH}/outbound/{controlNumber}`,
    tags: [EDI_TAG],
    summary: "One document, as X12",
    description: "Waiting or taken (a taken document stays readable for 30 days).",
    ...vendorScopedAccess("fulfilment:read"),
    request: { params: DocumentParams },
    responses: {
      200: { description: "The interchange", content: { [MAILBOX_MEDIA_TYPE]: { schema: z.string() } } },
      ...authenticatedErrorResponses,
      ...notFoundResponse,
      409: notAMailbox,
    },
  }),
  take: createRoute({
    method: "delete",
    path: `${EDI_MAILBOX_PATH}/outbound/{controlNumber}`,
    tags: [EDI_TAG],
    summary: "Acknowledge that a document was taken",
    description: "It leaves the waiting list. Again: 204, nothing changes.",
    ...vendorScopedAccess("fulfilment:write"),
    request: { params: DocumentParams },
    responses: { 204: { description: "Taken" }, ...authenticatedErrorResponses, ...notFoundResponse, 409: notAMailbox },
  }),
};

/** The caller's vendor's mailbox partner, or a 404 (another vendor's is unknown) or 409 (an AS2 partner). */
async function mailboxPartner(c: Context<AppEnv>, partnerId: number): Promise<Partner> {
  const partner = await readPartner(c.env.DB, partnerId);
  if (!partner || partner.vendorId !== c.get("vendorPrincipal").vendorId) throw notFound(`The vendor has no EDI partner ${partnerId}.`);
  if (partner.transport.kind !== "mailbox")
    throw new ProblemError(409, "conflict", "Conflict", `EDI partner ${partnerId} trades over AS2: its documents go to its AS2 URL.`);
  return partner;
}

async function bodyText(c: Context<AppEnv>): Promise<string> {
  const declared = Number(c.req.header("Content-Length") ?? "0");
  const bytes = declared > X12_LIMITS.maxInputChars || !c.req.raw.body ? null : await readAtMost(c.req.raw.body, X12_LIMITS.maxInputChars);
  if (bytes === null) {
    throw new ProblemError(413, "payload-too-large", "Payload Too Large", `An X12 file is at most ${X12_LIMITS.maxInputChars} bytes.`);
  }
  // X12 is ASCII; a file in another single-byte set reads as Latin-1 rather than being refused for its bytes.
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}

/** A result as the caller sees it: the partner is the one in the path. */
function withoutPartner(result: IntakeResult) {
  if (result.outcome === "refused") return result;
  const { partnerId: _partnerId, ...rest } = result;
  return rest;
}

export const mailboxRoutes = createRouter()
  .openapi(routes.post, async (c) => {
    const partner = await mailboxPartner(c, c.req.valid("param").partnerId);
    const results = await takeInbound(c.env, await bodyText(c), { partnerIds: [partner.id] });
    return c.json(envelope(c, { interchanges: results.map(withoutPartner) }), 200);
  })
  .openapi(routes.list, async (c) => {
    const partner = await mailboxPartner(c, c.req.valid("param").partnerId);
    const { limit, cursor } = c.req.valid("query");
    const page = await listOutbound(ediOf(c.env).IMPORTS, partner.id, { limit: limit ?? 100, cursor });
    const items = page.documents.map(({ controlNumber, document, size, storedAt }) => ({ controlNumber, document, size, storedAt }));
    return c.json(envelope(c, { items, cursor: page.cursor }), 200);
  })
  .openapi(routes.get, async (c) => {
    const { partnerId, controlNumber } = c.req.valid("param");
    const partner = await mailboxPartner(c, partnerId);
    const text = await readOutbound(ediOf(c.env).IMPORTS, partner.id, controlNumber);
    if (text === null) throw notFound(`No document ${controlNumber} for EDI partner ${partnerId}.`);
    return c.body(text, 200, { "Content-Type": MAILBOX_MEDIA_TYPE });
  })
  .openapi(routes.take, async (c) => {
    const { partnerId, controlNumber } = c.req.valid("param");
    const partner = await mailboxPartner(c, partnerId);
    const taken = await takeOutbound(ediOf(c.env).IMPORTS, partner.id, controlNumber);
    if (taken === "unknown") throw notFound(`No document ${controlNumber} for EDI partner ${partnerId}.`);
    return c.body(null, 204);
  });
