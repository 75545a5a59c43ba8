import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { normalizePostPage, PaginationSchema } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { closedObject, envelopeSchema } from "../../platform/schemas";
import { tenantDatabase } from "../../platform/tenant-home";
import { bodyFiltersFor, bodyFiltersSchema, queryFromFilters } from "../../query/body-filters";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { planQuery, planSearch } from "../../query/search";
import { scopedAccess } from "../auth/bearer";
import { searchUsers } from "./search";
import { userSearch } from "./search-fields";

const UserSearchRecordSchema = z
  .object({
    id: z.number().int().openapi({ description: "User id" }),
    contactId: z.number().int().openapi({ description: "Use as requesterId in catalog and order calls" }),
    userName: z.string(),
    email: z.string().nullable(),
    firstName: z.string(),
    lastName: z.string(),
    companies: z.array(z.object({ id: z.number().int(), name: z.string() })),
  })
  .openapi("UserSearchRecord");

const searchRoute = createRoute({
  method: "get",
  path: "/users/search",
  tags: ["Users"],
  summary: "Search the tenant's users with the q language",
  description:
    "Filters, sorts and pages the tenant's active users with a q query (docs: the q language); the tenant comes from the token, never from the query.",
  ...scopedAccess("users:read"),
  request: { query: searchQueryParams(userSearch, 'lastName~"smi" AND -email:null') },
  responses: {
    200: {
      description: "A page of users",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ items: z.array(UserSearchRecordSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

/** POST filters (spec 4.14): exact match on each field, plus `<field>Contains` on text fields. */
export const USER_BODY_FILTERS = bodyFiltersFor(userSearch, [
  "email",
  "firstName",
  "lastName",
  "userName",
  "companyName",
  "customerId",
  "id",
  "contactId",
]);

/** No type in the document either: the server takes any value and corrects it (normalizePostPage). */
const loosePaginationValue = z.unknown().optional();

const PostSearchBodySchema = closedObject({
  filters: bodyFiltersSchema(userSearch, USER_BODY_FILTERS).optional(),
  pagination: closedObject({
    limit: loosePaginationValue.openapi({
      description:
        "Any JSON value, never refused (spec 4.16; but an object with a `__proto__` key, which no JSON body may hold): a whole number or numeric text from 1 to 10,000 is used (fractions truncated); " +
        "above 10,000 becomes 10,000; below 1 or not a number becomes 50, the default",
      example: 50,
    }),
    offset: loosePaginationValue.openapi({
      description:
        "Any JSON value, never refused (spec 4.16; but an object with a `__proto__` key, which no JSON body may hold): a whole number or numeric text; negative or not a number becomes 0, the default",
      example: 0,
    }),
  }).optional(),
}).openapi("UserSearchRequest");

const postSearchRoute = createRoute({
  method: "post",
  path: "/users/search",
  tags: ["Users"],
  summary: "Search users with filters in the body",
  description:
    "Pagination is normalized silently. The same search as GET /users/search with filters in a JSON body; an unknown filter is a 400 naming it rather than a silently wider search.",
  ...scopedAccess("users:read"),
  request: { body: { required: false, content: { "application/json": { schema: PostSearchBodySchema } } } },
  responses: {
    200: {
      description: "A page of users; `pagination` shows the limit and offset actually used",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ users: z.array(UserSearchRecordSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

export const userSearchRoutes = createRouter()
  .openapi(searchRoute, async (c) => {
    const params = c.req.valid("query");
    const result = await searchUsers(
      database(tenantDatabase(c)),
      c.get("principal").tenantId,
      planSearch(userSearch, params),
      getPage(params),
    );
    return c.json(envelope(c, result), 200);
  })
  .openapi(postSearchRoute, async (c) => {
    const body = c.req.valid("json");
    const plan = planQuery(userSearch, queryFromFilters(USER_BODY_FILTERS, body.filters ?? {}));
    const { items, pagination } = await searchUsers(
      database(tenantDatabase(c)),
      c.get("principal").tenantId,
      plan,
      normalizePostPage(body.pagination),
    );
    return c.json(envelope(c, { users: items, pagination }), 200);
  });
