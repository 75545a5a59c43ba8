import type { PartnerToken } from "../../shared/auth/partner-tokens";

/** What the EDI transports use beyond the app's bindings (admin/wrangler.toml; docs/edi.md, "Set-up"). */
export interface EdiBindings {
  DB: D1Database;
  /** The API Worker (the vendor API acted on as a partner's client). */
  API: Fetcher;
  /** The API Worker's PartnerTokens entrypoint: tokens for partners' clients (src/api/edi/entrypoint.ts). */
  PARTNER_TOKENS: {
    partnerToken(partnerId: number): Promise<PartnerToken | null>;
    /** An order desk user's token (src/operator/desk). */
    deskToken(userId: number): Promise<PartnerToken | null>;
  };
  /** Outbound documents waiting in partners' mailboxes, and inbound files until applied (under edi/). */
  IMPORTS: R2Bucket;
  /** Medparts' AS2 identity: its RSA private key (PKCS #8 PEM) and its certificate (PEM), which partners are given. */
  AS2_PRIVATE_KEY?: string;
  AS2_CERTIFICATE?: string;
}

/** The EDI bindings of the operator plane's environment. */
export const ediOf = (env: unknown) => env as EdiBindings;
