import { logEvent } from "../../platform/logging";
import { keepGoing } from "../../platform/workflow-steps";
import type { MoveBindings } from "./bindings";
import { finishMove, type RegistryRow } from "./registry";

/**
 * Keeps a move going (the operator plane's Cron Trigger, and a POST of the move again; src/platform/workflow-steps.ts
 * keepGoing): a move whose Workflow errored or was terminated ends its window on the database, so that no tenant stays
 * read-only.
 */
export async function nudgeMove(env: MoveBindings & { DB: D1Database }, row: RegistryRow): Promise<void> {
  const moveId = row.move_id;
  if (row.state !== "copying" || !moveId) return;
  await keepGoing(env.TENANT_STORE_MOVES, moveId, { tenantId: row.tenant_id, switchAfter: row.switch_after === 1 }, (workflow, message) => {
    logEvent("error", { event: "tenant.store.move", tenantId: row.tenant_id, moveId, workflow, message });
    return finishMove(env.DB, row.tenant_id, moveId, { equal: false, error: `the move's Workflow ${workflow}` }, new Date().toISOString());
  });
}

/** Every move under way, nudged. */
export async function sweepTenantStoreMoves(env: MoveBindings & { DB: D1Database }): Promise<void> {
  const { results } = await env.DB.prepare("SELECT * FROM tenant_stores WHERE state = 'copying'").all<RegistryRow>();
  for (const row of results) await nudgeMove(env, row);
}
