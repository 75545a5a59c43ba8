import production from "../../src/api/index";
import { seedDemoStores } from "../../src/dev/seed/stores";
import type { Bindings } from "../../src/env";
import { pushDirectoryChanges } from "../../src/operator/tenant-stores/directory-mirror";
import { tenantStore } from "../../src/shared/tenants/stub";
import { DEV_SCHEDULED_PATH, scheduledCallOf } from "./scheduled";
import { DEV_SEED_STORES_PATH, DEV_TENANTS_CREATED_PATH } from "./seed-route";

// The Durable Object classes wrangler.toml names, as the production entry exports them.
export * from "../../src/api/index";

/**
 * The API Worker as the local runtime runs it (`npm start`, the e2e suite, the benches and crash tests): production's
 * entry, plus its routes: scripts/dev/scheduled.ts's, which runs the scheduled handler of this Worker or of the Worker
 * behind one of its service bindings (the operator plane's, ADMIN) as a Cron Trigger would (wrangler dev fires no Cron
 * Trigger, and its /__scheduled reaches the first Worker only; scripts/dev/local-crons.ts calls it on each Worker's
 * schedule), and scripts/dev/seed-route.ts's, which seed the demo tenants' stores and bring the tenants a script wrote
 * into `DB` to their stores. Never deployed: production deploys src/api/index.ts.
 */

/** A service binding as workerd hands it to a Worker: it can also deliver a scheduled event. */
type SchedulableFetcher = Fetcher & { scheduled(options: { scheduledTime?: Date; cron?: string }): Promise<unknown> };

function runScheduled(url: URL, env: Bindings, ctx: ExecutionContext): Response {
  const { cron, time, binding } = scheduledCallOf(url);
  if (binding === undefined) {
    production.scheduled({ cron, scheduledTime: time, noRetry: () => {} }, env, ctx);
    return new Response(null, { status: 202 });
  }
  const target = (env as unknown as Record<string, Partial<SchedulableFetcher> | undefined>)[binding];
  if (typeof target?.scheduled !== "function") return new Response(`No Worker behind a binding ${binding}.`, { status: 404 });
  ctx.waitUntil(target.scheduled({ cron, scheduledTime: new Date(time) }));
  return new Response(null, { status: 202 });
}

/** The tenants a script wrote into `DB`: their directory pushed to their stores, their stores publishing (seed-route.ts). */
async function tenantsCreated(url: URL, env: Bindings): Promise<Response> {
  const tenants = (url.searchParams.get("tenants") ?? "").split(",").filter(Boolean).map(Number);
  if (tenants.some((id) => !Number.isInteger(id) || id <= 0))
    return new Response("tenants: positive ids, comma-separated", { status: 400 });
  const pushed = await pushDirectoryChanges(env);
  await Promise.all(tenants.map((id) => tenantStore(env, id).startPublishing()));
  return Response.json({ pushed });
}

export default {
  ...production,
  fetch: async (request, env, ctx) => {
    const url = new URL(request.url);
    if (url.pathname === DEV_SCHEDULED_PATH && request.method === "POST") return runScheduled(url, env, ctx);
    if (url.pathname === DEV_SEED_STORES_PATH && request.method === "POST") {
      await seedDemoStores(env);
      return new Response(null, { status: 204 });
    }
    if (url.pathname === DEV_TENANTS_CREATED_PATH && request.method === "POST") return tenantsCreated(url, env);
    return production.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Bindings>;
