import { cliArgs } from "../cli";
import type { BenchContext, Scenario } from "./scenarios";

/**
 * `npm run bench:profile -- --scenario search-popular`: a CPU profile of the app's isolate under one scenario's load,
 * through workerd's inspector (V8's sampling profiler), summarized as the functions with the most self time. Uses a
 * dataset `npm run bench` seeded (--products). For finding where a request's CPU goes; figures go to docs only from
 * `npm run bench`. With the inspector attached workerd also sends every console line to it, so logging shows up
 * costlier here than it is.
 */
const { values } = cliArgs(
  "bench:profile",
  "Profiles the CPU of one request scenario through workerd's inspector and prints the functions with the most self time.",
  {
    scenario: { type: "string", default: "search-popular", help: "the request scenario (the names of npm run bench)", value: "<name>" },
    products: { type: "string", default: "10000", help: "catalog size (as npm run bench seeded it)", value: "<n>" },
    duration: { type: "string", default: "5", help: "seconds of load while profiling", value: "<s>" },
    connections: { type: "string", default: "10", help: "concurrent connections", value: "<n>" },
    top: { type: "string", default: "30", help: "functions listed", value: "<n>" },
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { withLocalBindings },
  { createBenchClient, createBenchVendorClient, fetchToken },
  { inspectorWebSocket, startCpuProfile, topSelfTime },
  { runLoad },
  { BENCH_VARS, buildBenchBundle, runAppRuntime },
  { CATALOG_SEARCH_SCENARIOS, CORE_SCENARIOS, ORDER_SCENARIOS, POPULAR_SEARCH_SCENARIO },
] = await Promise.all([
  import("../dev/local-platform"),
  import("./client"),
  import("./cpu-profile"),
  import("./load"),
  import("./runtime"),
  import("./scenarios"),
]);

const PORT = 8797;
const INSPECTOR_PORT = 9231;
const scenarios: Scenario[] = [...CORE_SCENARIOS, ...CATALOG_SEARCH_SCENARIOS, POPULAR_SEARCH_SCENARIO, ...ORDER_SCENARIOS];
const scenario = scenarios.find((s) => s.name === values.scenario);
if (!scenario) throw new Error(`unknown scenario ${values.scenario}; one of ${scenarios.map((s) => s.name).join(", ")}`);

const state = { persistTo: `.wrangler/bench/${values.products}` };
const credentials = await withLocalBindings(
  async (env) => ({
    ...(await createBenchClient(env, "bench-profile-client", "Profile client")),
    vendor: await createBenchVendorClient(env),
  }),
  state,
);

const bundle = buildBenchBundle();
const baseUrl = `http://127.0.0.1:${PORT}`;
const runtime = await runAppRuntime({
  bundle: bundle.file,
  state,
  port: PORT,
  inspectorPort: INSPECTOR_PORT,
  vars: { ...BENCH_VARS, BENCH_RTT_MS: "0" },
});

try {
  const token = await fetchToken(baseUrl, credentials.clientId, credentials.clientSecret);
  const vendorToken = await fetchToken(baseUrl, credentials.vendor.clientId, credentials.vendor.clientSecret);
  const { clientId, clientSecret } = credentials;
  const ctx: BenchContext = {
    baseUrl,
    token,
    vendorToken,
    clientId,
    clientSecret,
    products: Number(values.products),
    // Single-use quotes for order-create: enough for the warm-up and a profiled run of a few seconds.
    orderPool: 600,
    runtimeCpuMs: () => null,
  };
  const prepared = await scenario.prepare(ctx);
  const load = (duration: number, connections: number) =>
    runLoad({
      baseUrl,
      connections,
      duration,
      expectedStatus: scenario.expectedStatus,
      request: prepared.request,
      nextRequest: prepared.nextRequest,
    });
  await load(1, 2); // warm-up, not profiled

  const app = await inspectorWebSocket(INSPECTOR_PORT, (title) => title.includes("medparts") && !title.includes("docs"));
  const profiler = await startCpuProfile(app, 100);
  const result = await load(Number(values.duration), Number(values.connections));
  const profile = await profiler.stop();
  const summary = topSelfTime(profile, Number(values.top), { bundle: bundle.file });
  console.log(`${scenario.name}: ${result.requestsPerSecond.toFixed(1)} req/s, ${summary.samples} samples`);
  for (const line of summary.lines) console.log(line);
} finally {
  await runtime.stop();
  bundle.dispose();
}
