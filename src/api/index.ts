import type { Bindings } from "../env";
import { isOperatorPlanePath } from "../platform/planes";
import { WEBHOOK_SWEEP_CRON } from "./webhooks/queues";

export { IdempotencyStore } from "../platform/idempotency/store";
export { RateLimiter } from "../platform/ratelimit/rate-limiter";

export { TenantStore } from "./stores/tenant-store";
export { VendorLines } from "./vendors/projection/projection";

/**
 * The app (every route, its zod schemas, the OpenAPI registry) is built on the first request, not at module load:
 * the bundler turns these dynamic imports into modules initialized on first use, so a cold start evaluates only
 * this file and the Durable Object classes (docs/benchmarks.md, "Cold start").
 */
let app: Promise<{ fetch: ExportedHandlerFetchHandler<Bindings> }> | undefined;
const appOnce = () => {
  app ??= import("./app").then(({ createApp }) => createApp());
  return app;
};

let sweptSinceStart = false;
/**
 * Whether this sweep is the first since the runtime started with queues that do not outlive it (QUEUES_PERSISTED
 * "false": local runtimes): every owed delivery's message went with them, so the sweep sends all of them now.
 */
function firstSweepAfterLosingQueues(env: Bindings): boolean {
  if (env.QUEUES_PERSISTED !== "false" || sweptSinceStart) return false;
  sweptSinceStart = true;
  return true;
}

async function runHousekeeping(scheduledTime: number, env: Bindings, cron: string): Promise<void> {
  const [
    { housekeeping },
    { purgeExpiredResults },
    { purgeExpiredQuotes },
    { purgeOldEvents },
    { purgeOldDeliveries },
    { resendLostDeliveries, sweepUndispatched },
    { refreshCatalogPositions },
    { compactFullTextIndex },
    { logEvent },
    { reconcileVendorProjections },
    { forEachSwitchedStore },
    { raiseDueReturns },
  ] = await Promise.all([
    import("../platform/housekeeping"),
    import("../platform/idempotency/results"),
    import("../shared/catalog/quotes"),
    import("./events/feed"),
    import("./webhooks/delivery"),
    import("./webhooks/dispatch"),
    import("../shared/catalog/positions"),
    import("../shared/catalog/full-text-index"),
    import("../platform/logging"),
    import("./vendors/projection/reconcile"),
    import("./stores/switched-stores"),
    import("./returns/due"),
  ]);
  const afterStart = firstSweepAfterLosingQueues(env);
  const webhookSweep = {
    // First: events a crash left undispatched go to the delivery queue (before any purge could take them).
    undispatchedEvents: sweepUndispatched(env, afterStart),
    // Then deliveries whose message was lost on the way (the queue, a consumer killed mid-batch, a restart).
    lostDeliveries: resendLostDeliveries(env, afterStart),
  };
  // The switched tenants' stores dispatch their own outbox (their alarms); after such a start they resend what they owe.
  if (afterStart) await resendFromStores(env);
  if (cron === WEBHOOK_SWEEP_CRON) {
    await housekeeping(env, new Date(scheduledTime), webhookSweep);
    return;
  }
  await housekeeping(env, new Date(scheduledTime), {
    ...webhookSweep,
    idempotencyResults: purgeExpiredResults,
    quotes: purgeExpiredQuotes,
    events: purgeOldEvents,
    webhookDeliveries: purgeOldDeliveries,
    // Not a purge: cores' and loaners' due-soon and overdue steps, each once (src/api/returns/due.ts).
    returnsDue: raiseDueReturns("database"),
  });
  // After a catalog change: the sort positions of deep pages (src/shared/catalog/positions.ts), for the new version.
  await refreshCatalogPositions(env.CATALOG);
  // The switched tenants' stores purge as DB does.
  await forEachSwitchedStore(env, "store-purge", (store) => store.housekeep(scheduledTime));
  // The vendors' projections compared with the tenant stores' accounts, and what differs sent again. Best effort: the
  // next run tries again.
  await reconcileVendorProjections(env).catch((err: unknown) =>
    logEvent("warn", { housekeeping: "vendor-projections", message: err instanceof Error ? err.message : String(err) }),
  );
  // The full-text index's segments, merged in bounded steps (src/shared/catalog/full-text-index.ts). Best effort: a compact
  // index is a speed-up, and the next run tries again.
  await compactFullTextIndex(env.CATALOG).catch((err: unknown) =>
    logEvent("warn", { housekeeping: "full-text-compaction", message: err instanceof Error ? err.message : String(err) }),
  );
}

/** Every switched tenant's stores resend the deliveries they owe. */
async function resendFromStores(env: Bindings): Promise<void> {
  const { forEachSwitchedStore } = await import("./stores/switched-stores");
  await forEachSwitchedStore(env, "store-resend", (store) => store.resendAfterLosingQueues());
}

/**
 * wrangler.toml [[queues.consumers]]: webhook deliveries and their dead letters (src/api/webhooks/delivery.ts), the
 * sandbox's simulated vendor (src/api/sandbox/schedule.ts) and the vendors' projections (src/api/vendors/projection).
 */
async function consume(batch: MessageBatch, env: Bindings): Promise<void> {
  if (batch.queue === "medparts-vendor-lines") {
    const { consumeLineChanges } = await import("./vendors/projection/consume");
    return consumeLineChanges(batch as MessageBatch<never>, env);
  }
  if (batch.queue === "medparts-sandbox") {
    const { consumeSandboxBatch } = await import("./sandbox/schedule");
    return consumeSandboxBatch(batch as MessageBatch<never>, env);
  }
  const { consumeEventBatch } = await import("./webhooks/delivery");
  await consumeEventBatch(batch, env);
}

/** The /docs page and its files belong to the docs Worker (docs-worker/wrangler.toml). */
const isDocsPath = (pathname: string) => pathname === "/docs" || pathname.startsWith("/docs/");

export default {
  fetch: async (request, env, ctx) => {
    const { pathname } = new URL(request.url);
    if (isDocsPath(pathname)) return env.DOCS.fetch(request);
    if (isOperatorPlanePath(pathname)) return env.ADMIN.fetch(request);
    return (await appOnce()).fetch(request, env, ctx);
  },
  scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(controller.scheduledTime, env, controller.cron)),
  queue: (batch, env, _ctx) => consume(batch, env),
} satisfies ExportedHandler<Bindings>;
