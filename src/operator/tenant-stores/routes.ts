import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { notFound, ProblemError } from "../../platform/errors";
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
import { auditStatement } from "../onboarding/audit";
import type { MoveBindings } from "./bindings";
import { finishMove, type RegistryRow, readRegistry, startMoveStatement, type Verification } from "./registry";
import { nudgeMove } from "./sweep";

/**
 * Moving a deployment into tenant stores (the operator plane, /admin/api; docs/tenant-stores.md): start a tenant's move,
 * follow it. `npm run migrate:tenant-stores` drives these for every tenant.
 */
const TAG = "Tenant stores";

const TableCheckSchema = z.object({
  table: z.string(),
  database: z.object({ rows: z.number().int(), digest: z.string() }),
  store: z.object({ rows: z.number().int(), digest: z.string() }),
  equal: z.boolean(),
});

const TenantStoreSchema = z
  .object({
    tenantId: z.number().int(),
    state: z.enum(["database", "copying", "copied", "store"]).openapi({
      description:
        "database: served from the control database; copying: a move is under way and the tenant's data is read-only " +
        "(writes answer 503 with Retry-After); copied: the tenant's stores hold a copy verified equal when the move ended; " +
        "store: the tenant is served from its stores",
    }),
    moveId: z.string().nullable(),
    startedAt: z.string().datetime().nullable(),
    finishedAt: z.string().datetime().nullable(),
    totalRows: z.number().int().nullable().openapi({ description: "The tenant's rows in the control database when the move began" }),
    copiedRows: z.number().int().nullable().openapi({ description: "How many of them its stores hold so far" }),
    switch: z.boolean().openapi({ description: "Whether the move under way or last made switches the tenant to its stores once verified" }),
    verification: z
      .object({
        equal: z.boolean(),
        stores: z
          .array(
            z.object({
              tenantId: z.number().int(),
              bytes: z.number().int().openapi({ description: "The store's size after the copy (a store holds up to 10 GB)" }),
              tables: z.array(TableCheckSchema),
            }),
          )
          .optional(),
        error: z.string().optional(),
      })
      .nullable()
      .openapi({ description: "When the move ended: per store and table, both sides' row counts and SHA-256 content digests" }),
  })
  .openapi("TenantStore");

const MoveRequestSchema = closedObject({
  switch: z
    .boolean()
    .default(false)
    .openapi({ description: "Switch the tenant to its stores once its copy is verified equal (default false: end as copied)" }),
}).openapi("TenantStoreMoveRequest");

const Params = z.object({ tenantId: integerPathParam("tenantId", 1, 2_147_483_647) });
const access = operatorScopedAccess("clients:manage");

const storeRoute = createRoute({
  method: "get",
  path: "/tenants/{tenantId}/store",
  tags: [TAG],
  summary: "Where a tenant's data lives, and its move",
  description: "The tenant's entry in the tenant registry: its state, the move under way or last made, and that move's verification.",
  ...access,
  request: { params: Params },
  responses: {
    200: { description: "The tenant's entry", content: { "application/json": { schema: envelopeSchema(TenantStoreSchema) } } },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

const moveRoute = createRoute({
  method: "post",
  path: "/tenants/{tenantId}/store-move",
  tags: [TAG],
  summary: "Move a tenant's data into its stores",
  description:
    "Starts the move (a Workflow): the tenant's data becomes read-only at once, its store and its sandbox twin's are " +
    "emptied, copied page by page and read back; the move ends the read-only window, as copied when every table's rows " +
    "and digests match, else back on the database. With `switch: true`, a move verified equal ends with the tenant " +
    "served from its stores (state store) without leaving its read-only window, and its stores start publishing its lines " +
    "to the vendors' projections; there is no way back. Asked while a move is under way, it resumes that move and answers " +
    "it; asked after a move ended, it copies again from nothing.",
  ...access,
  request: {
    params: Params,
    body: { required: false, content: { "application/json": { schema: MoveRequestSchema } } },
  },
  responses: {
    202: {
      description: "The move started; follow it at the Location",
      content: { "application/json": { schema: envelopeSchema(TenantStoreSchema) } },
    },
    ...authenticatedErrorResponses,
    ...notFoundResponse,
    409: problem("The tenant is served from its stores already"),
  },
});

const present = (row: RegistryRow) => ({
  tenantId: row.tenant_id,
  state: row.state,
  moveId: row.move_id,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  totalRows: row.total_rows,
  copiedRows: row.copied_rows,
  switch: row.switch_after === 1,
  verification: row.verification === null ? null : (JSON.parse(row.verification) as Verification),
});

async function requireTenant(db: D1Database, tenantId: number): Promise<void> {
  if (!(await db.prepare("SELECT 1 AS found FROM tenants WHERE id = ?1").bind(tenantId).first("found")))
    throw notFound(`No tenant ${tenantId}.`);
}

const storeLocation = (c: Context<AppEnv>) => new URL(c.req.url).pathname.replace(/store-move$/, "store");

const moves = (c: Context<AppEnv>) => (c.env as unknown as MoveBindings).TENANT_STORE_MOVES;

export const tenantStoreRoutes = createRouter()
  .openapi(storeRoute, async (c) => {
    const { tenantId } = c.req.valid("param");
    const [, row] = await Promise.all([requireTenant(c.env.DB, tenantId), readRegistry(c.env.DB, tenantId)]);
    const entry = row ?? {
      tenant_id: tenantId,
      state: "database" as const,
      move_id: null,
      started_at: null,
      finished_at: null,
      total_rows: null,
      copied_rows: null,
      verification: null,
      switch_after: 0,
    };
    return c.json(envelope(c, present(entry)), 200);
  })
  .openapi(moveRoute, async (c) => {
    const { tenantId } = c.req.valid("param");
    const switchAfter = (c.req.valid("json") as { switch?: boolean } | undefined)?.switch ?? false;
    await requireTenant(c.env.DB, tenantId);
    const moveId = `move_${crypto.randomUUID()}`;
    const at = new Date().toISOString();
    const [started] = await c.env.DB.batch([
      startMoveStatement(c.env.DB, tenantId, moveId, at, switchAfter),
      auditStatement(
        c.env.DB,
        {
          actor: c.get("operatorPrincipal").clientId,
          action: "tenant.store.move",
          targetType: "tenant",
          targetId: String(tenantId),
          before: null,
          after: { moveId, switch: switchAfter },
        },
        at,
      ),
    ]);
    const row = started!.results[0] as RegistryRow | undefined;
    if (!row) {
      const underWay = await readRegistry(c.env.DB, tenantId);
      if (underWay?.state === "store")
        throw new ProblemError(
          409,
          "tenant-in-store",
          "Tenant lives in its store",
          `Tenant ${tenantId} is served from its stores: there is nothing to move.`,
        );
      // A move is under way: asking again resumes it (after a restart, say) and answers it.
      if (underWay) await nudgeMove({ DB: c.env.DB, TENANT_STORE_MOVES: moves(c) }, underWay);
      c.header("Location", storeLocation(c));
      return c.json(envelope(c, present((await readRegistry(c.env.DB, tenantId)) ?? underWay!)), 202);
    }
    try {
      await moves(c).create({ id: moveId, params: { tenantId, switchAfter } });
    } catch (error) {
      // No Workflow will end the window: end it here, on the database.
      await finishMove(c.env.DB, tenantId, moveId, { equal: false, error: "the move could not be started" }, new Date().toISOString());
      throw error;
    }
    c.header("Location", storeLocation(c));
    return c.json(envelope(c, present(row)), 202);
  });
