import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { appConfig } from "../../env";
import { ProblemError, ValidationError } from "../../platform/errors";
import { BOOKMARK_HEADER } from "../../platform/read-replicas";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, envelopeSchema, forbiddenResponse, problem, queryId } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { scopedAccess } from "../auth/bearer";
import { lookupRememberedUserProfile, lookupUserProfile } from "./lookup";

const AddressSchema = z
  .object({
    id: z.number().int(),
    attentionTo: z.string().nullable(),
    line1: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    country: z.string(),
  })
  .openapi("Address");

const CompanySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    shippingAddresses: z.array(AddressSchema),
    billingAddresses: z.array(AddressSchema),
    facilities: z.array(z.object({ id: z.number().int(), name: z.string() })).openapi({
      description: "Facilities of this company the user may order for (use the id as facilityId)",
    }),
  })
  .openapi("Company");

export const UserSchema = z
  .object({
    contactId: z.number().int().openapi({ description: "Use as requesterId in catalog and order calls" }),
    userId: z.number().int(),
    loginUserId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    companies: z.array(CompanySchema),
  })
  .openapi("User", {
    example: {
      contactId: 50001,
      userId: 1,
      loginUserId: "jsmith",
      firstName: "John",
      lastName: "Smith",
      email: "john.smith@stmarys.example",
      companies: [
        {
          id: 101,
          name: "St. Mary's Medical Center",
          shippingAddresses: [
            {
              id: 11,
              attentionTo: "Receiving Dock",
              line1: "800 E Carpenter St",
              city: "Springfield",
              state: "IL",
              zip: "62701",
              country: "US",
            },
          ],
          billingAddresses: [
            {
              id: 13,
              attentionTo: "Accounts Payable",
              line1: "800 E Carpenter St",
              city: "Springfield",
              state: "IL",
              zip: "62701",
              country: "US",
            },
          ],
          facilities: [{ id: 1001, name: "St. Mary's Main Campus" }],
        },
      ],
    },
  });

const LookupQuerySchema = z.object({
  userId: queryId.optional().openapi({
    param: { name: "userId", in: "query" },
    type: "integer",
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: "Exactly one of userId and loginUserId",
    example: 1,
  }),
  loginUserId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({
      param: { name: "loginUserId", in: "query" },
      // No example: Try-it fills in the examples it finds, and this one with userId's is a 400 (docs/decisions.md).
      description: "Exactly one of userId and loginUserId: look up by user name instead (e.g. `jsmith`)",
    }),
});

const lookupRoute = createRoute({
  method: "get",
  path: "/users/lookup",
  tags: ["Users"],
  summary: "A user's contact id, companies, facilities and addresses",
  description:
    "Usually the first call of an integration: the contact id is the requesterId of quotes and orders, and the facilities and addresses are the ones the user may order for and ship to.",
  ...scopedAccess("users:read"),
  request: { query: LookupQuerySchema },
  responses: {
    200: { description: "The user", content: { "application/json": { schema: envelopeSchema(UserSchema) } } },
    ...authenticatedErrorResponses,
    ...forbiddenResponse("`userId` is another tenant's user (spec 5.6)"),
    404: problem("No user has this `userId`; or no user of the tenant has this `loginUserId` (whether or not another tenant's has)"),
  },
});

export const userRoutes = createRouter().openapi(lookupRoute, async (c) => {
  const { userId, loginUserId } = c.req.valid("query");
  if ((userId === undefined) === (loginUserId === undefined)) {
    throw new ValidationError({ userId: ["Give exactly one of userId or loginUserId."] });
  }
  const db = database(tenantDatabase(c));
  const key = userId !== undefined ? { userId } : { loginUserId: loginUserId! };
  const tenantId = c.get("principal").tenantId;
  // A caller that sends a session bookmark asks to read at least that state: it reads D1, never the memory.
  const profile = await (c.req.header(BOOKMARK_HEADER) === undefined
    ? lookupRememberedUserProfile(db, tenantId, key, appConfig(c.env).USER_PROFILE_CACHE_SECONDS)
    : lookupUserProfile(db, tenantId, key)
  ).catch(async (error: unknown) => {
    // A tenant's store holds its own users only; the control database, the directory's one writer, holds every
    // tenant's: a user id the store lacks is asked there, where another tenant's is the 403 of spec 5.6 (and one the
    // store has not received yet is found). Only on this path, so no other lookup pays for it.
    if (c.get("tenantDb") && "userId" in key && error instanceof ProblemError && error.status === 404) {
      return lookupUserProfile(database(c.env.DB), tenantId, key);
    }
    throw error;
  });
  return c.json(envelope(c, profile), 200);
});
