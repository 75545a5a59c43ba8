/** What a tenant's move is given: the tenant (its sandbox twin moves with it), and whether it switches the tenant. */
export interface MoveParams {
  tenantId: number;
  /** Also on the registry's row (switch_after), which decides: a move resumed by the sweep has it from there. */
  switchAfter?: boolean;
}

/** The operator plane's binding of the move Workflow (admin/wrangler.toml). */
export interface MoveBindings {
  TENANT_STORE_MOVES: Workflow<MoveParams>;
}
