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

/**
 * Price tiers (the operator plane, /admin/api): tiers of buyer tenants, such as a group purchasing organisation's,
 * that vendors' price agreements can name (scope tier). The onboarding issue folds these into its admin API.
 */
const TAG = "Price tiers";

const TierSchema = z
  .object({
    tierId: z.number().int(),
    name: z.string(),
    tenantIds: z.array(z.number().int()).openapi({ description: "The buyer tenants in the tier" }),
    createdAt: z.string().datetime(),
  })
  .openapi("PriceTier");

const MembershipParams = z.object({
  tierId: integerPathParam("tierId", 1, 2_147_483_647),
  tenantId: integerPathParam("tenantId", 1, 2_147_483_647),
});

const createTierRoute = createRoute({
  method: "post",
  path: "/tiers",
  tags: [TAG],
  summary: "Create a price tier",
  description: "A named group of buyer tenants; vendors' price agreements of scope tier then price every tenant the operator puts in it.",
  ...operatorScopedAccess("tiers:write"),
  request: {
    body: {
      content: {
        "application/json": {
          schema: closedObject({
            name: z
              .string()
              .max(100)
              .regex(/\S/, "Must contain a non-space character.")
              .trim()
              .openapi({ description: "Unique, ignoring case; spaces around it are dropped", example: "Premier GPO Tier 1" }),
          }).openapi("PriceTierInput"),
        },
      },
      required: true,
    },
  },
  responses: {
    201: { description: "The tier", content: { "application/json": { schema: envelopeSchema(TierSchema) } } },
    ...authenticatedErrorResponses,
    409: problem("A tier of that name exists (ignoring case)"),
  },
});

const listTiersRoute = createRoute({
  method: "get",
  path: "/tiers",
  tags: [TAG],
  summary: "The price tiers with their tenants",
  description: "Every tier with the ids of its tenants, for checking which tenants a tier agreement prices.",
  ...operatorScopedAccess("tiers:write"),
  responses: {
    200: {
      description: "Every tier",
      content: { "application/json": { schema: envelopeSchema(z.object({ tiers: z.array(TierSchema) })) } },
    },
    ...authenticatedErrorResponses,
  },
});

const membershipRoute = (method: "put" | "delete", summary: string) =>
  createRoute({
    method,
    path: "/tiers/{tierId}/tenants/{tenantId}",
    tags: [TAG],
    summary,
    description: "204 also when it already was so; 404 for an unknown tier or tenant.",
    ...operatorScopedAccess("tiers:write"),
    request: { params: MembershipParams },
    responses: { 204: { description: "Done" }, ...authenticatedErrorResponses, ...notFoundResponse },
  });

const TIER_SELECT =
  "SELECT t.id, t.name, t.created_at, (SELECT json_group_array(m.tenant_id) FROM (SELECT tenant_id FROM tenant_price_tiers WHERE tier_id = t.id ORDER BY tenant_id) m) AS tenants FROM price_tiers t";

interface TierRow {
  id: number;
  name: string;
  created_at: string;
  tenants: string;
}

const presentTier = (row: TierRow) => ({
  tierId: row.id,
  name: row.name,
  tenantIds: JSON.parse(row.tenants) as number[],
  createdAt: row.created_at,
});

/** Both exist: the tier and the tenant; else the 404 names which is missing. */
async function requireTierAndTenant(db: D1Database, tierId: number, tenantId: number): Promise<void> {
  const row = await db
    .prepare("SELECT (SELECT count(*) FROM price_tiers WHERE id = ?1) AS tier, (SELECT count(*) FROM tenants WHERE id = ?2) AS tenant")
    .bind(tierId, tenantId)
    .first<{ tier: number; tenant: number }>();
  if (!row?.tier) throw notFound(`No price tier ${tierId}.`);
  if (!row.tenant) throw notFound(`No tenant ${tenantId}.`);
}

/** Who changes a tier, and which (null: the one the change inserts). Audited with the change (src/operator/onboarding/audit.ts). */
const tierEntry = (c: Context<AppEnv>, action: string, tierId: number | null) => ({
  actor: c.get("operatorPrincipal").clientId,
  action,
  targetType: "price_tier",
  targetId: tierId === null ? null : String(tierId),
});

export const tierRoutes = createRouter()
  .openapi(createTierRoute, async (c) => {
    const { name } = c.req.valid("json");
    const at = new Date().toISOString();
    const [inserted] = await c.env.DB.batch([
      c.env.DB.prepare(
        `INSERT INTO price_tiers (name, created_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING RETURNING id, name, created_at, '[]' AS tenants`,
      ).bind(name, at),
      auditStatement(c.env.DB, { ...tierEntry(c, "tier.created", null), before: null, after: { name } }, at),
    ]);
    const row = inserted!.results[0] as TierRow | undefined;
    if (!row)
      throw new ProblemError(409, "tier-exists", "Tier exists", "A price tier of that name exists (names are unique ignoring case).");
    c.header("Location", `${new URL(c.req.url).pathname}/${row.id}`);
    return c.json(envelope(c, presentTier(row)), 201);
  })
  .openapi(listTiersRoute, async (c) => {
    const { results } = await c.env.DB.prepare(`${TIER_SELECT} ORDER BY t.id`).all<TierRow>();
    return c.json(envelope(c, { tiers: results.map(presentTier) }), 200);
  })
  .openapi(membershipRoute("put", "Put a tenant in a tier"), async (c) => {
    const { tierId, tenantId } = c.req.valid("param");
    await requireTierAndTenant(c.env.DB, tierId, tenantId);
    const at = new Date().toISOString();
    await c.env.DB.batch([
      c.env.DB.prepare("INSERT INTO tenant_price_tiers (tenant_id, tier_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING").bind(tenantId, tierId),
      auditStatement(c.env.DB, { ...tierEntry(c, "tier.tenant.added", tierId), before: null, after: { tenantId } }, at),
    ]);
    return c.body(null, 204);
  })
  .openapi(membershipRoute("delete", "Take a tenant out of a tier"), async (c) => {
    const { tierId, tenantId } = c.req.valid("param");
    await requireTierAndTenant(c.env.DB, tierId, tenantId);
    const at = new Date().toISOString();
    await c.env.DB.batch([
      c.env.DB.prepare("DELETE FROM tenant_price_tiers WHERE tenant_id = ?1 AND tier_id = ?2").bind(tenantId, tierId),
      auditStatement(c.env.DB, { ...tierEntry(c, "tier.tenant.removed", tierId), before: { tenantId }, after: null }, at),
    ]);
    return c.body(null, 204);
  });
