import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { NO_CONTROL_CHARACTERS } from "../../platform/control-characters";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../../platform/json-depth";
import { isJsonObject } from "../../platform/json-object";
import { SCIM_TAG } from "../../platform/openapi/info";
import { UPSTREAM_RETRY_AFTER_SECONDS } from "../../platform/upstream";
import { illFormedText } from "../../platform/well-formed-text";
import { directoryRowOwed } from "../tenant-stores/directory-mirror";
import { type Json, keyOf } from "./attributes";
import {
  LIST_RESPONSE_SCHEMA,
  MAX_RESULTS,
  resourceTypeById,
  resourceTypes,
  schemaById,
  schemas,
  serviceProviderConfig,
} from "./discovery";
import {
  createScimRouter,
  SCIM_BASE,
  SCIM_CONTENT_TYPE,
  ScimError,
  scimBadRequest,
  scimErrorResponse,
  scimErrorResponses,
  scimJson,
  scimNoContent,
  scimNotFound,
} from "./errors";
import { type FilterColumn, filterToSqlChecked } from "./filter-sql";
import {
  createGroup,
  deleteGroup,
  GROUP_FILTER_COLUMNS,
  type GroupRow,
  membersOf,
  patchGroup,
  presentGroup,
  readGroup,
  replaceGroup,
  validGroup,
} from "./groups";
import { applyPatch, type PatchOperation, parseFilterText } from "./patch";
import { GROUP_TYPE, schemaUrns, USER_TYPE } from "./resource-schemas";
import { EMAIL_ADDRESS, NOT_BLANK_NO_CONTROL_CHARACTERS } from "./text";
import {
  type Actor,
  columnsOf,
  createUser,
  deleteUser,
  presentUser,
  readUser,
  replaceUser,
  USER_FILTER_COLUMNS,
  type UserColumns,
  type UserRow,
  validUser,
} from "./users";

/**
 * SCIM 2.0 (RFC 7643, 7644) for a tenant's identity provider, under /scim/v2 (docs/api.md, "SCIM"): Users, Groups
 * (facility access), and discovery. Every answer is application/scim+json; every error SCIM's error form.
 */

const PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const security = [{ scimToken: [] }];
const tags = [SCIM_TAG];

const scimContent = (schema: z.ZodTypeAny) => ({ content: { [SCIM_CONTENT_TYPE]: { schema } } });

const MetaSchema = z.object({
  resourceType: z.string(),
  created: z.string().optional(),
  lastModified: z.string().optional(),
  location: z.string(),
  version: z.string().optional(),
});

const ScimUserSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    userName: z.string().optional(),
    name: z
      .object({ givenName: z.string().optional(), familyName: z.string().optional(), formatted: z.string().optional() })
      .passthrough()
      .optional(),
    displayName: z.string().optional(),
    emails: z.array(z.object({ value: z.string(), type: z.string().optional(), primary: z.boolean().optional() }).passthrough()).optional(),
    active: z.boolean().optional(),
    "urn:medparts:params:scim:schemas:extension:medparts:2.0:User": z
      .object({ contactId: z.number().int().openapi({ description: "The customer API's requesterId (readOnly)" }) })
      .optional(),
    meta: MetaSchema,
  })
  .passthrough()
  .openapi("ScimUser", {
    description:
      "A SCIM User (RFC 7643 4.1); other attributes the identity provider sent are answered back. With `attributes` or `excludedAttributes`, only schemas, id and meta are sure to be there",
  });

const ScimGroupSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    displayName: z.string().optional(),
    members: z
      .array(
        z
          .object({ value: z.string(), display: z.string().optional(), type: z.string().optional() })
          .passthrough()
          .openapi({ description: "A member: value (the user's id), display (its userName), type, and $ref (its URI)" }),
      )
      .optional(),
    "urn:medparts:params:scim:schemas:extension:medparts:2.0:Group": z
      .object({
        facilityId: z.number().int().nullable().openapi({ description: "The facility the group grants; null when its name names none" }),
      })
      .optional(),
    meta: MetaSchema,
  })
  .openapi("ScimGroup", { description: "A SCIM Group (RFC 7643 4.2): access to the tenant's facility its displayName names" });

const listSchema = (name: string, resource: z.ZodTypeAny) =>
  z
    .object({
      schemas: z.array(z.literal(LIST_RESPONSE_SCHEMA)),
      totalResults: z.number().int(),
      startIndex: z.number().int(),
      itemsPerPage: z.number().int(),
      Resources: z.array(resource),
    })
    .openapi(name);

const DECLARED_ONLY = "only attributes a schema in /Schemas declares (any other: 400 invalidValue)";

const schemasList = (type: typeof USER_TYPE) =>
  z
    .array(z.enum(schemaUrns(type) as [string, ...string[]]))
    .optional()
    .openapi({ description: `When given, it lists ${type.schema.id} (and extensions from /Schemas only)`, example: [type.schema.id] });

const ScimUserInputSchema = z
  .object({
    schemas: schemasList(USER_TYPE),
    userName: z.string().min(1).max(256).regex(NOT_BLANK_NO_CONTROL_CHARACTERS).openapi({ example: "jdoe@riverside.example" }),
    externalId: z.string().max(256).regex(NO_CONTROL_CHARACTERS).optional().openapi({ example: "701984" }),
    active: z.boolean().optional(),
    name: z
      .object({
        givenName: z.string().max(200).regex(NO_CONTROL_CHARACTERS).optional().openapi({ example: "Jane" }),
        familyName: z.string().max(200).regex(NO_CONTROL_CHARACTERS).optional().openapi({ example: "Doe" }),
      })
      .optional(),
    emails: z
      .array(
        z.object({
          value: z.string().max(320).regex(EMAIL_ADDRESS).openapi({ example: "jdoe@riverside.example" }),
          type: z.string().max(50).regex(NO_CONTROL_CHARACTERS).optional().openapi({ example: "work" }),
          primary: z.boolean().optional(),
        }),
      )
      .max(20)
      .optional(),
  })
  .openapi("ScimUserInput", {
    description: `A User to create or replace; userName required, attributes are case-insensitive; ${DECLARED_ONLY}`,
  });

const ScimGroupInputSchema = z
  .object({
    schemas: schemasList(GROUP_TYPE),
    displayName: z.string().min(1).max(200).regex(NOT_BLANK_NO_CONTROL_CHARACTERS).openapi({ example: "Riverside Main Campus" }),
    externalId: z.string().max(256).optional(),
    members: z
      .array(z.object({ value: z.string().max(20).openapi({ example: "1" }) }))
      .max(1000)
      .optional(),
  })
  .openapi("ScimGroupInput", {
    description: `A Group to create or replace; members' values are user ids of the tenant; ${DECLARED_ONLY}`,
  });

const PatchOpSchema = z
  .object({
    schemas: z.array(z.literal(PATCH_OP_SCHEMA)).min(1).optional(),
    Operations: z
      .array(
        z.object({
          op: z
            .string()
            .regex(/^([Aa][Dd][Dd]|[Rr][Ee][Pp][Ll][Aa][Cc][Ee]|[Rr][Ee][Mm][Oo][Vv][Ee])$/)
            .openapi({ description: "add, replace or remove, in any case (Entra ID sends Replace)", example: "replace" }),
          path: z
            .string()
            .max(300)
            .optional()
            .openapi({
              description:
                'An attribute path (RFC 7644 3.5.2) to an attribute in /Schemas, e.g. active, name.givenName, emails[type eq "work"].value; ' +
                "the result must be a valid resource",
              example: "active",
            }),
          value: z.unknown().optional(),
        }),
      )
      .min(1)
      .max(1000),
  })
  .openapi("ScimPatchOp", { description: "RFC 7644 3.5.2 PatchOp" });

/** Registered by hand so that the routes document the bodies without validating them (SCIM attributes are case-insensitive). */
const bodyOf = (name: string) => ({
  required: true,
  content: {
    [SCIM_CONTENT_TYPE]: { schema: { $ref: `#/components/schemas/${name}` } },
    "application/json": { schema: { $ref: `#/components/schemas/${name}` } },
  },
});

// Starting with a letter or digit: a path segment "." or ".." would be resolved away by URL normalization.
const IdParams = z.object({
  id: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9]/, "An id starts with a letter or digit.")
    .openapi({ param: { name: "id", in: "path" }, description: "The resource's id (an unknown one is a 404)", example: "1" }),
});

/** A resource type's id or a schema's URN; an unknown one is a 404. */
const DiscoveryIdParams = (example: string) =>
  z.object({
    id: z
      .string()
      .max(300)
      .regex(/^[A-Za-z0-9]/, "An id starts with a letter or digit.")
      .openapi({ param: { name: "id", in: "path" }, description: "Its id (an unknown one is a 404)", example }),
  });

const integerText = (description: string, example: number) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, "An integer.")
    .optional()
    .openapi({ type: "integer", minimum: -999_999_999, maximum: 999_999_999, description, example });

const ListQuery = z.object({
  filter: z.string().max(1000).optional().openapi({
    description: 'A SCIM filter (RFC 7644 3.4.2.2), e.g. userName eq "jsmith"; attributes in /Schemas; any other is a 400 invalidFilter',
    example: 'userName eq "jsmith"',
  }),
  startIndex: integerText("1-based index of the first result (default 1; below 1 counts as 1)", 1),
  count: integerText(`Results per page (default and most: ${MAX_RESULTS}; below 0 counts as 0)`, 100),
  attributes: z.string().max(1000).optional().openapi({ description: "Only these attributes (comma-separated), and id, schemas, meta" }),
  excludedAttributes: z.string().max(1000).optional().openapi({ description: "All but these attributes (comma-separated), e.g. members" }),
});

const GetQuery = ListQuery.pick({ attributes: true, excludedAttributes: true });

/** The Groups list takes filters on a group's attributes: userName is a user's. */
const GroupListQuery = ListQuery.extend({
  filter: ListQuery.shape.filter.openapi({
    description:
      'A SCIM filter (RFC 7644 3.4.2.2), e.g. displayName eq "Riverside Main Campus"; attributes in /Schemas; any other is a 400 invalidFilter',
    example: 'displayName eq "Riverside Main Campus"',
  }),
});

const writeErrors = {
  ...scimErrorResponses,
  404: scimErrorResponse("No such resource of this tenant"),
  409: scimErrorResponse("uniqueness: the tenant has one of that userName or displayName"),
};

type RouteRest = Omit<Parameters<typeof createRoute>[0], "method" | "path" | "tags" | "summary" | "security">;
const route = (method: "get" | "post" | "put" | "patch" | "delete", path: string, summary: string, rest: RouteRest) =>
  createRoute({ method, path, tags, summary, security, ...rest });

/** Keeps `attributes` only, or drops `excludedAttributes` (top-level names; id, schemas and meta always stay). */
/** `urn:...:core:2.0:User:name.givenName` -> `name`: the top-level attribute a listed name is about. */
export function topLevelAttribute(listed: string): string {
  const name = listed.trim();
  const urn = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i.exec(name);
  const bare = urn ? name.slice(urn[0].length) : name;
  // An extension's attribute (urn:...:2.0:User:department) is about the extension's object.
  if (/^urn:/i.test(bare)) return bare.slice(0, bare.lastIndexOf(":")).toLowerCase();
  return bare.split(".")[0]!.toLowerCase();
}

function project(resource: Json, attributes?: string, excluded?: string): Json {
  const names = (list: string) => new Set(list.split(",").map(topLevelAttribute));
  const always = new Set(["id", "schemas", "meta"]);
  if (attributes) {
    const wanted = names(attributes);
    return Object.fromEntries(Object.entries(resource).filter(([key]) => always.has(key) || wanted.has(key.toLowerCase())));
  }
  if (excluded) {
    const dropped = names(excluded);
    return Object.fromEntries(Object.entries(resource).filter(([key]) => always.has(key) || !dropped.has(key.toLowerCase())));
  }
  return resource;
}

const baseOf = (c: Context) => `${new URL(c.req.url).origin}${SCIM_BASE}`;
const actorOf = (c: Context<AppEnv>): Actor => {
  const caller = c.get("scimCaller");
  return { tenantId: caller.tenantId, name: `scim:${caller.tokenId}` };
};
/** A resource id: anything but a positive integer names nothing (404, as any unknown id). */
const idOf = (c: Context, kind: string): number => {
  const id = c.req.param("id") ?? "";
  if (!/^[1-9]\d{0,15}$/.test(id)) throw scimNotFound(`No ${kind} ${id.slice(0, 64)}.`);
  return Number(id);
};

/**
 * A DELETE, except that "no such resource" (404) is not the answer while the removal of that very resource is still owed
 * to the tenant's stores: the identity provider's resend after a crash that lost the first attempt's push would end
 * there, and the stores would keep the user (or the facility access) meanwhile. It gets a 503 and sends it again.
 */
async function deleteOrStillOwed(c: Context<AppEnv>, table: "users" | "scim_groups", id: number, remove: () => Promise<void>) {
  try {
    await remove();
  } catch (err) {
    if (err instanceof ScimError && err.status === 404 && (await directoryRowOwed(c.env, actorOf(c).tenantId, table, [id]))) {
      throw new ScimError(503, "Its removal is still reaching the tenant's stores. Retry.", undefined, {
        "Retry-After": String(UPSTREAM_RETRY_AFTER_SECONDS),
      });
    }
    throw err;
  }
}

function paging(query: { startIndex?: string; count?: string }) {
  const startIndex = Math.max(1, Number(query.startIndex ?? 1));
  const count = Math.min(MAX_RESULTS, Math.max(0, Number(query.count ?? MAX_RESULTS)));
  return { startIndex, count };
}

async function readBody(c: Context<AppEnv>): Promise<unknown> {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== SCIM_CONTENT_TYPE && type !== "application/json") {
    throw new ScimError(415, "Send the body as application/scim+json (or application/json).");
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw scimBadRequest("invalidSyntax", "The body is not valid JSON.");
  }
  // What is kept of a resource is walked and stored whole: a hostile nesting never gets that far.
  if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) throw scimBadRequest("invalidSyntax", `JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
  // As the customer API: text that storage would alter (a lone surrogate becomes U+FFFD) is never stored.
  const illFormed = illFormedText(body);
  if (illFormed) {
    const places = Object.entries(illFormed).slice(0, 5);
    throw scimBadRequest("invalidValue", places.map(([field, [message]]) => `${field}: ${message}`).join("; "));
  }
  return body;
}

function operationsOf(body: unknown): PatchOperation[] {
  // A body claiming to be something else (a User) is not a PatchOp; one that says nothing is taken as one.
  const claimed = isJsonObject(body) ? body[keyOf(body, "schemas")] : undefined;
  const isPatchOp = (urn: unknown) => typeof urn === "string" && urn.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase();
  if (claimed !== undefined && !(Array.isArray(claimed) && claimed.length > 0 && claimed.every(isPatchOp))) {
    throw scimBadRequest("invalidSyntax", `A PatchOp's schemas is ["${PATCH_OP_SCHEMA}"].`);
  }
  const operations = isJsonObject(body) ? body[keyOf(body, "Operations")] : undefined;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 1000) {
    throw scimBadRequest("invalidSyntax", "A PatchOp needs Operations: a list of 1-1000 { op, path?, value? }.");
  }
  return operations.map((operation) => {
    if (!isJsonObject(operation)) throw scimBadRequest("invalidSyntax", "Each operation is an object.");
    const fields = Object.fromEntries(Object.entries(operation).map(([k, v]) => [k.toLowerCase(), v]));
    if (typeof fields.op !== "string") throw scimBadRequest("invalidSyntax", "Each operation needs op.");
    if (fields.path !== undefined && fields.path !== null && typeof fields.path !== "string")
      throw scimBadRequest("invalidPath", "path must be a string.");
    return { op: fields.op, path: (fields.path as string | null | undefined) ?? undefined, value: fields.value };
  });
}

async function listPage<R>(
  c: Context<AppEnv>,
  table: string,
  columns: Record<string, FilterColumn>,
  extra: string,
): Promise<{ rows: R[]; total: number; startIndex: number }> {
  const query = c.req.query();
  const { startIndex, count } = paging(query);
  const condition = query.filter ? filterToSqlChecked(parseFilterText(query.filter), columns) : { sql: "1", params: [] };
  const where = `tenant_id = ? ${extra} AND ${condition.sql}`;
  const params = [c.get("scimCaller").tenantId, ...condition.params];
  const [total, page] = await c.env.DB.batch([
    c.env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).bind(...params),
    c.env.DB.prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`).bind(...params, count, startIndex - 1),
  ]);
  return { rows: page!.results as R[], total: (total!.results[0] as { n: number }).n, startIndex };
}

const listResponse = (resources: Json[], total: number, startIndex: number) => ({
  schemas: [LIST_RESPONSE_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/**
 * Writes a user's new columns, made from the user as read, conditionally on the version read; reads and makes them
 * again when another change came first (PUT and PATCH).
 */
async function rewriteUser(c: Context<AppEnv>, id: number, columnsFor: (current: UserRow) => UserColumns): Promise<UserRow> {
  const actor = actorOf(c);
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await readUser(c.env.DB, actor.tenantId, id);
    const written = await replaceUser(c.env.DB, actor, current, columnsFor(current));
    if (written) return written;
  }
  throw new ScimError(409, "The user kept changing meanwhile; retry.");
}

const excludesMembers = (c: Context) => {
  const { attributes, excludedAttributes } = c.req.query();
  const mentions = (list: string | undefined) => (list ?? "").split(",").some((name) => topLevelAttribute(name) === "members");
  return attributes ? !mentions(attributes) : mentions(excludedAttributes);
};

/** A resource as the request's `attributes` or `excludedAttributes` ask for it. */
function projected(c: Context, resource: Json): Json {
  const { attributes, excludedAttributes } = c.req.query();
  return project(resource, attributes, excludedAttributes);
}

async function presentGroups(c: Context<AppEnv>, rows: GroupRow[]): Promise<Json[]> {
  // The member lists are read only when the answer shows them.
  const members = excludesMembers(c)
    ? null
    : await membersOf(
        c.env.DB,
        rows.map((row) => row.id),
      );
  return rows.map((row) => projected(c, presentGroup(row, baseOf(c), members?.get(row.id))));
}

const discovery = (path: string, summary: string, description: string, schema: z.ZodTypeAny) =>
  route("get", path, summary, { description, responses: { 200: { description: summary, ...scimContent(schema) }, ...scimErrorResponses } });

const AnyObject = z.object({}).passthrough();

export const scimRoutes = createScimRouter();
scimRoutes.openAPIRegistry.register("ScimUserInput", ScimUserInputSchema);
scimRoutes.openAPIRegistry.register("ScimGroupInput", ScimGroupInputSchema);
scimRoutes.openAPIRegistry.register("ScimPatchOp", PatchOpSchema);

const handlers: [ReturnType<typeof route>, (c: Context<AppEnv>) => Promise<Response>][] = [
  [
    discovery(
      "/ServiceProviderConfig",
      "What this SCIM service provider supports",
      "Identity providers read it when connecting: PATCH and filtering supported, bulk, sorting and password changes not; authentication by bearer token.",
      AnyObject.openapi("ScimServiceProviderConfig"),
    ),
    async (c) => scimJson(c, serviceProviderConfig(baseOf(c)), 200),
  ],
  [
    discovery(
      "/ResourceTypes",
      "List the resource types",
      "User and Group. The endpoints of each resource type and the schema extensions they take (Medparts' user and group attributes).",
      listSchema("ScimResourceTypeList", AnyObject),
    ),
    async (c) => {
      const types = resourceTypes(baseOf(c));
      return scimJson(c, listResponse(types, types.length, 1), 200);
    },
  ],
  [
    discovery(
      "/Schemas",
      "The schemas and their attributes",
      "Every attribute with its type, mutability and uniqueness: what an identity provider may map, and which attributes PATCH paths can name.",
      listSchema("ScimSchemaList", AnyObject),
    ),
    async (c) => {
      const all = schemas(baseOf(c));
      return scimJson(c, listResponse(all, all.length, 1), 200);
    },
  ],
  [
    route("get", "/ResourceTypes/{id}", "Get a resource type", {
      description:
        "User or Group. The entry of /ResourceTypes for one id (RFC 7644 section 4): its endpoint and the schema and extensions its resources carry, as identity providers read it before provisioning.",
      request: { params: DiscoveryIdParams("User") },
      responses: {
        200: { description: "The resource type", ...scimContent(AnyObject.openapi("ScimResourceType")) },
        ...scimErrorResponses,
        404: scimErrorResponse("No resource type of that id"),
      },
    }),
    async (c) => scimJson(c, resourceTypeById(c.req.param("id") ?? "", baseOf(c)), 200),
  ],
  [
    route("get", "/Schemas/{id}", "One schema, by its URN", {
      description:
        "The entry of /Schemas for one URN (RFC 7644 section 4): every attribute this server declares, with its type, mutability and uniqueness; an attribute no served schema declares is refused on write.",
      request: { params: DiscoveryIdParams(USER_TYPE.schema.id) },
      responses: {
        200: { description: "The schema", ...scimContent(AnyObject.openapi("ScimSchema")) },
        ...scimErrorResponses,
        404: scimErrorResponse("No schema of that URN"),
      },
    }),
    async (c) => scimJson(c, schemaById(c.req.param("id") ?? "", baseOf(c)), 200),
  ],
  [
    route("get", "/Users", "The tenant's users, filtered and paged", {
      description:
        "A SCIM filter (userName eq ..., externalId eq ...) finds the user an identity provider is about to create or update; startIndex and count page.",
      request: { query: ListQuery },
      responses: { 200: { description: "A page", ...scimContent(listSchema("ScimUserList", ScimUserSchema)) }, ...scimErrorResponses },
    }),
    async (c) => {
      const { rows, total, startIndex } = await listPage<UserRow>(c, "users", USER_FILTER_COLUMNS, "AND deleted_at IS NULL");
      return scimJson(
        c,
        listResponse(
          rows.map((row) => projected(c, presentUser(row, baseOf(c)))),
          total,
          startIndex,
        ),
        200,
      );
    },
  ],
  [
    route("post", "/Users", "Provision a user", {
      description:
        "Its userName is unique in the tenant, case-insensitively. The user can then be a requester of the customer API; Medparts assigns the contact id (requesterId), read-only in its extension.",
      request: { body: bodyOf("ScimUserInput") },
      responses: { 201: { description: "Created", ...scimContent(ScimUserSchema) }, ...writeErrors },
    }),
    async (c) => {
      const row = await createUser(c.env.DB, actorOf(c), columnsOf(validUser(await readBody(c))));
      const user = presentUser(row, baseOf(c));
      return scimJson(c, user, 201, { Location: (user.meta as { location: string }).location });
    },
  ],
  [
    route("get", "/Users/{id}", "One user", {
      description:
        "As last provisioned, with its contact id; attributes and excludedAttributes trim the answer. Another tenant's user is a 404.",
      request: { params: IdParams, query: GetQuery },
      responses: { 200: { description: "The user", ...scimContent(ScimUserSchema) }, ...writeErrors },
    }),
    async (c) => {
      const row = await readUser(c.env.DB, c.get("scimCaller").tenantId, idOf(c, "user"));
      return scimJson(c, projected(c, presentUser(row, baseOf(c))), 200);
    },
  ],
  [
    route("put", "/Users/{id}", "Replace a user's attributes", {
      description: "The attributes sent replace the user's; ones left out are cleared, read-only ones kept.",
      request: { params: IdParams, body: bodyOf("ScimUserInput") },
      responses: { 200: { description: "The user", ...scimContent(ScimUserSchema) }, ...writeErrors },
    }),
    async (c) => {
      const id = idOf(c, "user");
      const input = validUser(await readBody(c));
      const row = await rewriteUser(c, id, (current) => columnsOf(input, current.active === 1));
      return scimJson(c, presentUser(row, baseOf(c)), 200);
    },
  ],
  [
    route("patch", "/Users/{id}", "Change a user with a PatchOp", {
      description:
        "Add, replace or remove attributes by path (RFC 7644 3.5.2); active false deprovisions: quotes and orders refuse the user as a requester at once.",
      request: { params: IdParams, body: bodyOf("ScimPatchOp") },
      responses: { 200: { description: "The user", ...scimContent(ScimUserSchema) }, ...writeErrors },
    }),
    async (c) => {
      const id = idOf(c, "user");
      const operations = operationsOf(await readBody(c));
      // Applied to the user as read, each attempt: a concurrent change is never undone.
      const row = await rewriteUser(c, id, (current) =>
        columnsOf(validUser(applyPatch(presentUser(current, baseOf(c)), operations, USER_TYPE)), current.active === 1),
      );
      return scimJson(c, presentUser(row, baseOf(c)), 200);
    },
  ],
  [
    route("delete", "/Users/{id}", "Delete a user (kept only for the orders that name it)", {
      description:
        "The user is a 404 from then on and loses its group memberships; its userName is free for a new user. A DELETE sent again " +
        "answers 503 with Retry-After while the first one's removal is still reaching the tenant's data: retry it.",
      request: { params: IdParams },
      responses: { 204: { description: "Deleted" }, ...writeErrors },
    }),
    async (c) => {
      const id = idOf(c, "user");
      await deleteOrStillOwed(c, "users", id, () => deleteUser(c.env.DB, actorOf(c), id));
      return scimNoContent(c);
    },
  ],
  [
    route("get", "/Groups", "The tenant's groups (facility access), filtered and paged", {
      description: "A SCIM filter (displayName eq ...) finds a group; excludedAttributes=members skips the member lists.",
      request: { query: GroupListQuery },
      responses: { 200: { description: "A page", ...scimContent(listSchema("ScimGroupList", ScimGroupSchema)) }, ...scimErrorResponses },
    }),
    async (c) => {
      const { rows, total, startIndex } = await listPage<GroupRow>(c, "scim_groups", GROUP_FILTER_COLUMNS, "");
      return scimJson(c, listResponse(await presentGroups(c, rows), total, startIndex), 200);
    },
  ],
  [
    route("post", "/Groups", "Create a group", {
      description:
        "It grants the facility its displayName names. Its members may order for that facility: the tenant's facility whose externalId, else GLN, else name equals the displayName.",
      request: { body: bodyOf("ScimGroupInput") },
      responses: { 201: { description: "Created", ...scimContent(ScimGroupSchema) }, ...writeErrors },
    }),
    async (c) => {
      const row = await createGroup(c.env.DB, actorOf(c), validGroup(await readBody(c)));
      const [group] = await presentGroups(c, [row]);
      return scimJson(c, group, 201, { Location: `${baseOf(c)}/Groups/${row.id}` });
    },
  ],
  [
    route("get", "/Groups/{id}", "One group", {
      description: "Its displayName and members. Another tenant's group is a 404.",
      request: { params: IdParams, query: GetQuery },
      responses: { 200: { description: "The group", ...scimContent(ScimGroupSchema) }, ...writeErrors },
    }),
    async (c) => {
      const [group] = await presentGroups(c, [await readGroup(c.env.DB, c.get("scimCaller").tenantId, idOf(c, "group"))]);
      return scimJson(c, group, 200);
    },
  ],
  [
    route("put", "/Groups/{id}", "Replace a group (its whole member list included)", {
      description: "Members left out lose the facility access the group grants; a new displayName may name another facility.",
      request: { params: IdParams, body: bodyOf("ScimGroupInput") },
      responses: { 200: { description: "The group", ...scimContent(ScimGroupSchema) }, ...writeErrors },
    }),
    async (c) => {
      const row = await replaceGroup(c.env.DB, actorOf(c), idOf(c, "group"), validGroup(await readBody(c)));
      const [group] = await presentGroups(c, [row]);
      return scimJson(c, group, 200);
    },
  ],
  [
    route("patch", "/Groups/{id}", "Change a group with a PatchOp", {
      description:
        "Rename it, add, remove or replace members. The form Entra ID and Okta send for membership changes: add or remove members one by one without sending the whole list.",
      request: { params: IdParams, body: bodyOf("ScimPatchOp") },
      responses: { 200: { description: "The group", ...scimContent(ScimGroupSchema) }, ...writeErrors },
    }),
    async (c) => {
      const row = await patchGroup(c.env.DB, actorOf(c), idOf(c, "group"), operationsOf(await readBody(c)), baseOf(c));
      const [group] = await presentGroups(c, [row]);
      return scimJson(c, group, 200);
    },
  ],
  [
    route("delete", "/Groups/{id}", "Delete a group", {
      description: "Its members lose the facility it granted. Their access through other groups stays.",
      request: { params: IdParams },
      responses: { 204: { description: "Deleted" }, ...writeErrors },
    }),
    async (c) => {
      const id = idOf(c, "group");
      await deleteOrStillOwed(c, "scim_groups", id, () => deleteGroup(c.env.DB, actorOf(c), id));
      return scimNoContent(c);
    },
  ],
];

for (const [definition, handler] of handlers) {
  scimRoutes.openapi(definition, handler as never);
}
