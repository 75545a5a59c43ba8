/** What a tenant's move is given: the tenant (its sandbox twin moves with it). */
export interface MoveParams {
  tenantId: number;
}

/** The operator plane's binding of the move Workflow (admin/wrangler.toml). */
export interface MoveBindings {
  TENANT_STORE_MOVES: Workflow<MoveParams>;
}
