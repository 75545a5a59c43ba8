import { createRoute, z } from "@hono/zod-openapi";
import { notFound } from "../../platform/errors";
import { OFFERS_TAG } from "../../platform/openapi/info";
import { PaginationSchema, paginationOf } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeSchema,
  integerPathParam,
  notFoundResponse,
  problem,
} from "../../platform/schemas";
import { getPage, SearchQueryParamsSchema } from "../../query/params";
import { vendorScopedAccess } from "../../shared/auth/bearer";
import {
  AgreementInputSchema,
  AgreementSchema,
  changeAgreementEnd,
  createAgreement,
  endAgreement,
  findAgreement,
  listAgreements,
} from "./agreements";
import { instant } from "./schemas";

/** The vendor API's price agreements (contract prices), mounted at /vendor/api. */

/** Agreement ids are SQLite rowids below 2^31 (they travel in price option ids as 32-bit integers). */
const IdParams = z.object({ agreementId: integerPathParam("agreementId", 1, 2_147_483_647) });

const agreementResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: envelopeSchema(AgreementSchema) } },
});
const conflict = problem("Another agreement of the vendor has the same scope for an overlapping period, or this one has ended");
const unprocessable = problem(
  "A reference that does not hold: an unknown tenant, tier, facility of another tenant, SKU or product (`errors` names each)",
);

const createAgreementRoute = createRoute({
  method: "post",
  path: "/agreements",
  tags: [OFFERS_TAG],
  summary: "Make a price agreement",
  description:
    "Contract prices for a tenant, some of its facilities, or a tier. Quotes issued while it is in effect get its price for the offers it names (a SKU, or every offer of a product), over the list price; of several agreements that apply, the lowest price wins. One agreement per scope at a time: an overlapping period for the same scope is a 409.",
  ...vendorScopedAccess("offers:write"),
  request: { body: { content: { "application/json": { schema: AgreementInputSchema } }, required: true } },
  responses: {
    201: agreementResponse("The agreement"),
    ...authenticatedErrorResponses,
    409: conflict,
    422: unprocessable,
  },
});

const listAgreementsRoute = createRoute({
  method: "get",
  path: "/agreements",
  tags: [OFFERS_TAG],
  summary: "The vendor's price agreements, oldest first",
  description: "The calling vendor's own agreements with their status (scheduled, active, expired, ended) and price lines, paged.",
  ...vendorScopedAccess("offers:read"),
  request: { query: z.object({ limit: SearchQueryParamsSchema.shape.limit, offset: SearchQueryParamsSchema.shape.offset }) },
  responses: {
    200: {
      description: "A page of agreements",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ agreements: z.array(AgreementSchema), pagination: PaginationSchema })) },
      },
    },
    ...authenticatedErrorResponses,
  },
});

const getAgreementRoute = createRoute({
  method: "get",
  path: "/agreements/{agreementId}",
  tags: [OFFERS_TAG],
  summary: "One of the vendor's price agreements",
  description: "404 for an id that is unknown or another vendor's (indistinguishable).",
  ...vendorScopedAccess("offers:read"),
  request: { params: IdParams },
  responses: { 200: agreementResponse("The agreement"), ...authenticatedErrorResponses, ...notFoundResponse },
});

const patchAgreementRoute = createRoute({
  method: "patch",
  path: "/agreements/{agreementId}",
  tags: [OFFERS_TAG],
  summary: "Set or clear when an agreement stops (effectiveTo)",
  description: "Quotes issued before keep their price. A new period that overlaps another agreement of the same scope is a 409.",
  ...vendorScopedAccess("offers:write"),
  request: {
    params: IdParams,
    body: {
      content: {
        "application/json": {
          schema: closedObject({
            effectiveTo: instant.nullable().openapi({ description: "The new end (exclusive), after effectiveFrom; null: until ended" }),
          }).openapi("AgreementChange"),
        },
      },
      required: true,
    },
  },
  responses: {
    200: agreementResponse("The agreement"),
    ...authenticatedErrorResponses,
    ...notFoundResponse,
    409: conflict,
    422: problem("effectiveTo is not after the agreement's effectiveFrom"),
  },
});

const endAgreementRoute = createRoute({
  method: "delete",
  path: "/agreements/{agreementId}",
  tags: [OFFERS_TAG],
  summary: "End a price agreement now",
  description:
    "New quotes no longer get its prices; issued ones keep them. Ending an ended agreement answers 204 too; 404 for an id that is unknown or another vendor's.",
  ...vendorScopedAccess("offers:write"),
  request: { params: IdParams },
  responses: { 204: { description: "Ended" }, ...authenticatedErrorResponses, ...notFoundResponse },
});

const agreementNotFound = () => notFound("The vendor has no agreement with that id.");

export const agreementRoutes = createRouter()
  .openapi(createAgreementRoute, async (c) => {
    const agreement = await createAgreement(c.env, c.get("vendorPrincipal").vendorId, c.req.valid("json"), new Date());
    c.header("Location", `${new URL(c.req.url).pathname}/${agreement.agreementId}`);
    return c.json(envelope(c, agreement), 201);
  })
  .openapi(listAgreementsRoute, async (c) => {
    const page = getPage(c.req.valid("query"));
    const { agreements, total } = await listAgreements(c.env.DB, c.get("vendorPrincipal").vendorId, page.limit, page.offset);
    return c.json(envelope(c, { agreements, pagination: paginationOf(page, total, agreements.length) }), 200);
  })
  .openapi(getAgreementRoute, async (c) => {
    const agreement = await findAgreement(c.env.DB, c.get("vendorPrincipal").vendorId, Number(c.req.valid("param").agreementId));
    if (!agreement) throw agreementNotFound();
    return c.json(envelope(c, agreement), 200);
  })
  .openapi(patchAgreementRoute, async (c) => {
    const id = Number(c.req.valid("param").agreementId);
    const agreement = await changeAgreementEnd(c.env.DB, c.get("vendorPrincipal").vendorId, id, c.req.valid("json").effectiveTo);
    if (!agreement) throw agreementNotFound();
    return c.json(envelope(c, agreement), 200);
  })
  .openapi(endAgreementRoute, async (c) => {
    if (!(await endAgreement(c.env.DB, c.get("vendorPrincipal").vendorId, Number(c.req.valid("param").agreementId), new Date()))) {
      throw agreementNotFound();
    }
    return c.body(null, 204);
  });
