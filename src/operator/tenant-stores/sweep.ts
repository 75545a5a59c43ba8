import { logEvent } from "../../platform/logging";
import type { MoveBindings } from "./bindings";
import { finishMove, type RegistryRow } from "./registry";

/**
 * Keeps a move going (the operator plane's Cron Trigger, and a POST of the move again): a move whose Workflow instance is
 * missing (a crash between the window's start and the instance's creation) gets it; one whose instance errored or was
 * terminated ends its window on the database, so that no tenant stays read-only; one still running is sent a wake
 * event, which resumes an instance the runtime left idle after a restart (local `wrangler dev` does not on its own).
 */
export async function nudgeMove(env: MoveBindings & { DB: D1Database }, row: RegistryRow): Promise<void> {
  if (row.state !== "copying" || !row.move_id) return;
  let instance: WorkflowInstance;
  try {
    instance = await env.TENANT_STORE_MOVES.get(row.move_id);
  } catch {
    await env.TENANT_STORE_MOVES.create({ id: row.move_id, params: { tenantId: row.tenant_id } });
    return;
  }
  const { status, error } = await instance.status();
  if (status === "errored" || status === "terminated") {
    logEvent("error", {
      event: "tenant.store.move",
      tenantId: row.tenant_id,
      moveId: row.move_id,
      workflow: status,
      message: error?.message ?? "",
    });
    await finishMove(
      env.DB,
      row.tenant_id,
      row.move_id,
      { equal: false, error: `the move's Workflow ${status}` },
      new Date().toISOString(),
    );
  } else if (status === "running" || status === "waiting" || status === "paused" || status === "queued") {
    await instance.sendEvent({ type: "wake", payload: {} });
  }
}

/** Every move under way, nudged. */
export async function sweepTenantStoreMoves(env: MoveBindings & { DB: D1Database }): Promise<void> {
  const { results } = await env.DB.prepare("SELECT * FROM tenant_stores WHERE state = 'copying'").all<RegistryRow>();
  for (const row of results) await nudgeMove(env, row);
}
