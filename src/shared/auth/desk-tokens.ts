import type { Bindings } from "../../env";
import { VENDOR_SCOPES, type VendorScope } from "../../platform/principal";
import type { PartnerToken } from "./partner-tokens";
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from "./tokens";

/** What each desk role may do through the vendor API: admin everything, desk the fulfilment side only. */
export const DESK_ROLE_SCOPES: Record<"admin" | "desk", readonly VendorScope[]> = {
  admin: VENDOR_SCOPES,
  desk: ["fulfilment:read", "fulfilment:write", "offers:read"],
};

const MARGIN_MS = 60_000;

/**
 * A vendor API access token for an order desk user (docs/desk.md, "Acting as the vendor"): of the vendor's desk client,
 * with the scopes of the user's role that the client has; null when the user is not active, its vendor is disabled, or
 * the desk client is missing or disabled. The operator plane asks here, as for partners' tokens.
 */
export async function deskToken(env: Bindings, userId: number): Promise<PartnerToken | null> {
  const row = await env.DB.prepare(
    `SELECT c.client_id AS clientId, c.vendor_id AS vendorId, c.scopes AS scopes, u.role FROM vendor_users u
       JOIN vendors v ON v.id = u.vendor_id AND v.disabled_at IS NULL
       JOIN vendor_desks d ON d.vendor_id = u.vendor_id
       JOIN api_clients c ON c.client_id = d.client_id AND c.vendor_id = u.vendor_id AND c.enabled = 1
     WHERE u.id = ? AND u.status = 'active'`,
  )
    .bind(userId)
    .first<{ clientId: string; vendorId: number; scopes: string; role: "admin" | "desk" }>();
  if (!row) return null;
  const granted = row.scopes.split(" ");
  const scopes = DESK_ROLE_SCOPES[row.role].filter((scope) => granted.includes(scope));
  const token = await issueAccessToken(env, { clientId: row.clientId, vendorId: row.vendorId, scopes });
  return { token, expiresAt: Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 - MARGIN_MS };
}
