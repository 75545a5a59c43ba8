import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createApiClient } from "../src/auth/clients";
import { randomToken } from "../src/auth/secrets";
import { database } from "../src/db/client";
import { fetchToken } from "./bench/client";
import { type LoadResult, runLoad } from "./bench/load";
import { type BenchReport, machineFacts, type ScaleReport, type ScenarioReport, toMarkdown, withBaselineRatio } from "./bench/report";
import { BASELINE, type BenchContext, CATALOG_SEARCH_SCENARIOS, CORE_SCENARIOS, ORDER_SCENARIOS, type Scenario } from "./bench/scenarios";
import { type LocalServer, startServer } from "./bench/server";
import { ensureLocalSigningKey, type LocalState, withLocalBindings } from "./local-platform";
import { seedLocal } from "./seed";

/**
 * `npm run bench`: seeds its own local datasets (under .wrangler/bench/<products>), starts `wrangler dev`
 * on loopback port 8799 and drives it with autocannon from this process. `--smoke` is the few-second
 * CI variant that only proves the harness still works. See docs/benchmarks.md.
 */
const { values } = parseArgs({
  options: {
    products: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    scale: { type: "string", default: "" },
    "scale-duration": { type: "string", default: "5" },
    "order-pool": { type: "string", default: "300" },
    only: { type: "string", default: "" },
    out: { type: "string", default: "bench-results" },
    port: { type: "string", default: "8799" },
    smoke: { type: "boolean", default: false },
    "seed-only": { type: "boolean", default: false },
  },
});

const smoke = values.smoke;
const settings = {
  products: smoke ? 600 : positiveInt(values.products, "--products"),
  duration: smoke ? 1 : positiveInt(values.duration, "--duration"),
  connections: smoke ? 2 : positiveInt(values.connections, "--connections"),
  scaleDuration: positiveInt(values["scale-duration"], "--scale-duration"),
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

/** Load runs must measure the service, not the rate limiter: the bench server gets generous limits. */
const BENCH_VARS: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: "100000000",
  RATE_LIMIT_BURST: "1000000",
  TOKEN_RATE_LIMIT_PER_MINUTE: "100000000",
  TOKEN_RATE_LIMIT_BURST: "1000000",
};

function positiveInt(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} must be a positive integer, got ${text}`);
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
  const migrations = readdirSync("migrations").sort();
  const fingerprint = JSON.stringify({ products, migrations });
  if (existsSync(marker) && readFileSync(marker, "utf8") === fingerprint) return null;
  console.log(`Seeding ${products.toLocaleString("en-US")} products into ${state.dir} ...`);
  const started = Date.now();
  mkdirSync(state.dir, { recursive: true });
  await seedLocal(products, state);
  writeFileSync(marker, fingerprint);
  return (Date.now() - started) / 1000;
}

async function withServer<T>(products: number, work: (server: LocalServer, ctx: BenchContext) => Promise<T>): Promise<T> {
  const state = stateFor(products);
  const credentials = { clientId: "bench-client", clientSecret: randomToken(24) };
  await withLocalBindings((env) => createApiClient(database(env.DB), { tenantId: 1, name: "Benchmark client", ...credentials }), state);
  const server = await startServer({ ...state, port: settings.port, vars: BENCH_VARS, logFile: `${values.out}/wrangler-${products}.log` });
  try {
    const token = await fetchToken(server.baseUrl, credentials.clientId, credentials.clientSecret);
    return await work(server, { baseUrl: server.baseUrl, token, ...credentials, products, orderPool: settings.orderPool });
  } finally {
    await server.stop();
  }
}

async function measure(scenario: Scenario, ctx: BenchContext, duration: number): Promise<LoadResult> {
  const prepared = await scenario.prepare(ctx);
  const result = await runLoad({
    baseUrl: ctx.baseUrl,
    connections: settings.connections,
    duration,
    expectedStatus: scenario.expectedStatus,
    ...prepared,
  });
  const flag = result.errors > 0 ? `  (${result.errors} errors: ${JSON.stringify(result.statusCounts)})` : "";
  console.log(
    `  ${scenario.name.padEnd(24)} ${result.requestsPerSecond.toFixed(1).padStart(9)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms${flag}`,
  );
  return result;
}

const selected = (scenarios: Scenario[]) => (settings.only.length ? scenarios.filter((s) => settings.only.includes(s.name)) : scenarios);

await ensureLocalSigningKey();
mkdirSync(values.out, { recursive: true });
const startedAt = new Date().toISOString();
const seedSeconds = new Map<number, number | null>();
for (const products of [settings.products, ...settings.scale]) seedSeconds.set(products, await ensureDataset(products));
if (values["seed-only"]) {
  console.log(`Datasets ready: ${[...seedSeconds].map(([n, s]) => `${n} (${s === null ? "cached" : `${s.toFixed(1)} s`})`).join(", ")}`);
  process.exit(0);
}

console.log(
  `Load on ${settings.products.toLocaleString("en-US")} products, ${settings.connections} connections, ${settings.duration} s each:`,
);
const { baseline, scenarios } = await withServer(settings.products, async (_server, ctx) => {
  const baselineResult = await measure(BASELINE, ctx, settings.duration);
  const reports: ScenarioReport[] = [];
  for (const scenario of selected([...CORE_SCENARIOS, ...CATALOG_SEARCH_SCENARIOS, ...ORDER_SCENARIOS])) {
    reports.push(
      withBaselineRatio(scenario.name, scenario.what, await measure(scenario, ctx, settings.duration), baselineResult.requestsPerSecond),
    );
  }
  return {
    baseline: withBaselineRatio(BASELINE.name, BASELINE.what, baselineResult, baselineResult.requestsPerSecond),
    scenarios: reports,
  };
});

const scale: ScaleReport[] = [];
for (const products of settings.scale) {
  console.log(`Catalog search on ${products.toLocaleString("en-US")} products, ${settings.scaleDuration} s each:`);
  const rows = await withServer(products, async (_server, ctx) => {
    const reports: ScenarioReport[] = [];
    for (const scenario of selected(CATALOG_SEARCH_SCENARIOS)) {
      reports.push(
        withBaselineRatio(scenario.name, scenario.what, await measure(scenario, ctx, settings.scaleDuration), baseline.requestsPerSecond),
      );
    }
    return reports;
  });
  scale.push({ products, seedSeconds: seedSeconds.get(products) ?? null, scenarios: rows });
}

const report: BenchReport = {
  startedAt,
  machine: machineFacts(),
  settings: { products: settings.products, duration: settings.duration, connections: settings.connections },
  baseline,
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
const failed = [baseline, ...scenarios, ...scale.flatMap((row) => row.scenarios)].filter((s) => s.errors > 0 || s.requests === 0);
if (failed.length > 0) {
  console.error(`Scenarios with errors or no completed request: ${failed.map((s) => s.name).join(", ")}`);
  process.exit(1);
}
