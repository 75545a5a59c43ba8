import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { catalogHash, createOperatorClient, type ImportJob, OperatorApi } from "../imports/local-import";
import { ensureLocalSigningKey, withLocalBindings } from "../local-platform";
import { seedLocal } from "../seed";
import { writeCatalogFile } from "./catalog-file";
import { createBenchClient, fetchToken } from "./client";
import { runLoad } from "./load";
import { machineFacts } from "./report";
import { BENCH_VARS, buildBenchBundle, startAppRuntime } from "./runtime";
import { type BenchContext, CATALOG_SEARCH_SCENARIOS } from "./scenarios";
import { startServer } from "./server";

/**
 * `npm run bench:import -- --products 1000000`: the catalog import through the Workers on the local runtime
 * (docs/benchmarks.md, "Catalog import"). A fresh state with the 600 demo products; an NDJSON file of --products
 * demo products (scripts/bench/catalog-file.ts); `npm run import` under `wrangler dev` (the API, docs and operator
 * Workers), timed by the server (start to end, validation and apply apart), with workerd's peak resident memory
 * sampled; the same file imported again (nothing to write: the catalog version must stay); then catalog search at 1
 * connection on the bench runtime over the imported catalog, to compare with the seeded catalog's figures.
 */
const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000000" },
    port: { type: "string", default: "8798" },
    "search-duration": { type: "string", default: "4" },
  },
});
const products = Number(values.products);
const port = Number(values.port);
const state = { persistTo: path.join(".wrangler/bench-import", String(products)) };

rmSync(state.persistTo, { recursive: true, force: true });
await ensureLocalSigningKey();
await seedLocal(600, state);
const operator = await createOperatorClient(state, "Import bench operator");
const file = path.join(state.persistTo, "catalog.ndjson");
await writeCatalogFile(file, products);

/** Resident memory of the workerd processes under wrangler (KiB), sampled while `work` runs; the peak. */
async function peakWorkerdRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peak = 0;
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const status = readFileSync(`/proc/${entry}/status`, "utf8");
        if (!/^Name:\s+workerd$/m.test(status)) continue;
        peak = Math.max(peak, Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      } catch {
        // the process ended meanwhile
      }
    }
  };
  const timer = setInterval(sample, 250);
  try {
    return { result: await work(), peakMiB: Math.round(peak / 1024) };
  } finally {
    clearInterval(timer);
  }
}

/** `npm run import` as an operator runs it; the job as the server recorded it. */
async function importOnce(baseUrl: string): Promise<ImportJob> {
  const args = ["scripts/import.ts", file, "--url", baseUrl, "--client-id", operator.clientId, "--client-secret", operator.clientSecret];
  const code = await new Promise<number>((resolve) => {
    const child = spawn("node_modules/.bin/tsx", args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, CI: "true" } });
    child.on("exit", (status) => resolve(status ?? 1));
  });
  if (code !== 0) throw new Error(`npm run import exited with ${code}`);
  const api = await OperatorApi.connect(baseUrl, operator);
  const [latest] = await api.call<{ items: ImportJob[] }>("GET", "/catalog/imports?limit=1").then((page) => page.items);
  return latest!;
}

const seconds = (from: string | null, to: string | null) => (Date.parse(to!) - Date.parse(from!)) / 1000;

async function underWranglerDev<T>(work: (baseUrl: string) => Promise<T>): Promise<T> {
  const server = await startServer({ port, ...state, logFile: path.join(state.persistTo, "wrangler.log") });
  try {
    return await work(server.baseUrl);
  } finally {
    await server.stop();
  }
}

const first = await underWranglerDev((baseUrl) => peakWorkerdRss(() => importOnce(baseUrl)));
const afterFirst = await catalogHash(state);
const again = await underWranglerDev((baseUrl) => peakWorkerdRss(() => importOnce(baseUrl)));
const afterAgain = await catalogHash(state);

// Search over the imported catalog, on the runtime `npm run bench` measures with (the built bundle on workerd).
const credentials = await withLocalBindings(async (env) => {
  const client = await createBenchClient(env, "import-bench-buyer", "Import bench buyer");
  return { clientId: client.clientId, clientSecret: client.clientSecret! };
}, state);
const bundle = buildBenchBundle();
const searches: string[] = [];
try {
  const runtime = await startAppRuntime({ bundle: bundle.file, state, port: port + 1, vars: { ...BENCH_VARS, BENCH_RTT_MS: "0" } });
  try {
    const token = await fetchToken(runtime.baseUrl, credentials.clientId, credentials.clientSecret);
    const ctx: BenchContext = { baseUrl: runtime.baseUrl, token, ...credentials, products, orderPool: 0 };
    for (const scenario of CATALOG_SEARCH_SCENARIOS.filter((s) =>
      ["search-keyword", "search-part-number", "search-facet", "search-deep-offset"].includes(s.name),
    )) {
      const prepared = await scenario.prepare(ctx);
      const result = await runLoad({
        baseUrl: runtime.baseUrl,
        connections: 1,
        duration: Number(values["search-duration"]),
        expectedStatus: 200,
        ...prepared,
      });
      searches.push(`| ${scenario.name} | ${result.p50Ms} / ${result.p99Ms} | ${result.errors} |`);
    }
  } finally {
    await runtime.stop();
  }
} finally {
  bundle.dispose();
}

const row = (label: string, job: ImportJob & { validatedAt?: string | null }, peakMiB: number) => {
  const total = seconds(job.startedAt, job.finishedAt);
  const validation = seconds(job.startedAt, job.validatedAt ?? null);
  return `| ${label} | ${JSON.stringify(job.counts)} | ${total.toFixed(1)} s (validation ${validation.toFixed(1)} s, apply and upkeep ${(total - validation).toFixed(1)} s) | ${Math.round(job.counts.read / total)} | ${peakMiB} MiB |`;
};
const machine = machineFacts();
console.log(`
Catalog import, ${products} products (${machine.cpus}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node})

| Run | Counts | Start to end (server) | Rows/s | workerd peak RSS |
|---|---|---|---:|---:|
${row("first import", first.result, first.peakMiB)}
${row("same file again", again.result, again.peakMiB)}

Catalog version after the first import ${afterFirst.version}, after the second ${afterAgain.version} (${afterFirst.version === afterAgain.version ? "unchanged" : "CHANGED"}); catalog hash ${afterFirst.hash === afterAgain.hash ? "unchanged" : "CHANGED"}; ${afterAgain.products} products.

| Search after the import (1 connection) | p50 / p99 ms | errors |
|---|---:|---:|
${searches.join("\n")}
`);
