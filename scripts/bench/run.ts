import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cliArgs, ownRuntimePort } from "../cli";
import type { LocalState } from "../dev/local-platform";
import type { LoadRequest, LoadResult } from "./load";
import type { RoundTrips } from "./probe";
import type { BenchReport, ScaleReport, ScenarioReport } from "./report";
import type { BenchContext, PreparedScenario, Scenario } from "./scenarios";

/**
 * `npm run bench`: seeds its own local datasets (under .wrangler/bench/<products>), builds the Worker as
 * `wrangler deploy` does and runs it on workerd through Miniflare (scripts/bench/runtime.ts) on loopback port
 * 8799, then drives it with autocannon from this process: a bare Worker first (the ceiling), then every scenario
 * at each `--rtt` (a delay added to every D1, KV and Durable Object call). `--smoke` is the few-second CI variant
 * that only proves the harness still works. See docs/benchmarks.md.
 */
const { values } = cliArgs(
  "bench",
  "Load benchmark of the API on its own local runtime: seeds the catalog, then measures each endpoint with autocannon (figures: docs/benchmarks.md).",
  {
    products: { type: "string", default: "100000", help: "catalog size to seed", value: "<n>" },
    duration: { type: "string", default: "10", help: "seconds per endpoint", value: "<s>" },
    connections: { type: "string", default: "10", help: "concurrent connections", value: "<n>" },
    rtt: { type: "string", default: "0,50", help: "simulated round trips to D1, ms, comma-separated", value: "<ms,...>" },
    scale: { type: "string", default: "", help: "catalog sizes of the scaling run, comma-separated", value: "<n,...>" },
    "scale-duration": { type: "string", default: "5", help: "seconds per endpoint in the scaling run", value: "<s>" },
    "scale-connections": { type: "string", default: "1", help: "connections in the scaling run", value: "<n>" },
    "order-pool": { type: "string", default: "300", help: "price options quoted ahead for the order endpoint", value: "<n>" },
    only: { type: "string", default: "", help: "only these endpoints, comma-separated", value: "<names>" },
    out: { type: "string", default: "bench-results", help: "directory of the results", value: "<dir>" },
    port: ownRuntimePort("8799", "benchmark"),
    smoke: { type: "boolean", default: false, help: "a few seconds per endpoint: checks the harness, not the figures" },
    "seed-only": { type: "boolean", default: false, help: "seed and stop" },
    tenants: {
      type: "string",
      default: "",
      help: "that many tenants ordering at once, each on its store (a run of its own)",
      value: "<n>",
    },
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { refreshCatalogPositions },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { createBenchClient, createBenchVendorClient, fetchToken },
  { runLoad },
  { COUNT_ROUND_TRIPS_HEADER, parseRoundTrips, ROUND_TRIPS_HEADER },
  { measureRelevance },
  { machineFacts, scenarioReport, toMarkdown },
  { BENCH_VARS, buildBenchBundle, startAppRuntime, startBareRuntime },
  { CATALOG_SEARCH_SCENARIOS, CORE_SCENARIOS, ORDER_SCENARIOS, POPULAR_SEARCH_SCENARIO, ROUND_TRIP_SAMPLES },
  { runTenantsBench },
] = await Promise.all([
  import("../../src/shared/catalog/positions"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("./client"),
  import("./load"),
  import("./probe"),
  import("./relevance"),
  import("./report"),
  import("./runtime"),
  import("./scenarios"),
  import("./tenants"),
]);

const smoke = values.smoke;
const settings = {
  products: smoke ? 600 : positiveInt(values.products, "--products"),
  duration: smoke ? 1 : positiveInt(values.duration, "--duration"),
  connections: smoke ? 2 : positiveInt(values.connections, "--connections"),
  rtts: values.rtt.split(",").map((n) => wholeNumber(n, "--rtt")),
  scaleDuration: positiveInt(values["scale-duration"], "--scale-duration"),
  /** The scale table measures latency without queueing: 1 connection unless told (search-popular has its own). */
  scaleConnections: positiveInt(values["scale-connections"], "--scale-connections"),
  orderPool: smoke ? 10 : positiveInt(values["order-pool"], "--order-pool"),
  scale: smoke
    ? []
    : values.scale
        .split(",")
        .filter(Boolean)
        .map((n) => positiveInt(n, "--scale")),
  only: values.only.split(",").filter(Boolean),
  port: positiveInt(values.port, "--port"),
};

function wholeNumber(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} takes whole numbers, got ${text}`);
  return value;
}

function positiveInt(text: string, flag: string): number {
  const value = wholeNumber(text, flag);
  if (value < 1) throw new Error(`${flag} must be a positive integer, got ${text}`);
  return value;
}

function stateFor(products: number): LocalState & { dir: string } {
  const dir = `.wrangler/bench/${products}`;
  return { dir, persistTo: dir };
}

/** Seeds a dataset once per migration set; returns the seconds it took, or null when it was already there. */
async function ensureDataset(products: number): Promise<number | null> {
  const state = stateFor(products);
  const marker = `${state.dir}/seeded.json`;
  const migrations = [...readdirSync("migrations"), ...readdirSync("catalog-migrations")].sort();
  const fingerprint = JSON.stringify({ products, migrations });
  if (existsSync(marker) && readFileSync(marker, "utf8") === fingerprint) return null;
  console.log(`Seeding ${products.toLocaleString("en-US")} products into ${state.dir} ...`);
  const started = Date.now();
  mkdirSync(state.dir, { recursive: true });
  await seedLocal(products, state);
  writeFileSync(marker, fingerprint);
  return (Date.now() - started) / 1000;
}

async function withApp<T>(bundle: string, products: number, rttMs: number, work: (ctx: BenchContext) => Promise<T>): Promise<T> {
  const state = stateFor(products);
  const credentials = await withLocalBindings(async (env) => {
    await refreshCatalogPositions(env.CATALOG); // as the Cron Trigger would; nothing to do when they are current
    return { ...(await createBenchClient(env, "bench-client", "Benchmark client")), vendor: await createBenchVendorClient(env) };
  }, state);
  const runtime = await startAppRuntime({ bundle, state, port: settings.port, vars: { ...BENCH_VARS, BENCH_RTT_MS: String(rttMs) } });
  try {
    const token = await fetchToken(runtime.baseUrl, credentials.clientId, credentials.clientSecret);
    const vendorToken = await fetchToken(runtime.baseUrl, credentials.vendor.clientId, credentials.vendor.clientSecret);
    const runtimeCpuMs = () => runtime.cpuMs?.() ?? null;
    const { clientId, clientSecret } = credentials;
    return await work({
      baseUrl: runtime.baseUrl,
      token,
      vendorToken,
      clientId,
      clientSecret,
      products,
      orderPool: settings.orderPool,
      runtimeCpuMs,
    });
  } finally {
    await runtime.stop();
  }
}

/**
 * Sequential round trips of one request, per service, averaged over the scenario's first requests sent one at a
 * time (rate-limit leases make the Durable Object call one request's in ten, which an average shows).
 */
async function sampleRoundTrips(baseUrl: string, prepared: PreparedScenario, expectedStatus: number): Promise<RoundTrips> {
  const total: RoundTrips = { d1: 0, kv: 0, do: 0 };
  for (let i = 0; i < ROUND_TRIP_SAMPLES; i++) {
    const request: LoadRequest = prepared.nextRequest?.() ?? prepared.request;
    const headers = { ...request.headers, [COUNT_ROUND_TRIPS_HEADER]: "1" };
    const res = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers, body: request.body });
    await res.arrayBuffer();
    if (res.status !== expectedStatus) throw new Error(`${request.method} ${request.path}: sample answered ${res.status}`);
    const counted = parseRoundTrips(res.headers.get(ROUND_TRIPS_HEADER));
    for (const service of ["d1", "kv", "do"] as const) total[service] += counted[service];
  }
  const mean = (n: number) => Math.round((n / ROUND_TRIP_SAMPLES) * 10) / 10;
  return { d1: mean(total.d1), kv: mean(total.kv), do: mean(total.do) };
}

/** Each measured scenario with the connections it ran at: its share of the ceiling is set once the run is over. */
const measured: { report: ScenarioReport; connections: number }[] = [];

async function measure(scenario: Scenario, ctx: BenchContext, duration: number, rttMs: number, connections = settings.connections) {
  const prepared = await scenario.prepare(ctx);
  const roundTrips = await sampleRoundTrips(ctx.baseUrl, prepared, scenario.expectedStatus);
  const { result, cpuMsPerRequest } = await withRuntimeCpu(ctx.runtimeCpuMs ?? (() => null), () =>
    runLoad({
      baseUrl: ctx.baseUrl,
      connections: scenario.connections ?? connections,
      duration,
      expectedStatus: scenario.expectedStatus,
      ...prepared,
    }),
  );
  log(scenario.name, result, roundTrips, cpuMsPerRequest);
  const report = scenarioReport(scenario, rttMs, result, roundTrips, 0, cpuMsPerRequest);
  measured.push({ report, connections: scenario.connections ?? connections });
  return report;
}

/**
 * A load run with the CPU time the runtime's workerd process spent per answered request: the runtime's own cost
 * (every isolate of it, local D1 included), which the shared machine's other load does not change as it does req/s.
 */
type Measured = { result: LoadResult; cpuMsPerRequest: number | null };

async function withRuntimeCpu(cpuMs: () => number | null, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = cpuMs();
  const result = await run();
  const after = cpuMs();
  const cpuMsPerRequest = before !== null && after !== null && result.requests > 0 ? (after - before) / result.requests : null;
  return { result, cpuMsPerRequest };
}

/**
 * The bare Worker at each connection count. The run measures it at its start and again at its end, and the ceiling
 * is the higher of the two: a moment when this shared machine was busy never lowers it (so never raises a share).
 */
async function measureBare(connectionCounts: Set<number>, when: string) {
  const bareAt = new Map<number, Measured>();
  const bareRuntime = await startBareRuntime(settings.port);
  try {
    for (const connections of connectionCounts) {
      console.log(`Ceiling (${when}): a bare Worker, ${connections} connections, ${settings.duration} s:`);
      const measuredBare = await withRuntimeCpu(
        () => bareRuntime.cpuMs?.() ?? null,
        () =>
          runLoad({
            baseUrl: bareRuntime.baseUrl,
            connections,
            duration: settings.duration,
            expectedStatus: 200,
            request: { method: "GET", path: "/" },
          }),
      );
      log("bare-worker", measuredBare.result, undefined, measuredBare.cpuMsPerRequest);
      bareAt.set(connections, measuredBare);
    }
  } finally {
    await bareRuntime.stop();
  }
  return bareAt;
}

function log(name: string, result: LoadResult, roundTrips?: RoundTrips, cpuMsPerRequest?: number | null) {
  const flag = result.errors > 0 ? `  (${result.errors} errors: ${JSON.stringify(result.statusCounts)})` : "";
  const trips = roundTrips ? `  round trips d1 ${roundTrips.d1} kv ${roundTrips.kv} do ${roundTrips.do}` : "";
  const cpu = cpuMsPerRequest == null ? "" : `  workerd CPU ${cpuMsPerRequest.toFixed(2)} ms/req`;
  console.log(
    `  ${name.padEnd(24)} ${result.requestsPerSecond.toFixed(1).padStart(9)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms${trips}${cpu}${flag}`,
  );
}

const selected = (scenarios: Scenario[]) => (settings.only.length ? scenarios.filter((s) => settings.only.includes(s.name)) : scenarios);

await ensureLocalSigningKey();
mkdirSync(values.out, { recursive: true });
if (values.tenants) {
  // Many tenants ordering at once, each on its store (scripts/bench/tenants.ts): a run of its own.
  const tenantsBundle = buildBenchBundle();
  try {
    const table = await runTenantsBench({
      tenants: positiveInt(values.tenants, "--tenants"),
      duration: settings.duration,
      rttMs: settings.rtts[0] ?? 0,
      port: settings.port,
      bundle: tenantsBundle.file,
    });
    const file = `${values.out}/tenants-${new Date().toISOString().replaceAll(":", "-")}.md`;
    writeFileSync(file, `# npm run bench -- --tenants ${values.tenants}\n\nMachine: ${JSON.stringify(machineFacts())}\n\n${table}\n`);
    console.log(`\n${table}\n\nWritten to ${file}`);
  } finally {
    tenantsBundle.dispose();
  }
  process.exit(0);
}
const startedAt = new Date().toISOString();
const seedSeconds = new Map<number, number | null>();
for (const products of [settings.products, ...settings.scale]) seedSeconds.set(products, await ensureDataset(products));
if (values["seed-only"]) {
  console.log(`Datasets ready: ${[...seedSeconds].map(([n, s]) => `${n} (${s === null ? "cached" : `${s.toFixed(1)} s`})`).join(", ")}`);
  process.exit(0);
}

const bundle = buildBenchBundle();
try {
  // The ceiling at --connections, and at any other connection count a scenario runs at (its share compares with it).
  const connectionCounts = new Set([
    settings.connections,
    ...selected([...CORE_SCENARIOS, ...CATALOG_SEARCH_SCENARIOS, ...ORDER_SCENARIOS]).flatMap((scenario) =>
      scenario.connections === undefined ? [] : [scenario.connections],
    ),
    ...(settings.scale.length > 0 ? [settings.scaleConnections, POPULAR_SEARCH_SCENARIO.connections!] : []),
  ]);
  const bareAtStart = await measureBare(connectionCounts, "start");
  console.log(`Floor: one D1 query per request, ${settings.connections} connections, ${settings.duration} s:`);
  const floorRuntime = await startBareRuntime(settings.port, true);
  let floor: Measured;
  try {
    floor = await withRuntimeCpu(
      () => floorRuntime.cpuMs?.() ?? null,
      () =>
        runLoad({
          baseUrl: floorRuntime.baseUrl,
          connections: settings.connections,
          duration: settings.duration,
          expectedStatus: 200,
          request: { method: "GET", path: "/" },
        }),
    );
    log("one-d1-query", floor.result, undefined, floor.cpuMsPerRequest);
  } finally {
    await floorRuntime.stop();
  }
  const scenarios: ScenarioReport[] = [];
  for (const rttMs of settings.rtts) {
    console.log(
      `Load on ${settings.products.toLocaleString("en-US")} products, rtt ${rttMs} ms, ${settings.connections} connections, ${settings.duration} s each:`,
    );
    await withApp(bundle.file, settings.products, rttMs, async (ctx) => {
      for (const scenario of selected([...CORE_SCENARIOS, ...CATALOG_SEARCH_SCENARIOS, ...ORDER_SCENARIOS])) {
        scenarios.push(await measure(scenario, ctx, settings.duration, rttMs));
      }
    });
  }

  const scale: ScaleReport[] = [];
  for (const products of settings.scale) {
    console.log(
      `Catalog search on ${products.toLocaleString("en-US")} products, rtt 0, ${settings.scaleConnections} connections, ${settings.scaleDuration} s each:`,
    );
    const { reports, relevance } = await withApp(bundle.file, products, 0, async (ctx) => {
      const reports: ScenarioReport[] = [];
      for (const scenario of selected([...CATALOG_SEARCH_SCENARIOS, POPULAR_SEARCH_SCENARIO])) {
        const connections = settings.scaleConnections;
        reports.push(await measure(scenario, ctx, settings.scaleDuration, 0, connections));
      }
      return { reports, relevance: await measureRelevance(ctx) };
    });
    console.log(
      `  precision@10 ${relevance.meanPrecisionAt10}, exact part number first ${relevance.exactFirst.first} of ${relevance.exactFirst.of}`,
    );
    scale.push({ products, seedSeconds: seedSeconds.get(products) ?? null, scenarios: reports, relevance });
  }

  const bareAtEnd = await measureBare(connectionCounts, "end");
  const ceilingAt = (connections: number) =>
    [bareAtStart.get(connections)!, bareAtEnd.get(connections)!].reduce((a, b) =>
      b.result.requestsPerSecond > a.result.requestsPerSecond ? b : a,
    );
  for (const { report, connections } of measured) report.shareOfBare = report.reqPerSec / ceilingAt(connections).result.requestsPerSecond;
  const ceiling = ceilingAt(settings.connections);
  /** A reference Worker's run (not the app's), as a scenario of the report with its share of the ceiling. */
  const reference = (name: string, what: string, run: Measured, d1: number) =>
    scenarioReport({ name, what }, 0, run.result, { d1, kv: 0, do: 0 }, ceiling.result.requestsPerSecond, run.cpuMsPerRequest);
  const bare = reference("bare-worker", "A Worker returning a constant (the ceiling: the higher of the run's start and end)", ceiling, 0);
  const oneD1Query = reference(
    "one-d1-query",
    "A Worker that makes one D1 query and answers a constant (the floor of a D1 read)",
    floor,
    1,
  );
  const bareMeasurements = {
    start: bareAtStart.get(settings.connections)!.result.requestsPerSecond,
    end: bareAtEnd.get(settings.connections)!.result.requestsPerSecond,
  };

  const report: BenchReport = {
    startedAt,
    machine: machineFacts(),
    settings: {
      products: settings.products,
      duration: settings.duration,
      connections: settings.connections,
      scaleConnections: settings.scaleConnections,
      rtts: settings.rtts,
      runtime: "The deploy bundle (wrangler deploy --dry-run) on workerd through Miniflare, no dev proxy",
    },
    bare,
    bareMeasurements,
    oneD1Query,
    scenarios,
    scale,
  };
  const markdown = toMarkdown(report);
  const stamp = startedAt.replace(/[:.]/g, "-");
  for (const name of [`bench-${stamp}`, "latest"]) {
    writeFileSync(`${values.out}/${name}.json`, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(`${values.out}/${name}.md`, markdown);
  }
  console.log(`\n${markdown}\nWritten to ${values.out}/latest.md and latest.json`);
  const failed = [bare, ...scenarios, ...scale.flatMap((row) => row.scenarios)].filter((s) => s.errors > 0 || s.requests === 0);
  if (failed.length > 0) {
    console.error(`Scenarios with errors or no completed request: ${failed.map((s) => `${s.name} (rtt ${s.rttMs})`).join(", ")}`);
    process.exitCode = 1;
  }
} finally {
  bundle.dispose();
}
