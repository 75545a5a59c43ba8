import production from "../../src/api/index";
import type { Bindings } from "../../src/env";
import { responseWithHeaders } from "../../src/platform/responses";
import { COUNT_ROUND_TRIPS_HEADER, ROUND_TRIPS_HEADER, RoundTripProbe } from "./probe";
import { BENCH_SWITCH_PATH, switchForBench } from "./switch";

// The Durable Object classes of the production entry (wrangler.toml names them).
export * from "../../src/api/index";

/**
 * Entry worker of `npm run bench`, built by `wrangler deploy --dry-run` like the production bundle and run on
 * workerd through Miniflare (scripts/bench/runtime.ts). It serves the production app with its D1, KV and Durable
 * Object bindings wrapped by a probe that delays every call by `BENCH_RTT_MS` (a primary on another continent) and
 * counts the request's sequential round trips to each, reported in the `X-Bench-Round-Trips` response header, on
 * the requests that ask for the count (`X-Bench-Count-Round-Trips`); `POST /__bench/switch-tenant?tenant=N` switches a
 * tenant to its stores (`--tenants`, scripts/bench/tenants.ts). At rtt 0 every other request reaches the app
 * with its own bindings: the probe's wrapping is the harness's cost, which the bare Worker does not pay either.
 */
export default {
  async fetch(request, env, ctx) {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === BENCH_SWITCH_PATH && request.method === "POST") {
      await switchForBench(env, Number(searchParams.get("tenant")));
      return new Response("switched");
    }
    const rttMs = Number((env as { BENCH_RTT_MS?: string }).BENCH_RTT_MS ?? 0);
    if (rttMs === 0 && !request.headers.has(COUNT_ROUND_TRIPS_HEADER)) return production.fetch(request, env, ctx);
    const probe = new RoundTripProbe(rttMs);
    const response = await production.fetch(request, probe.wrap(env), ctx);
    // In place when the headers are mutable (the app's own responses), so the harness adds no copy of its own.
    return responseWithHeaders(response, { [ROUND_TRIPS_HEADER]: probe.summary() });
  },
} satisfies ExportedHandler<Bindings>;
