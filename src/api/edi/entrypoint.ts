import { WorkerEntrypoint } from "cloudflare:workers";
import type { Bindings } from "../../env";
import type { PartnerToken } from "../../shared/auth/partner-tokens";

/**
 * The API Worker's entrypoint for the operator plane's PARTNER_TOKENS binding (admin/wrangler.toml): tokens for X12
 * trading partners' clients (partner-tokens.ts) and for order desk users (desk-tokens.ts). Loaded on first use, as the app is, so a cold start does not pay for it.
 */
export class PartnerTokens extends WorkerEntrypoint<Bindings> {
  async partnerToken(partnerId: number): Promise<PartnerToken | null> {
    const { partnerToken } = await import("../../shared/auth/partner-tokens");
    return partnerToken(this.env, partnerId);
  }

  /** A vendor API token for an order desk user (src/shared/auth/desk-tokens.ts). */
  async deskToken(userId: number): Promise<PartnerToken | null> {
    const { deskToken } = await import("../../shared/auth/desk-tokens");
    return deskToken(this.env, userId);
  }
}
