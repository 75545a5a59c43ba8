/** The authenticated buyer-side caller, from a verified customer API access token. */
export interface Principal {
  clientId: string;
  /** The buyer tenant: its directory (users, facilities, addresses), access checks and quotes. */
  tenantId: number;
  /** live, or test for a test-mode client (src/api/sandbox/mode.ts). */
  mode: "live" | "test";
  /** The tenant its orders, events and webhooks belong to: tenantId live, the tenant's sandbox twin in test mode. */
  dataTenantId: number;
  scopes: ReadonlySet<string>;
  tokenId: string;
}

/** The authenticated vendor-side caller, from a verified vendor API access token (docs/api.md, "Vendor API"). */
export interface VendorPrincipal {
  clientId: string;
  vendorId: number;
  scopes: ReadonlySet<string>;
  tokenId: string;
}

/** The operator's caller (the marketplace itself), from a verified operator access token (`/admin/api`). */
export interface OperatorPrincipal {
  clientId: string;
  scopes: ReadonlySet<string>;
  tokenId: string;
}

export const SCOPES = [
  "users:read",
  "catalog:read",
  "orders:read",
  "orders:write",
  "manufacturers:read",
  "events:read",
  "webhooks:manage",
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Scopes of vendor clients: read the lines they fulfil, and move them along the lifecycle; read and publish their offers
 * and price agreements.
 */
export const VENDOR_SCOPES = ["fulfilment:read", "fulfilment:write", "offers:read", "offers:write"] as const;
export type VendorScope = (typeof VENDOR_SCOPES)[number];

/** Scopes of operator clients (`/admin/api`): load the catalog and the FDA's recalls; assign tenants to price tiers. */
export const OPERATOR_SCOPES = ["catalog:import", "tiers:write", "clients:manage", "recalls:import"] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** Whose request log a caller's requests go to: the buyer's data tenant (its sandbox twin, -T, in test mode) or the vendor. */
export type RequestLogOwner = { tenantId: number } | { vendorId: number };
