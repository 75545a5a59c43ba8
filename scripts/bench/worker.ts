import type { Bindings } from "../../src/env";
import { responseWithHeaders } from "../../src/platform/responses";
import dev from "../dev/worker";
import { COUNT_ROUND_TRIPS_HEADER, ROUND_TRIPS_HEADER, RoundTripProbe } from "./probe";

// The Durable Object classes wrangler.toml names, as the dev entry (and the production one) exports them.
export * from "../dev/worker";

/** The dev entry's own routes (scripts/dev/seed-route.ts, scheduled.ts): the harness's, never measured nor delayed. */
const DEV_ROUTES = "/__dev/";

/**
 * Entry worker of `npm run bench`, built by `wrangler deploy --dry-run` like the production bundle and run on
 * workerd through Miniflare (scripts/bench/runtime.ts). It serves the local runtime's entry (scripts/dev/worker.ts:
 * production's app, plus the routes that seed the demo tenants' stores and bring the bench's own tenants to theirs)
 * with its D1, KV and Durable Object bindings wrapped by a probe that delays every call by `BENCH_RTT_MS` (a primary
 * on another continent) and counts the request's sequential round trips to each, reported in the
 * `X-Bench-Round-Trips` response header, on the requests that ask for the count (`X-Bench-Count-Round-Trips`). At rtt
 * 0 every other request reaches the app with its own bindings: the probe's wrapping is the harness's cost, which the
 * bare Worker does not pay either.
 */
export default {
  ...dev,
  async fetch(request, env, ctx) {
    const rttMs = Number((env as { BENCH_RTT_MS?: string }).BENCH_RTT_MS ?? 0);
    const measured = !new URL(request.url).pathname.startsWith(DEV_ROUTES);
    if (!measured || (rttMs === 0 && !request.headers.has(COUNT_ROUND_TRIPS_HEADER))) return dev.fetch(request, env, ctx);
    const probe = new RoundTripProbe(rttMs);
    const response = await dev.fetch(request, probe.wrap(env), ctx);
    // In place when the headers are mutable (the app's own responses), so the harness adds no copy of its own.
    return responseWithHeaders(response, { [ROUND_TRIPS_HEADER]: probe.summary() });
  },
} satisfies ExportedHandler<Bindings>;
