import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { inBackground } from "../../platform/background";
import { notFound, unprocessable } from "../../platform/errors";
import { ONBOARDING_TAG } from "../../platform/openapi/info";
import { limitScimToken } from "../../platform/ratelimit/middleware";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeResponse,
  integerPathParam,
  notFoundResponse,
  problem,
} from "../../platform/schemas";
import { sha256Hex } from "../../platform/sha256";
import { operatorScopedAccess } from "../../shared/auth/bearer";
import { randomToken } from "../../shared/auth/secrets";
import { auditStatement } from "../onboarding/audit";
import { ScimError } from "./errors";

/**
 * A tenant's SCIM bearer tokens (docs/api.md, "SCIM"): the operator issues them through /admin/api (shown once), the
 * tenant's identity provider sends one as `Authorization: Bearer <token>` to /scim/v2. A tenant may hold several
 * (rotation: issue the new one, switch the identity provider, revoke the old one). Tokens are 256 random bits, so a
 * SHA-256 of each is all that is kept (no slow hash needed: nothing to guess); a revoked token, or any token of a
 * disabled tenant, is refused at once.
 */

const TOKEN_PREFIX = "mpscim_";
const TOKEN_PATTERN = /^mpscim_[A-Za-z0-9_-]{43}$/;

export interface ScimCaller {
  tenantId: number;
  tokenId: number;
}

declare module "hono" {
  interface ContextVariableMap {
    scimCaller: ScimCaller;
  }
}

const unauthorized = (detail: string) => new ScimError(401, detail, undefined, { "WWW-Authenticate": 'Bearer realm="medparts-scim"' });

/** /scim/v2's authentication: a live SCIM token of an enabled tenant; its bucket limits the rate. */
export const requireScimToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const match = /^Bearer +(\S+)$/i.exec(c.req.header("Authorization") ?? "");
  if (!match) throw unauthorized("A SCIM token is required: send Authorization: Bearer <token>.");
  if (!TOKEN_PATTERN.test(match[1]!)) throw unauthorized("This is not a SCIM token.");
  const row = await c.env.DB.prepare(
    "SELECT s.id, s.tenant_id, s.last_used_at FROM scim_tokens s JOIN tenants t ON t.id = s.tenant_id " +
      "WHERE s.token_hash = ? AND s.revoked_at IS NULL AND t.disabled_at IS NULL",
  )
    .bind(await sha256Hex(match[1]!))
    .first<{ id: number; tenant_id: number; last_used_at: string | null }>();
  if (!row) throw unauthorized("The SCIM token is unknown or revoked, or its tenant is disabled.");
  const now = new Date();
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 3_600_000) {
    inBackground(c, c.env.DB.prepare("UPDATE scim_tokens SET last_used_at = ? WHERE id = ?").bind(now.toISOString(), row.id).run());
  }
  c.set("scimCaller", { tenantId: row.tenant_id, tokenId: row.id });
  await limitScimToken(c, row.id, next);
};

const ScimTokenSchema = z
  .object({
    tokenId: z.number().int(),
    tenantId: z.number().int(),
    name: z.string(),
    createdAt: z.string().datetime(),
    lastUsedAt: z.string().datetime().nullable().openapi({ description: "When the identity provider last used it (hourly resolution)" }),
    revokedAt: z.string().datetime().nullable(),
  })
  .openapi("ScimToken");

const IssuedScimTokenSchema = z
  .object({
    scimToken: ScimTokenSchema,
    token: z.string().openapi({ description: "The bearer token for the identity provider: shown once, stored only as a hash" }),
    scimBaseUrl: z.string().openapi({ description: "The URL the identity provider asks for (Tenant URL, SCIM connector base URL)" }),
  })
  .openapi("IssuedScimToken");

interface TokenRow {
  id: number;
  tenant_id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const present = (row: TokenRow) => ({
  tokenId: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

const access = operatorScopedAccess("clients:manage");
const TenantParams = z.object({ tenantId: integerPathParam("tenantId", 1, 2_147_483_647, "A tenant id.") });
const TokenParams = TenantParams.extend({ tokenId: integerPathParam("tokenId", 1, 2_147_483_647, "A SCIM token id.") });

const issueRoute = createRoute({
  method: "post",
  path: "/tenants/{tenantId}/scim-tokens",
  tags: [ONBOARDING_TAG],
  summary: "Issue a SCIM token",
  description:
    "For the tenant's identity provider; shown once. Give the token to the health system's identity provider (Entra ID, Okta) with the base URL /scim/v2; only its hash is kept, so store it now.",
  ...access,
  request: {
    params: TenantParams,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: closedObject({
            name: z.string().max(100).regex(/\S/, "Must contain a non-space character.").trim().openapi({ example: "Entra ID" }),
          }).openapi("IssueScimTokenRequest"),
        },
      },
    },
  },
  responses: {
    201: envelopeResponse("Issued", IssuedScimTokenSchema),
    ...authenticatedErrorResponses,
    422: problem("No such tenant, or it is disabled (`errors` says which)"),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/tenants/{tenantId}/scim-tokens",
  tags: [ONBOARDING_TAG],
  summary: "List a tenant's SCIM tokens",
  description:
    "Oldest first, never the tokens themselves. Their ids, creation and revocation times: pick the one to revoke when rotating an identity provider's token.",
  ...access,
  request: { params: TenantParams },
  responses: { 200: envelopeResponse("The tokens", z.object({ items: z.array(ScimTokenSchema) })), ...authenticatedErrorResponses },
});

const revokeRoute = createRoute({
  method: "post",
  path: "/tenants/{tenantId}/scim-tokens/{tokenId}/revoke",
  tags: [ONBOARDING_TAG],
  summary: "Revoke a SCIM token",
  description:
    "It is refused from the next request on. Rotate by issuing a new token first, configuring it in the identity provider, then revoking the old one.",
  ...access,
  request: { params: TokenParams },
  responses: {
    200: envelopeResponse("Revoked (again: the same answer)", ScimTokenSchema),
    ...authenticatedErrorResponses,
    ...notFoundResponse,
  },
});

/** A new SCIM token: shown once, only its hash stored. */
export const newScimToken = () => `${TOKEN_PREFIX}${randomToken(32)}`;

/**
 * Issues a token for a tenant (also the demo's, printed by `npm start`, which passes its saved token: issuing it again
 * changes nothing); null when the tenant is unknown or disabled.
 */
export async function issueScimToken(db: D1Database, tenantId: number, name: string, actor: string, token = newScimToken()) {
  const at = new Date().toISOString();
  const hash = await sha256Hex(token);
  const [inserted, , existing] = await db.batch([
    db
      .prepare(
        "INSERT INTO scim_tokens (tenant_id, token_hash, name, created_at) SELECT id, ?2, ?3, ?4 FROM tenants WHERE id = ?1 AND disabled_at IS NULL " +
          "ON CONFLICT (token_hash) DO NOTHING RETURNING *",
      )
      .bind(tenantId, hash, name, at),
    auditStatement(
      db,
      { actor, action: "scim-token.issued", targetType: "scim-token", targetId: null, before: null, after: { tenantId, name } },
      at,
    ),
    db.prepare("SELECT * FROM scim_tokens WHERE token_hash = ? AND tenant_id = ?").bind(hash, tenantId),
  ]);
  const row = (inserted!.results as TokenRow[])[0] ?? (existing!.results as TokenRow[])[0];
  return row ? { token, row: present(row) } : null;
}

export const scimTokenRoutes = createRouter()
  .openapi(issueRoute, async (c) => {
    const { tenantId } = c.req.valid("param") as unknown as { tenantId: number };
    const { name } = c.req.valid("json");
    const issued = await issueScimToken(c.env.DB, tenantId, name, c.get("operatorPrincipal").clientId);
    if (!issued) throw unprocessable([`tenantId: no enabled tenant has id ${tenantId}.`]);
    const scimBaseUrl = `${new URL(c.req.url).origin}/scim/v2`;
    return c.json(envelope(c, { scimToken: issued.row, token: issued.token, scimBaseUrl }), 201);
  })
  .openapi(listRoute, async (c) => {
    const { tenantId } = c.req.valid("param") as unknown as { tenantId: number };
    const { results } = await c.env.DB.prepare("SELECT * FROM scim_tokens WHERE tenant_id = ? ORDER BY id").bind(tenantId).all<TokenRow>();
    return c.json(envelope(c, { items: results.map(present) }), 200);
  })
  .openapi(revokeRoute, async (c) => {
    const { tenantId, tokenId } = c.req.valid("param") as unknown as { tenantId: number; tokenId: number };
    const at = new Date().toISOString();
    const [, , current] = await c.env.DB.batch([
      c.env.DB.prepare("UPDATE scim_tokens SET revoked_at = ?3 WHERE id = ?1 AND tenant_id = ?2 AND revoked_at IS NULL").bind(
        tokenId,
        tenantId,
        at,
      ),
      auditStatement(
        c.env.DB,
        {
          actor: c.get("operatorPrincipal").clientId,
          action: "scim-token.revoked",
          targetType: "scim-token",
          targetId: String(tokenId),
          before: null,
          after: null,
        },
        at,
      ),
      c.env.DB.prepare("SELECT * FROM scim_tokens WHERE id = ? AND tenant_id = ?").bind(tokenId, tenantId),
    ]);
    const row = (current!.results as TokenRow[])[0];
    if (!row) throw notFound(`Tenant ${tenantId} has no SCIM token ${tokenId}.`);
    return c.json(envelope(c, present(row)), 200);
  });
