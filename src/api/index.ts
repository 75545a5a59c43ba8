import type { Bindings } from "../env";
import { isOperatorPlanePath } from "../platform/planes";
import { WEBHOOK_SWEEP_CRON } from "./webhooks/queues";

export { RateLimiter } from "../platform/ratelimit/rate-limiter";
export { RequestLog } from "../shared/request-logs/store";
export { PartnerTokens } from "./edi/entrypoint";
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
    { refreshCatalogPositions },
    { compactFullTextIndex },
    { logEvent },
    { reconcileVendorProjections },
    { forEachStore },
    { purgeRequestLogs },
  ] = await Promise.all([
    import("../shared/catalog/positions"),
    import("../shared/catalog/full-text-index"),
    import("../platform/logging"),
    import("./vendors/projection/reconcile"),
    import("./stores/every-store"),
    import("../shared/request-logs/purge"),
  ]);
  // Each tenant store dispatches its own outbox and resends its overdue deliveries (its alarm); after a start that lost
  // the queues, every store resends what it owes at once.
  if (firstSweepAfterLosingQueues(env)) await forEachStore(env, "store-resend", (store) => store.resendAfterLosingQueues());
  if (cron === WEBHOOK_SWEEP_CRON) return;
  // After a catalog change: the sort positions of deep pages (src/shared/catalog/positions.ts), for the new version.
  await refreshCatalogPositions(env.CATALOG);
  // Each tenant's stores purge what is past its retention and take their returns' due steps (TenantStore.housekeep).
  await forEachStore(env, "store-purge", (store) => store.housekeep(scheduledTime));
  // The clients' request logs: 7 days live, 30 in test mode, at most MAX_LOGGED_REQUESTS each.
  await purgeRequestLogs(env, scheduledTime);
  // Each store catches up on the recalls changed since it last matched (a recall import offers them at once; this is
  // what makes an offer that failed, or a store that was down, converge).
  await forEachStore(env, "store-recalls", (store) => store.matchRecalls());
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
