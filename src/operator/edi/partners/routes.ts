import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../env";
import { ValidationError } from "../../../platform/errors";
import { EDI_TAG } from "../../../platform/openapi/info";
import { webhookUrlProblem } from "../../../platform/outbound-urls";
import { envelope } from "../../../platform/responses";
import { createRouter } from "../../../platform/router";
import {
  authenticatedErrorResponses,
  envelopeResponse,
  integerPathParam,
  notFoundResponse,
  problem,
  requiredJsonBody,
  wholeNumberText,
} from "../../../platform/schemas";
import { operatorScopedAccess } from "../../../shared/auth/bearer";
import { PAGE_QUERY } from "../../onboarding/client-routes";
import { partnerCertificateProblem } from "../as2/certificates";
import { createPartner, listPartners, partnerOr404, replacePartner } from "./partners";
import { CreatePartnerSchema, type PartnerInput, PartnerInputSchema, PartnerSchema } from "./schemas";

/** The operator's X12 trading partners on /admin/api (docs/api.md, "Vendors over X12 EDI"). */

const access = operatorScopedAccess("clients:manage");
const IdParams = z.object({ partnerId: integerPathParam("partnerId", 1) });
const refused = problem("The vendor does not exist, or another partner of this usage already sends as this qualifier and id");

const routes = {
  create: createRoute({
    method: "post",
    path: "/edi-partners",
    tags: [EDI_TAG],
    summary: "Add a vendor's X12 trading partner",
    description:
      "Its interchange identities (one partner per sender and usage), version, the delimiters Medparts sends, the functional acknowledgment it gets, the transaction sets exchanged and its transport (AS2 or the HTTPS mailbox). Audited.",
    ...access,
    request: requiredJsonBody(CreatePartnerSchema),
    responses: { 201: envelopeResponse("Added", PartnerSchema), ...authenticatedErrorResponses, 422: refused },
  }),
  list: createRoute({
    method: "get",
    path: "/edi-partners",
    tags: [EDI_TAG],
    summary: "X12 trading partners, newest first",
    description: "Every vendor's, or one vendor's with vendorId.",
    ...access,
    request: {
      query: z.object({
        ...PAGE_QUERY,
        vendorId: wholeNumberText(1, Number.MAX_SAFE_INTEGER, "A vendor id.")
          .optional()
          .openapi({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Only this vendor's" }),
      }),
    },
    responses: { 200: envelopeResponse("Partners", z.object({ items: z.array(PartnerSchema) })), ...authenticatedErrorResponses },
  }),
  get: createRoute({
    method: "get",
    path: "/edi-partners/{partnerId}",
    tags: [EDI_TAG],
    summary: "One X12 trading partner",
    description: "Its identities, version, delimiters, documents and transport.",
    ...access,
    request: { params: IdParams },
    responses: { 200: envelopeResponse("The partner", PartnerSchema), ...authenticatedErrorResponses, ...notFoundResponse },
  }),
  replace: createRoute({
    method: "put",
    path: "/edi-partners/{partnerId}",
    tags: [EDI_TAG],
    summary: "Replace an X12 trading partner's settings",
    description: "Everything but its vendor, checked as at creation, in one batch with its audit entry.",
    ...access,
    request: { params: IdParams, ...requiredJsonBody(PartnerInputSchema) },
    responses: { 200: envelopeResponse("Replaced", PartnerSchema), ...authenticatedErrorResponses, ...notFoundResponse, 422: refused },
  }),
};

const actorOf = (c: Context<AppEnv>) => c.get("operatorPrincipal").clientId;

/**
 * An AS2 partner's URL is an outbound address like a webhook's (https to a public host), and its certificate one
 * Medparts can encrypt to and verify with (an RSA key, valid now).
 */
function checkAs2(c: Context<AppEnv>, input: PartnerInput): void {
  if (input.transport.kind !== "as2") return;
  const urlProblem = webhookUrlProblem(input.transport.url, c.env.ALLOW_LOCAL_WEBHOOKS === "true");
  const certificateProblem = partnerCertificateProblem(input.transport.partnerCertificate);
  if (urlProblem || certificateProblem) {
    throw new ValidationError({
      ...(urlProblem ? { "transport.url": [urlProblem] } : {}),
      ...(certificateProblem ? { "transport.partnerCertificate": [certificateProblem] } : {}),
    });
  }
}

export const partnerRoutes = createRouter()
  .openapi(routes.create, async (c) => {
    const { vendorId, ...input } = c.req.valid("json");
    checkAs2(c, input);
    const partner = await createPartner(c.env.DB, vendorId, input, actorOf(c));
    return c.json(envelope(c, partner), 201, { Location: `${new URL(c.req.url).pathname}/${partner.id}` });
  })
  .openapi(routes.list, async (c) => {
    const { limit, offset, vendorId } = c.req.valid("query");
    return c.json(envelope(c, { items: await listPartners(c.env.DB, vendorId, limit ?? 20, offset ?? 0) }), 200);
  })
  .openapi(routes.get, async (c) => c.json(envelope(c, await partnerOr404(c.env.DB, c.req.valid("param").partnerId)), 200))
  .openapi(routes.replace, async (c) => {
    const input = c.req.valid("json");
    checkAs2(c, input);
    return c.json(envelope(c, await replacePartner(c.env.DB, c.req.valid("param").partnerId, input, actorOf(c))), 200);
  });
