import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { errorMessage, notFound, ProblemError, unprocessable } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { ONBOARDING_TAG } from "../../platform/openapi/info";
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
import { operatorScopedAccess } from "../../shared/auth/bearer";
import { gtinCheckDigit } from "../../shared/catalog/gtin";
import { tenantStore } from "../../shared/tenants/stub";
import { remapGroupsStatement } from "../../shared/users/group-facilities";
import { auditStatement } from "./audit";
import { PAGE_QUERY } from "./client-routes";

/**
 * Buyer tenants (health systems) and vendors as the operator onboards them (docs/api.md, "Onboarding"): created
 * idempotently by the operator's `externalId` (the same externalId again answers the one there: 200 when the fields
 * agree, 409 naming the fields that differ), read, listed, renamed (PATCH); each change commits with its audit entry.
 * One definition serves both (`organizationRoutes`).
 */

/** A field of a resource: its column and its schema. */
interface FieldSpec {
  column: string;
  schema: z.ZodTypeAny;
  /** The table this field's id must name (422 otherwise); a parent is set at creation and never changed. */
  parent?: "tenants" | "companies";
  /** May be absent (null). */
  optional?: true;
}

export interface OrganizationSpec {
  /** The audit target type and the words of messages, e.g. tenant. */
  kind: "tenant" | "vendor" | "company" | "facility" | "address";
  table: "tenants" | "vendors" | "companies" | "facilities" | "addresses";
  path: string;
  idParam: string;
  schemaName: string;
  /** A row of the demo data, the documented example of the path's id. */
  exampleId: number;
  fields: Record<string, FieldSpec>;
  /** Statements to commit with a create or an update, after it (e.g. SCIM groups naming a facility find it). */
  alsoOnWrite?: (db: D1Database, written: { id: number } | { input: Record<string, unknown> }) => D1PreparedStatement[];
  /** Statements to commit with a create only (the new row found by its externalId), and work once it has committed. */
  onCreate?: {
    statements: (db: D1Database, input: Record<string, unknown>, at: string) => D1PreparedStatement[];
    after?: (env: AppEnv["Bindings"], created: { id: number }) => Promise<void>;
  };
  /**
   * POST {path}/{id}/disable: sets disabled_at; `effects` commit with it (e.g. the owner's API clients disabled).
   * What a disabled one can no longer do is the kind's rule (docs/api.md, "Onboarding").
   */
  disable?: { effect: string; effects: (db: D1Database, id: number) => D1PreparedStatement[] };
}

const text = (max: number, example: string) =>
  z.string().max(max).regex(/\S/, "Must contain a non-space character.").trim().openapi({ example });

export const EXTERNAL_ID = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/, "1-100 letters, digits and . _ : / -, starting with a letter or digit.")
  .openapi({
    description: "The operator's own id for it: creating it again with the same externalId answers the one there",
    example: "HS-0042",
  });

const article = (kind: string) => (/^[aeiou]/.test(kind) ? "an" : "a");

type Row = Record<string, unknown> & { id: number; external_id: string | null; created_at: string | null; disabled_at?: string | null };

function routesOf(spec: OrganizationSpec) {
  const access = operatorScopedAccess("clients:manage");
  const fields = Object.entries(spec.fields);
  const fieldSchemas = Object.fromEntries(fields.map(([name, field]) => [name, field.optional ? field.schema.optional() : field.schema]));
  const ResourceSchema = z
    .object({
      [spec.idParam]: z.number().int(),
      externalId: z.string().nullable().openapi({ description: "null for the seed's" }),
      ...Object.fromEntries(fields.map(([name, field]) => [name, field.optional ? field.schema.nullable() : field.schema])),
      createdAt: z.string().datetime().nullable().openapi({ description: "null for the seed's" }),
      ...(spec.disable
        ? {
            disabledAt: z
              .string()
              .datetime()
              .nullable()
              .openapi({ description: `When it was disabled: ${spec.disable.effect}` }),
          }
        : {}),
    })
    .openapi(spec.schemaName);
  const CreateSchema = closedObject({ externalId: EXTERNAL_ID, ...fieldSchemas }).openapi(`Create${spec.schemaName}Request`);
  const changeable = fields.filter(([, field]) => !field.parent);
  const UpdateSchema = closedObject(Object.fromEntries(changeable.map(([name, field]) => [name, field.schema.optional()])))
    .refine((body) => Object.keys(body).length > 0, "Give at least one field to change.")
    .openapi(`Update${spec.schemaName}Request`, { description: "The fields to change; at least one", minProperties: 1 });
  const IdParams = z.object({ [spec.idParam]: integerPathParam(spec.idParam, spec.exampleId, 2_147_483_647, `A ${spec.kind} id.`) });
  const json = (description: string, schema: z.ZodTypeAny) => ({
    description,
    content: { "application/json": { schema: envelopeSchema(schema) } },
  });
  const body = (schema: z.ZodTypeAny) => ({ body: { required: true, content: { "application/json": { schema } } } });
  const tags = [ONBOARDING_TAG];
  return {
    ResourceSchema,
    create: createRoute({
      method: "post",
      path: spec.path,
      tags,
      summary: `Create ${article(spec.kind)} ${spec.kind}, idempotently by externalId`,
      description: `Safe to retry: the same externalId and fields answer the ${spec.kind} already there (200); the same externalId with other fields is a 409 naming them. Audited.`,
      ...access,
      request: body(CreateSchema),
      responses: {
        201: json("Created", ResourceSchema),
        200: json("Already there with the same fields (the same externalId)", ResourceSchema),
        ...authenticatedErrorResponses,
        409: problem("The externalId names one with other fields (the detail names them; change it with PATCH)"),
        ...(fields.some(([, field]) => field.parent) ? { 422: problem("A parent id names nothing (`errors` names the field)") } : {}),
      },
    }),
    list: createRoute({
      method: "get",
      path: spec.path,
      tags,
      summary: `The ${spec.table}, oldest first`,
      description: `Paged with limit and offset; externalId finds the one the operator's own system knows.`,
      ...access,
      request: {
        query: z.object({
          ...PAGE_QUERY,
          externalId: EXTERNAL_ID.optional().openapi({ description: "Only the one of this externalId" }),
        }),
      },
      responses: { 200: json(`The ${spec.table}`, z.object({ items: z.array(ResourceSchema) })), ...authenticatedErrorResponses },
    }),
    get: createRoute({
      method: "get",
      path: `${spec.path}/{${spec.idParam}}`,
      tags,
      summary: `One ${spec.kind}`,
      description: `With its externalId, its fields and when it was created${spec.disable ? " or disabled" : ""}.`,
      ...access,
      request: { params: IdParams },
      responses: { 200: json(`The ${spec.kind}`, ResourceSchema), ...authenticatedErrorResponses, ...notFoundResponse },
    }),
    disable: createRoute({
      method: "post",
      path: `${spec.path}/{${spec.idParam}}/disable`,
      tags,
      summary: `Disable ${article(spec.kind)} ${spec.kind}`,
      description: `Once it is disabled, ${spec.disable?.effect ?? ""}; disabling it again gives the same answer. There is no enable: a disabled ${spec.kind} stays readable here and in past orders. Audited.`,
      ...access,
      request: { params: IdParams },
      responses: { 200: json(`The ${spec.kind}, disabled`, ResourceSchema), ...authenticatedErrorResponses, ...notFoundResponse },
    }),
    update: createRoute({
      method: "patch",
      path: `${spec.path}/{${spec.idParam}}`,
      tags,
      summary: `Change ${article(spec.kind)} ${spec.kind}'s fields (not its parent)`,
      description: `Changes the fields given; the same values again write nothing. Audited with the ${spec.kind} before and after; a concurrent change first is a 409.`,
      ...access,
      request: { params: IdParams, ...body(UpdateSchema) },
      responses: {
        200: json(`The ${spec.kind}`, ResourceSchema),
        ...authenticatedErrorResponses,
        ...notFoundResponse,
        409: problem("Another change committed between this one's read and its write (nothing written): read it and retry"),
      },
    }),
  };
}

/** The routes of one kind of organization (see OrganizationSpec). */
export function organizationRoutes(spec: OrganizationSpec) {
  const routes = routesOf(spec);
  const names = Object.keys(spec.fields);
  const present = (row: Row) => ({
    [spec.idParam]: row.id,
    externalId: row.external_id,
    ...Object.fromEntries(names.map((name) => [name, row[spec.fields[name]!.column]])),
    createdAt: row.created_at,
    ...(spec.disable ? { disabledAt: row.disabled_at ?? null } : {}),
  });
  const columns = names.map((name) => spec.fields[name]!.column);
  const entry = (c: Context<AppEnv>, action: string, targetId: string | null, before: unknown, after: unknown) => ({
    actor: c.get("operatorPrincipal").clientId,
    action: `${spec.kind}.${action}`,
    targetType: spec.kind,
    targetId,
    before,
    after,
  });
  const read = (db: D1Database, id: number) => db.prepare(`SELECT * FROM ${spec.table} WHERE id = ?`).bind(id).first<Row>();
  const readOr404 = async (db: D1Database, id: number) => {
    const row = await read(db, id);
    if (!row) throw notFound(`No ${spec.kind} ${id}.`);
    return row;
  };
  const idOf = (params: Record<string, unknown>) => params[spec.idParam] as number;

  const router = createRouter()
    .openapi(routes.create, async (c) => {
      const input = c.req.valid("json") as Record<string, string | number | undefined>;
      const at = new Date().toISOString();
      const values = names.map((name) => input[name] ?? null);
      const parents = names.filter((name) => spec.fields[name]!.parent);
      if (parents.length > 0) {
        const found = await c.env.DB.batch(
          parents.map((name) => c.env.DB.prepare(`SELECT 1 AS found FROM ${spec.fields[name]!.parent} WHERE id = ?`).bind(input[name]!)),
        );
        const missing = parents.filter((_, i) => found[i]!.results.length === 0);
        if (missing.length > 0) throw unprocessable(missing.map((name) => `${name}: nothing has id ${input[name]}.`));
      }
      const [inserted] = await c.env.DB.batch([
        c.env.DB.prepare(
          `INSERT INTO ${spec.table} (external_id, ${columns.join(", ")}, created_at) VALUES (${["?1", ...values.map((_, i) => `?${i + 2}`), `?${values.length + 2}`].join(", ")}) ` +
            "ON CONFLICT (external_id) WHERE external_id IS NOT NULL DO NOTHING RETURNING *",
        ).bind(input.externalId!, ...values, at),
        auditStatement(
          c.env.DB,
          entry(c, "created", null, null, { externalId: input.externalId, ...Object.fromEntries(names.map((n) => [n, input[n]])) }),
          at,
        ),
        ...(spec.alsoOnWrite?.(c.env.DB, { input }) ?? []),
        ...(spec.onCreate?.statements(c.env.DB, input, at) ?? []),
      ]);
      const created = (inserted!.results as Row[])[0];
      if (created) {
        await spec.onCreate?.after?.(c.env, { id: created.id as number });
        c.header("Location", `${new URL(c.req.url).pathname}/${created.id}`);
        return c.json(envelope(c, present(created)), 201);
      }
      const existing = await c.env.DB.prepare(`SELECT * FROM ${spec.table} WHERE external_id = ?`)
        .bind(input.externalId as string)
        .first<Row>();
      const differing = names.filter((name) => existing?.[spec.fields[name]!.column] !== (input[name] ?? null));
      if (!existing || differing.length > 0) {
        throw new ProblemError(
          409,
          "conflict",
          "Conflict",
          `${spec.kind} ${existing?.id} has externalId ${input.externalId} with another ${differing.join(", ")}: change it with PATCH.`,
        );
      }
      return c.json(envelope(c, present(existing)), 200);
    })
    .openapi(routes.list, async (c) => {
      const { limit, offset, externalId } = c.req.valid("query") as { limit?: number; offset?: number; externalId?: string };
      const { results } = await c.env.DB.prepare(
        // Ids below 0 are tenants' sandbox twins (src/platform/test-mode.ts): the sandbox's, not the operator's.
        `SELECT * FROM ${spec.table} WHERE id > 0 AND (?1 IS NULL OR external_id = ?1) ORDER BY id LIMIT ?2 OFFSET ?3`,
      )
        .bind(externalId ?? null, limit ?? 20, offset ?? 0)
        .all<Row>();
      return c.json(envelope(c, { items: results.map(present) }), 200);
    })
    .openapi(routes.get, async (c) => c.json(envelope(c, present(await readOr404(c.env.DB, idOf(c.req.valid("param"))))), 200))
    .openapi(routes.update, async (c) => {
      const id = idOf(c.req.valid("param"));
      const changes = c.req.valid("json") as Record<string, string | number | undefined>;
      const before = await readOr404(c.env.DB, id);
      const given = names.filter((name) => changes[name] !== undefined);
      const after = { ...before, ...Object.fromEntries(given.map((name) => [spec.fields[name]!.column, changes[name]])) } as Row;
      const at = new Date().toISOString();
      // Conditional on the row as read, so that the audit's "before" is what the change replaced.
      const same = columns.map((column, i) => `${column} IS ?${i + 2 + given.length}`).join(" AND ");
      const [updated] = await c.env.DB.batch([
        c.env.DB.prepare(
          `UPDATE ${spec.table} SET ${given.map((name, i) => `${spec.fields[name]!.column} = ?${i + 2}`).join(", ")} WHERE id = ?1 AND ${same} ` +
            `AND (${given.map((name, i) => `${spec.fields[name]!.column} IS NOT ?${i + 2}`).join(" OR ")})`,
        ).bind(id, ...given.map((name) => changes[name]!), ...columns.map((column) => before[column])),
        auditStatement(c.env.DB, entry(c, "updated", String(id), present(before), present(after)), at),
        ...(spec.alsoOnWrite?.(c.env.DB, { id }) ?? []),
      ]);
      const current = await readOr404(c.env.DB, id);
      // Nothing written: either nothing to change, or another change came first (then say so, rather than drop this one).
      if (updated!.meta.changes === 0 && given.some((name) => current[spec.fields[name]!.column] !== changes[name])) {
        throw new ProblemError(409, "conflict", "Conflict", `The ${spec.kind} changed meanwhile; read it and retry.`);
      }
      return c.json(envelope(c, present(current)), 200);
    });
  if (!spec.disable) return router;
  const { effects } = spec.disable;
  return router.openapi(routes.disable, async (c) => {
    const id = idOf(c.req.valid("param"));
    const before = await readOr404(c.env.DB, id);
    if (before.disabled_at) return c.json(envelope(c, present(before)), 200);
    const at = new Date().toISOString();
    await c.env.DB.batch([
      c.env.DB.prepare(`UPDATE ${spec.table} SET disabled_at = ?2 WHERE id = ?1 AND disabled_at IS NULL`).bind(id, at),
      auditStatement(c.env.DB, entry(c, "disabled", String(id), present(before), { ...present(before), disabledAt: at }), at),
      ...effects(c.env.DB, id),
    ]);
    return c.json(envelope(c, present(await readOr404(c.env.DB, id))), 200);
  });
}

export const TENANTS: OrganizationSpec = {
  kind: "tenant",
  table: "tenants",
  path: "/tenants",
  idParam: "tenantId",
  schemaName: "Tenant",
  exampleId: 1,
  fields: { name: { column: "name", schema: text(200, "Riverside Health System") } },
  // A new tenant lives in its stores from the start (docs/tenant-stores.md): nothing to move, so it is 'store' at once,
  // and its store publishes its lines to the vendors' projections from its first order.
  onCreate: {
    statements: (db, input, at) => [
      db
        .prepare(
          // Only the tenant this batch created (its created_at), never one an earlier request made under the externalId.
          "INSERT INTO tenant_stores (tenant_id, state, started_at, finished_at) SELECT id, 'store', ?2, ?2 FROM tenants " +
            "WHERE external_id = ?1 AND created_at = ?2 ON CONFLICT (tenant_id) DO NOTHING",
        )
        .bind(input.externalId as string, at),
    ],
    // Should it fail, the vendors' reconciliation sweep starts it (src/api/vendors/projection/reconcile.ts).
    after: (env, { id }) =>
      tenantStore(env, id)
        .startPublishing()
        .then(
          () => undefined,
          (error: unknown) => logEvent("warn", { event: "tenant.store.publishing", tenantId: id, message: errorMessage(error) }),
        ),
  },
  disable: {
    effect: "its API clients and SCIM tokens are refused",
    effects: (db, id) => [db.prepare("UPDATE api_clients SET enabled = 0 WHERE tenant_id = ?").bind(id)],
  },
};

export const VENDORS: OrganizationSpec = {
  kind: "vendor",
  table: "vendors",
  path: "/vendors",
  idParam: "vendorId",
  schemaName: "Vendor",
  exampleId: 4,
  fields: {
    name: { column: "name", schema: text(200, "Northwind Medical Supply") },
    returnPolicy: { column: "return_policy", schema: text(500, "Returns within 30 days, unopened") },
  },
  disable: {
    effect: "its API clients are refused and its offers no longer quoted",
    effects: (db, id) => [db.prepare("UPDATE api_clients SET enabled = 0 WHERE vendor_id = ?").bind(id)],
  },
};

const parentId = (parent: "tenants" | "companies", description: string) => ({
  column: parent === "tenants" ? "tenant_id" : "company_id",
  schema: z.number().int().positive().max(2_147_483_647).openapi({ description }),
  parent,
});

/** A GS1 Global Location Number: 13 digits, the last a GS1 check digit. */
const GLN = z
  .string()
  .regex(/^\d{13}$/, "A GLN is 13 digits.")
  .refine((gln) => gtinCheckDigit(gln.slice(0, 12)) === Number(gln[12]), "Not a GLN: its check digit is wrong.")
  .openapi({ description: "The facility's GS1 Global Location Number (13 digits, check digit verified)", example: "0614141000036" });

export const COMPANIES: OrganizationSpec = {
  kind: "company",
  table: "companies",
  path: "/companies",
  idParam: "companyId",
  schemaName: "OrganizationCompany",
  exampleId: 101,
  fields: {
    tenantId: parentId("tenants", "The buyer tenant (health system) it belongs to; set at creation"),
    name: { column: "name", schema: text(200, "Riverside Regional Medical Center") },
  },
  disable: { effect: "nobody may order for its facilities, and lookup no longer lists it", effects: () => [] },
};

export const FACILITIES: OrganizationSpec = {
  kind: "facility",
  table: "facilities",
  path: "/facilities",
  idParam: "facilityId",
  schemaName: "OrganizationFacility",
  exampleId: 1001,
  fields: {
    companyId: parentId("companies", "The company it belongs to; set at creation"),
    name: { column: "name", schema: text(200, "Riverside Main Campus") },
    gln: { column: "gln", schema: GLN, optional: true },
  },
  // A SCIM group grants the facility its displayName names (externalId, GLN or name): a new or renamed one is found.
  alsoOnWrite: (db, written) => [
    remapGroupsStatement(
      db,
      "id" in written
        ? { facilityId: written.id }
        : {
            companyId: written.input.companyId as number,
            names: [written.input.externalId, written.input.gln, written.input.name].map((name) =>
              typeof name === "string" ? name : null,
            ),
          },
    ),
  ],
  // A disabled facility is granted by no group: groups naming it fall back to another of that name, or to none.
  disable: { effect: "nobody may order for it or be quoted for it", effects: (db, id) => [remapGroupsStatement(db, { facilityId: id })] },
};

export const ADDRESSES: OrganizationSpec = {
  kind: "address",
  table: "addresses",
  path: "/addresses",
  idParam: "addressId",
  schemaName: "OrganizationAddress",
  exampleId: 11,
  fields: {
    companyId: parentId("companies", "The company whose address it is (orders ship to and bill its addresses); set at creation"),
    kind: { column: "kind", schema: z.enum(["shipping", "billing"]).openapi({ description: "shipping or billing" }) },
    attentionTo: { column: "attention_to", schema: text(200, "Biomed Dept."), optional: true },
    line1: { column: "line1", schema: text(200, "100 River Rd") },
    city: { column: "city", schema: text(100, "Riverside") },
    state: { column: "state", schema: text(100, "CA") },
    zip: { column: "zip", schema: text(20, "92501") },
    country: {
      column: "country",
      schema: z
        .string()
        .regex(/^[A-Z]{2}$/, "An ISO 3166-1 alpha-2 code, e.g. US.")
        .openapi({ example: "US" }),
    },
  },
  disable: { effect: "no order ships or bills to it, and lookup no longer lists it", effects: () => [] },
};

export const tenantRoutes = organizationRoutes(TENANTS);
export const vendorOrganizationRoutes = organizationRoutes(VENDORS);
export const companyRoutes = organizationRoutes(COMPANIES);
export const facilityRoutes = organizationRoutes(FACILITIES);
export const addressRoutes = organizationRoutes(ADDRESSES);
