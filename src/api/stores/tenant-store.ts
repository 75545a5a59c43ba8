import { errorMessage } from "../../platform/errors";
import type { StoreRun } from "../../platform/idempotency/key-lock";
import { TenantStore as Store } from "../../shared/tenants/store";
import { StoreDatabase } from "../../shared/tenants/store-database";
import type { OrderPlacingStore, OrderPlan } from "../orders/create";

/** What the store's handlers run (./store-modules.ts). */
export type StoreModules = typeof import("./store-modules");

/** Events dispatched per alarm; more wait for the next one, armed at once. */
const DISPATCH_LIMIT = 500;
/** After a failed publication of line changes, the next try. */
const PUBLISH_RETRY_MS = 30_000;
/** Work found waiting at the end of an alarm: soon, but not in a tight loop should it keep failing. */
const RECHECK_MS = 200;

/**
 * The tenant store as the API Worker runs it: the store of src/shared/tenants with its outbox dispatched by its alarm
 * (docs/tenant-stores.md). The alarm hands undispatched events to the delivery queue (src/api/webhooks/dispatch.ts),
 * each message naming the store, sends again the deliveries whose due time passed
 * untouched, publishes the lines changed since the last alarm to their vendors' projections (src/api/vendors/projection),
 * and sleeps until the next delivery is due. A failing alarm is retried by the runtime; nothing is lost.
 */
export class TenantStore extends Store implements OrderPlacingStore {
  /** What its handlers run, loaded on first use: the Worker's start evaluates the store's class only. */
  protected modules(): Promise<StoreModules> {
    return import("./store-modules");
  }

  override async alarm(): Promise<void> {
    await this.dispatchOutbox(false);
  }

  /** POST /orders of this store's tenant in one call: the key's lock, the checks and the write (docs/tenant-stores.md). */
  async placeOrder(plan: OrderPlan): Promise<StoreRun> {
    // Defence in depth: the Worker addresses the store by the order's tenant, and nothing else may write here.
    if (plan.storeUnder !== this.ownTenant()) throw new Error(`an order of tenant ${plan.storeUnder} sent to another tenant's store`);
    const { placeOrderInStore } = await this.modules();
    return this.runLocked(plan.request, plan.response, () => placeOrderInStore(this.local(), plan));
  }

  /**
   * After a runtime start whose queues did not outlive the last one (QUEUES_PERSISTED "false": local runtimes), every
   * delivery this store owes lost its message: the API Worker's first cron after the start has every store send them
   * all now (src/api/index.ts), rather than when each one's resend delay has passed.
   */
  async resendAfterLosingQueues(): Promise<void> {
    await this.dispatchOutbox(true);
  }

  /**
   * The housekeeping cron's purges in this store (src/api/index.ts): expired idempotency results, unused expired
   * quotes, events past their retention and their deliveries, each in bounded batches, in this store; then the due
   * steps of its cores and loaners (src/api/returns/due.ts).
   */
  async housekeep(scheduledTime: number): Promise<Record<string, number>> {
    const { housekeeping, purgeExpiredResults, purgeExpiredQuotes, purgeOldEvents, purgeOldDeliveries, raiseDueReturns } =
      await this.modules();
    const purged = await housekeeping({ DB: this.local({ outbox: false }) }, new Date(scheduledTime), {
      idempotencyResults: purgeExpiredResults,
      quotes: purgeExpiredQuotes,
      events: purgeOldEvents,
      webhookDeliveries: purgeOldDeliveries,
    });
    // Cores' and loaners' due steps write events: their writes arm the outbox's dispatch.
    const due = await housekeeping({ DB: this.local() }, new Date(scheduledTime), { returnsDue: raiseDueReturns });
    return { ...purged, ...due };
  }

  /** This store as D1 for the code written for `DB` (src/shared/tenants/store-database.ts), run in the object itself. */
  private local(options?: { outbox: boolean }): D1Database {
    return new StoreDatabase(async (statements) => this.execute(statements, options)).asD1();
  }

  private async dispatchOutbox(afterStart: boolean): Promise<void> {
    const { sweepUndispatched, resendLostDeliveries, database, envWith, publishLineChanges, logEvent } = await this.modules();
    const local = this.local();
    const env = envWith(this.env, { DB: local });
    const db = database(local);
    const tenantId = this.ownTenant();
    const now = new Date();
    const dispatched = await sweepUndispatched(env, tenantId)(db, now, DISPATCH_LIMIT);
    await resendLostDeliveries(env, afterStart, tenantId)(db, now, DISPATCH_LIMIT);
    // Publishing failing (its queue, a projection) must not stop the deliveries' schedule: it is tried again shortly.
    const published = await publishLineChanges(this.ctx.storage, db, this.env, tenantId).then(
      (more) => (more ? "more" : "done"),
      (error: unknown) => {
        logEvent("warn", { event: "vendor.projection.publish", tenantId, message: errorMessage(error) });
        return "failed";
      },
    );
    // Units shipped since the last alarm, matched against the open recalls after the publication (which the vendors'
    // lists wait on): the events it writes arm the alarm again and go out in the next run.
    const matched = this.unitsToCheck()
      ? await this.matchRecalls({ changed: false }).then(
          () => "done",
          (error: unknown) => {
            logEvent("warn", { event: "recalls.match_units", tenantId, message: errorMessage(error) });
            return "failed";
          },
        )
      : "done";
    if (dispatched === DISPATCH_LIMIT || published === "more") return void (await this.ctx.storage.setAlarm(Date.now()));
    // Written while this alarm ran (the write armed the alarm for now, which the lines below must not push back).
    if (published === "done" && matched === "done" && this.outboxPending())
      return void (await this.ctx.storage.setAlarm(Date.now() + RECHECK_MS));
    const next = this.ctx.storage.sql.exec<{ due: string | null }>("SELECT min(due_at) AS due FROM webhook_deliveries_owed").one().due;
    const dueTimes = [
      next ? Math.max(Date.parse(next), Date.now() + 1000) : Infinity,
      published === "failed" || matched === "failed" ? Date.now() + PUBLISH_RETRY_MS : Infinity,
    ];
    const at = Math.min(...dueTimes);
    if (at !== Infinity) await this.ctx.storage.setAlarm(at);
  }
}
