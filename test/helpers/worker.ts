import { API_BASE, createApp } from "../../src/api/app";
import production from "../../src/api/index";
import * as storeModules from "../../src/api/stores/store-modules";
import { TenantStore as ProductionTenantStore, type StoreModules } from "../../src/api/stores/tenant-store";
import { VendorLines as ProductionVendorLines } from "../../src/api/vendors/projection/projection";
import type { Bindings } from "../../src/env";
import { createAdminApp } from "../../src/operator/app";
import { isOperatorPlanePath } from "../../src/platform/planes";
import { deskToken } from "../../src/shared/auth/desk-tokens";
import { partnerToken } from "../../src/shared/auth/partner-tokens";
import { owe, received, settle, track, trackedQueue } from "./background";
import { isFault, withFault, withMethods } from "./faults";
import { testRoutes } from "./test-routes";

// The Durable Object classes of the production entry (wrangler.toml names them), and the operator plane's Workflow
// (admin/wrangler.toml): in tests one Worker serves both planes, as the API Worker and its ADMIN binding do.
export * from "../../src/api/index";
export { CatalogImportWorkflow } from "../../src/operator/index";

/**
 * The tenant store as the test Worker runs it (it takes the place of the production class of the same name, exported
 * above): the same object, with its outbox's work reported as the Worker's own is (test/helpers/background.ts). A write
 * that arms the outbox counts as running until an alarm has left nothing to dispatch or publish, and the alarm's
 * delivery messages count as on their way until the consumer has them.
 */
export class TenantStore extends ProductionTenantStore {
  private readonly owedAlarm = `the alarm of ${this.ctx.id.name}`;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, { ...env, EVENTS: trackedQueue(env.EVENTS) });
  }

  /**
   * The same modules, imported statically: the vitest pool does not support a dynamic import inside a Durable
   * Object's handler (it resumed promises across objects: workerd's "I/O on behalf of a different Durable Object").
   */
  protected override modules(): Promise<StoreModules> {
    return Promise.resolve(storeModules);
  }

  override execute(...args: Parameters<ProductionTenantStore["execute"]>): ReturnType<ProductionTenantStore["execute"]> {
    const results = super.execute(...args);
    if (args[1]?.outbox !== false && this.outboxPending()) owe(this.owedAlarm);
    return results;
  }

  override async alarm(): Promise<void> {
    await super.alarm();
    if (!this.outboxPending()) settle(this.owedAlarm);
  }

  /**
   * Between test files: no alarm left for the next file's store of the same name. A call of its own, not
   * `runInDurableObject`, whose callback runs in the runner's context and raced the object's own work (an alarm, a
   * consumer's call) into workerd's "I/O on behalf of a different Durable Object".
   */
  async forgetAlarm(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    settle(this.owedAlarm);
  }
}

/**
 * A vendor's projection as the test Worker runs it: emptied between test files by a call of its own (as above), its
 * purge's alarm cancelled with its lines.
 */
export class VendorLines extends ProductionVendorLines {
  async emptyLines(): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM vendor_lines");
    await this.ctx.storage.deleteAlarm();
  }
}

/**
 * Entry worker of the test suite (vitest.config.mts `main`). It serves the production app plus two
 * test-only request headers, so that tests can reach states an integrator cannot:
 * - `X-Test-Fault: <fault>` (test/helpers/faults.ts) makes D1, KV or the Durable Objects fail for that request;
 * - `X-Test-Vars: NAME=value&...` overrides wrangler.toml [vars] for that request (e.g. tight rate limits).
 * Production deploys src/api/index.ts, which knows neither header: they cannot be triggered there.
 */
const app = createApp();
app.route(API_BASE, testRoutes);
const adminApp = createAdminApp();

export const FAULT_HEADER = "X-Test-Fault";
export const VARS_HEADER = "X-Test-Vars";

/**
 * The bindings as the test Worker sees them: queue sends are reported (test/helpers/background.ts), and the ADMIN
 * binding is the operator plane's app in this same Worker (its API binding, the API app).
 */
const trackedEnv = (env: Bindings): Bindings => {
  const tracked: Bindings = { ...env, EVENTS: trackedQueue(env.EVENTS) };
  const admin = { fetch: (input: RequestInfo | URL, init?: RequestInit) => adminApp.fetch(new Request(input, init), tracked) };
  // The operator plane's API binding (admin/wrangler.toml): the API Worker, which hands the operator plane's paths (the
  // vendor API's publishing) back to it, as src/api/index.ts does.
  const api = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      return (isOperatorPlanePath(new URL(request.url).pathname) ? adminApp : app).fetch(request, tracked);
    },
  };
  const partnerTokens = {
    partnerToken: (partnerId: number) => partnerToken(tracked, partnerId),
    deskToken: (userId: number) => deskToken(tracked, userId),
  };
  return Object.assign(tracked, { ADMIN: admin as unknown as Fetcher, API: api as unknown as Fetcher, PARTNER_TOKENS: partnerTokens });
};

/** The execution context with its `waitUntil` work reported (test/helpers/background.ts). */
const trackedContext = (ctx: ExecutionContext, startedBy: string): ExecutionContext =>
  withMethods(ctx, { waitUntil: (waitUntil) => (work: Promise<unknown>) => waitUntil(track(work, startedBy)) });

function testEnv(request: Request, env: Bindings): Bindings {
  let result = trackedEnv(env);
  const vars = request.headers.get(VARS_HEADER);
  if (vars) result = { ...result, ...Object.fromEntries(new URLSearchParams(vars)) };
  const fault = request.headers.get(FAULT_HEADER);
  if (fault) {
    if (!isFault(fault)) throw new Error(`unknown ${FAULT_HEADER}: ${fault}`);
    result = withFault(result, fault);
  }
  return result;
}

export default {
  fetch: (request, env, ctx) => {
    const { pathname } = new URL(request.url);
    const served = isOperatorPlanePath(pathname) ? adminApp : app;
    return served.fetch(request, testEnv(request, env), trackedContext(ctx, `${request.method} ${pathname}`));
  },
  scheduled: (controller, env, ctx) => production.scheduled(controller, trackedEnv(env), trackedContext(ctx, "scheduled")),
  queue: (batch, env, ctx) => {
    received(batch);
    return track(production.queue(batch, trackedEnv(env), trackedContext(ctx, batch.queue)), `${batch.queue} consumer`);
  },
} satisfies ExportedHandler<Bindings>;
