/** The authenticated caller, from a verified access token. */
export interface Principal {
  clientId: string;
  tenantId: number;
  scopes: ReadonlySet<string>;
  tokenId: string;
}

export const SCOPES = ["users:read", "catalog:read", "orders:read", "orders:write", "manufacturers:read"] as const;
export type Scope = (typeof SCOPES)[number];
