import { API_BASE, createApp } from "../../src/app";
import type { Bindings } from "../../src/env";
import production from "../../src/index";
import { isFault, withFault } from "./faults";
import { testRoutes } from "./test-routes";

// The Durable Object classes of the production entry (wrangler.toml names them).
export * from "../../src/index";

/**
 * Entry worker of the test suite (vitest.config.mts `main`). It serves the production app plus two
 * test-only request headers, so that tests can reach states an integrator cannot:
 * - `X-Test-Fault: <fault>` (test/helpers/faults.ts) makes D1, KV or the Durable Objects fail for that request;
 * - `X-Test-Vars: NAME=value&...` overrides wrangler.toml [vars] for that request (e.g. tight rate limits).
 * Production deploys src/index.ts, which knows neither header: they cannot be triggered there.
 */
const app = createApp();
app.route(API_BASE, testRoutes);

export const FAULT_HEADER = "X-Test-Fault";
export const VARS_HEADER = "X-Test-Vars";

function testEnv(request: Request, env: Bindings): Bindings {
  let result = env;
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
  fetch: (request, env, ctx) => app.fetch(request, testEnv(request, env), ctx),
  scheduled: production.scheduled,
  queue: production.queue,
} satisfies ExportedHandler<Bindings>;
