import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import type { Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { stepRunner } from "../../platform/workflow-steps";
import { tenantStore } from "../../shared/tenants/stub";
import { STORE_TABLES } from "../../shared/tenants/tables";
import type { MoveParams } from "./bindings";
import { checkPages, clearStore, columnsIn, copyPages, NOT_STARTED, rowsToCopy, type TableProgress } from "./copy";
import { finishMove, readRegistry, recordCopied, recordTotal, type TableCheck, tableCheck, type Verification } from "./registry";

/** Each step is safe to run again (a page copied twice is written in place): quick retries for D1 or store hiccups. */
const STEP: WorkflowStepConfig = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" };

/**
 * The move of one tenant into its stores (docs/tenant-stores.md), started by POST /admin/api/tenants/{id}/store-move,
 * which put the tenant in its read-only window. For the tenant's store and its sandbox twin's: empty the store, copy
 * each table page by page, read it back; then compare both sides' row counts and digests and end the window (switching
 * the tenant to its stores when asked, and starting its lines' publication to the vendors' projections). A crash or
 * a redeploy resumes at the step under way; every finished step's result (where its table stood) is kept.
 */
export class TenantStoreMoveWorkflow extends WorkflowEntrypoint<Bindings, MoveParams> {
  override async run(event: WorkflowEvent<MoveParams>, step: WorkflowStep): Promise<Verification> {
    const { tenantId } = event.payload;
    const moveId = event.instanceId;
    const { DB } = this.env;
    const run = stepRunner(step, STEP);
    let verification: Verification;
    try {
      const plan = await run("plan", async () => {
        // The twin's store too when the tenant has no test-mode client yet: its first one then finds the directory there.
        const stores = [tenantId, -tenantId];
        const columns = await Promise.all(STORE_TABLES.map((table) => columnsIn(DB, table)));
        let total = 0;
        for (const store of stores) for (const table of STORE_TABLES) total += await rowsToCopy(DB, table, store);
        await recordTotal(DB, tenantId, moveId, total);
        return { stores, columns };
      });
      const checks: NonNullable<Verification["stores"]> = [];
      let copied = 0;
      for (const storeTenantId of plan.stores) {
        const store = tenantStore(this.env, storeTenantId);
        await run(`clear ${storeTenantId}`, () => clearStore(store));
        const tables: TableCheck[] = [];
        for (const [index, table] of STORE_TABLES.entries()) {
          const columns = plan.columns[index]!;
          let database: TableProgress = NOT_STARTED;
          for (let slice = 0; !database.done; slice++) {
            const before = database;
            database = await run(`copy ${storeTenantId} ${table.name} ${slice}`, async () => {
              const after = await copyPages(DB, store, table, columns, storeTenantId, before);
              await recordCopied(DB, tenantId, moveId, copied + after.rows);
              return after;
            });
          }
          copied += database.rows;
          let stored: TableProgress = NOT_STARTED;
          for (let slice = 0; !stored.done; slice++) {
            const before = stored;
            stored = await run(`check ${storeTenantId} ${table.name} ${slice}`, () => checkPages(store, table, columns, before));
          }
          tables.push(tableCheck(table.name, database, stored));
        }
        const bytes = await run(`size ${storeTenantId}`, () => store.databaseBytes());
        checks.push({ tenantId: storeTenantId, bytes, tables });
      }
      verification = { equal: checks.every((store) => store.tables.every((table) => table.equal)), stores: checks };
    } catch (error) {
      // A step that kept failing: the window must not stay open. The tenant goes on from the database.
      verification = { equal: false, error: errorMessage(error) };
    }
    const ended = verification;
    const state = await run("finish", async () => {
      const finished = await finishMove(DB, tenantId, moveId, ended, new Date().toISOString());
      // A retried step whose first try committed: the row, if this move's, says how it ended.
      const row = finished === null ? await readRegistry(DB, tenantId) : null;
      return finished ?? (row?.move_id === moveId ? row.state : null);
    });
    // Switched: the store's lines go to the vendors' projections (a crash before this is made good by their sweep).
    if (state === "store") await run("publish", async () => (await tenantStore(this.env, tenantId).startPublishing()).started);
    logEvent(verification.equal ? "info" : "error", { event: "tenant.store.move", tenantId, moveId, equal: verification.equal, state });
    return verification;
  }
}
