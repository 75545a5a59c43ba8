import { readFileSync } from "node:fs";
import path from "node:path";
import { cliArgs } from "../cli";
import { withLocalBindings } from "../local-platform";
import { BENCH_CLIENT_TENANT, createBenchClient, fetchToken } from "./client";
import { runLoad } from "./load";
import { BENCH_VARS, buildBenchBundle, runAppRuntime } from "./runtime";
import {
  type BenchContext,
  CATALOG_SEARCH_SCENARIOS,
  CORE_SCENARIOS,
  ORDER_SCENARIOS,
  POPULAR_SEARCH_SCENARIO,
  type Scenario,
} from "./scenarios";
import { BENCH_SWITCH_PATH } from "./switch";

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
    // Profile the bench client's tenant served from its stores (the switch of `npm run bench -- --tenants`).
    scenario: { type: "string", default: "search-popular", help: "the request scenario (the names of npm run bench)", value: "<name>" },
    products: { type: "string", default: "10000", help: "catalog size (as npm run bench seeded it)", value: "<n>" },
    duration: { type: "string", default: "5", help: "seconds of load while profiling", value: "<s>" },
    connections: { type: "string", default: "10", help: "concurrent connections", value: "<n>" },
    top: { type: "string", default: "30", help: "functions listed", value: "<n>" },
    switch: { type: "boolean", default: false, help: "the bench client's tenant served from its stores" },
  },
);
const PORT = 8797;
const INSPECTOR_PORT = 9231;
const scenarios: Scenario[] = [...CORE_SCENARIOS, ...CATALOG_SEARCH_SCENARIOS, POPULAR_SEARCH_SCENARIO, ...ORDER_SCENARIOS];
const scenario = scenarios.find((s) => s.name === values.scenario);
if (!scenario) throw new Error(`unknown scenario ${values.scenario}; one of ${scenarios.map((s) => s.name).join(", ")}`);

const state = { persistTo: `.wrangler/bench/${values.products}` };
const credentials = await withLocalBindings((env) => createBenchClient(env, "bench-profile-client", "Profile client"), state);

const bundle = buildBenchBundle();
const baseUrl = `http://127.0.0.1:${PORT}`;
const runtime = await runAppRuntime({
  bundle: bundle.file,
  state,
  port: PORT,
  inspectorPort: INSPECTOR_PORT,
  vars: { ...BENCH_VARS, BENCH_RTT_MS: "0" },
});

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

try {
  if (values.switch) {
    const res = await fetch(`${baseUrl}${BENCH_SWITCH_PATH}?tenant=${BENCH_CLIENT_TENANT}`, { method: "POST" });
    if (!res.ok) throw new Error(`switching tenant ${BENCH_CLIENT_TENANT} answered ${res.status}: ${await res.text()}`);
  }
  const token = await fetchToken(baseUrl, credentials.clientId, credentials.clientSecret);
  const ctx: BenchContext = {
    baseUrl,
    token,
    ...credentials,
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

  const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()) as { id: string; title: string }[];
  const target = targets.find((t) => t.title.includes("medparts") && !t.title.includes("docs")) ?? targets[0]!;
  const ws = new WebSocket(`ws://127.0.0.1:${INSPECTOR_PORT}/${target.id}`);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  ws.addEventListener("message", (event: MessageEvent) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 100 });
  await call("Profiler.start");
  const result = await load(Number(values.duration), Number(values.connections));
  const { profile } = (await call("Profiler.stop")) as { profile: { nodes: ProfileNode[] } };
  ws.close();

  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const selfByFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const key = `${functionName || "(anonymous)"} ${path.basename(url)}:${lineNumber + 1}:${columnNumber + 1}`;
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + (node.hitCount ?? 0));
  }
  console.log(`${scenario.name}: ${result.requestsPerSecond.toFixed(1)} req/s, ${total} samples`);
  // The bundle is minified: each row shows the start of the function's code, to find it in the source.
  const lines = readFileSync(bundle.file, "utf8").split("\n");
  for (const [key, hits] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    const at = /worker\.js:(\d+):(\d+)$/.exec(key);
    const code = at ? (lines[Number(at[1]) - 1] ?? "").slice(Number(at[2]) - 1, Number(at[2]) + 99) : "";
    console.log(`${((100 * hits) / total).toFixed(1).padStart(5)} %  ${key}  ${code}`);
  }
} finally {
  await runtime.stop();
  bundle.dispose();
}
