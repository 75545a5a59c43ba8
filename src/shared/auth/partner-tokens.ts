import type { Bindings } from "../../env";
import { VENDOR_SCOPES } from "../../platform/principal";
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from "./tokens";

/** An access token and when the caller should stop using it (epoch ms, a minute before it expires). */
export interface PartnerToken {
  token: string;
  expiresAt: number;
}

const MARGIN_MS = 60_000;

/**
 * A vendor API access token for an X12 trading partner's own client (docs/edi.md, "Acting as the vendor"), or null when
 * the partner has none, or its client is disabled or no longer its vendor's. The operator plane holds no signing key:
 * it asks here, over a service binding to this entrypoint, which no public request reaches.
 */
export async function partnerToken(env: Bindings, partnerId: number): Promise<PartnerToken | null> {
  const row = await env.DB.prepare(
    "SELECT c.client_id AS clientId, c.vendor_id AS vendorId, c.scopes AS scopes FROM edi_partners p " +
      "JOIN api_clients c ON c.client_id = p.client_id AND c.vendor_id = p.vendor_id WHERE p.id = ?1 AND c.enabled = 1",
  )
    .bind(partnerId)
    .first<{ clientId: string; vendorId: number; scopes: string }>();
  if (!row) return null;
  const scopes = row.scopes.split(" ").filter((scope) => (VENDOR_SCOPES as readonly string[]).includes(scope));
  const token = await issueAccessToken(env, { clientId: row.clientId, vendorId: row.vendorId, scopes });
  return { token, expiresAt: Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 - MARGIN_MS };
}
