import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";
import { cliArgs, ownRuntimePort } from "../cli";
import { ADMIN_WRANGLER_CONFIG, ensureLocalSigningKey, withLocalBindings } from "../dev/local-platform";
import { seedLocal } from "../dev/seed";
import { catalogHash, createOperatorClient, type ImportJob, jobPhase, OperatorApi } from "../tools/local-import";
import { writeCatalogFile } from "./catalog-file";
import { createBenchClient, fetchToken } from "./client";
import { type CpuProfile, inspectorWebSocket, sampleTimes, startCpuProfile, topSelfTime } from "./cpu-profile";
import { runLoad } from "./load";
import { machineSummary } from "./report";
import { BENCH_VARS, buildBenchBundle, startAppRuntime } from "./runtime";
import { type BenchContext, CATALOG_SEARCH_SCENARIOS } from "./scenarios";
import { figures, formatFigures, SEARCH_KINDS, type SearchSample, sampleIdle, sampleSearches, searchRequests } from "./search-during";
import { startServer } from "./server";

/**
 * `npm run bench:import -- --products 1000000`: the catalog import through the Workers on the local runtime
 * (docs/benchmarks.md, "Catalog import"). A fresh state with the 600 demo products; an NDJSON file of --products
 * demo products (scripts/bench/catalog-file.ts); `npm run import` under `wrangler dev` (the API, docs and operator
 * Workers), timed by the server (start to end, validation and apply apart), with workerd's peak resident memory
 * sampled; the same file imported again (nothing to write: the catalog version must stay); then catalog search at 1
 * connection on the bench runtime over the imported catalog, to compare with the seeded catalog's figures.
 */
const { values } = cliArgs(
  "bench:import",
  "Imports a generated catalog file on the local runtime, twice, sampling searches meanwhile; reports rows/s and search latency.",
  {
    // Import alone, no searches sampled meanwhile (what the searches cost the import).
    products: { type: "string", default: "1000000", help: "products in the file", value: "<n>" },
    port: ownRuntimePort("8798", "bench"),
    "search-duration": { type: "string", default: "4", help: "seconds of search measurement after the import", value: "<s>" },
    "no-searches": { type: "boolean", default: false, help: "import alone, no searches sampled meanwhile" },
    profile: { type: "boolean", default: false, help: "a CPU profile of the first import: each phase's functions with the most self time" },
  },
);
const products = Number(values.products);
const port = Number(values.port);
const state = { persistTo: path.join(".wrangler/bench-import", String(products)) };

rmSync(state.persistTo, { recursive: true, force: true });
await ensureLocalSigningKey();
await seedLocal(600, state);
const operator = await createOperatorClient(state, "Import bench operator");
const file = path.join(state.persistTo, "catalog.ndjson");
await writeCatalogFile(file, products);

/**
 * Resident memory of the workerd processes under wrangler, sampled every 250 ms while `work` runs: the peak (MiB), at
 * that sample how much was anonymous (heaps, SQLite's page caches) and how much mapped files (RssFile, RssShmem), and
 * the highest sample in each phase of the job (`phaseNow`).
 */
async function peakWorkerdRss<T>(
  work: () => Promise<T>,
  phaseNow: () => string,
): Promise<{ result: T; peakMiB: number; peakParts: string; peakByPhase: Map<string, number> }> {
  let peak = { rss: 0, anon: 0, file: 0, shmem: 0 };
  const peakByPhase = new Map<string, number>();
  const kib = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const status = readFileSync(`/proc/${entry}/status`, "utf8");
        if (!/^Name:\s+workerd$/m.test(status)) continue;
        const now = {
          rss: kib(status, "VmRSS"),
          anon: kib(status, "RssAnon"),
          file: kib(status, "RssFile"),
          shmem: kib(status, "RssShmem"),
        };
        if (now.rss > peak.rss) peak = now;
        const phase = phaseNow();
        peakByPhase.set(phase, Math.max(peakByPhase.get(phase) ?? 0, Math.round(now.rss / 1024)));
      } catch {
        // the process ended meanwhile
      }
    }
  };
  const timer = setInterval(sample, 250);
  const mib = (k: number) => Math.round(k / 1024);
  try {
    const result = await work();
    return {
      result,
      peakMiB: mib(peak.rss),
      peakParts: `anonymous ${mib(peak.anon)}, file ${mib(peak.file)}, shared ${mib(peak.shmem)}`,
      peakByPhase,
    };
  } finally {
    clearInterval(timer);
  }
}

/** `npm run import` as an operator runs it; the job as the server recorded it. */
async function importOnce(baseUrl: string, file: string): Promise<ImportJob> {
  const args = [
    "scripts/tools/import.ts",
    file,
    "--url",
    baseUrl,
    `--client-id=${operator.clientId}`,
    `--client-secret=${operator.clientSecret}`,
  ];
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

let servers = 0;
const INSPECTOR_PORT = port + 2;
// Profiled: wrangler's inspector proxy on a known port (frames are named through the bundle's source map).
const profileArgs = values.profile ? ["--inspector-port", String(INSPECTOR_PORT)] : [];
async function underWranglerDev<T>(work: (baseUrl: string) => Promise<T>): Promise<T> {
  // No rate limit: the searches sampled during the import are one client's back to back. A log per server start.
  const logFile = path.join(state.persistTo, `wrangler-${++servers}.log`);
  const server = await startServer({ port, ...state, vars: BENCH_VARS, logFile, wranglerArgs: profileArgs });
  try {
    return await work(server.baseUrl);
  } finally {
    await server.stop();
  }
}

/** The catalog database's file: the local D1 database with the import jobs' table. */
function catalogDatabaseFile(): string {
  const dir = path.join(state.persistTo, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir)
    .filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")
    .map((name) => path.join(dir, name))
    .find((candidate) => {
      const db = new DatabaseSync(candidate, { readOnly: true });
      try {
        return db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'catalog_imports'").get() !== undefined;
      } finally {
        db.close();
      }
    });
  if (!file) throw new Error(`no catalog database in ${dir}`);
  return file;
}

/** The file's size and what of it is in use (the rest: pages a dropped version freed, kept for reuse), in MiB. */
function databaseSize(file: string) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const pragma = (name: string) => Number((db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[name]);
    const pageSize = pragma("page_size");
    const mib = (pages: number) => Math.round((pages * pageSize) / 1024 / 1024);
    return { fileMiB: mib(pragma("page_count")), inUseMiB: mib(pragma("page_count") - pragma("freelist_count")) };
  } finally {
    db.close();
  }
}

// Searches during the imports, by a buyer of the local state (made before wrangler dev opens it).
const buyer = await withLocalBindings(async (env) => {
  const client = await createBenchClient(env, "import-bench-buyer", "Import bench buyer");
  return { clientId: client.clientId, clientSecret: client.clientSecret! };
}, state);

interface Run {
  job: ImportJob;
  peakMiB: number;
  peakParts: string;
  /** workerd's highest resident memory (MiB) sampled in each phase of the job. */
  peakByPhase: Map<string, number>;
  idle: SearchSample[];
  during: SearchSample[];
  idleAfter: SearchSample[];
  /** Seconds the job spent in each phase, as the poller saw it (every 250 ms). */
  phaseSeconds: Map<string, number>;
  /** With --profile, the first import's: per phase, the functions with the most self time. */
  profileByPhase?: string[];
}

/** Idle searches, then the import with searches all along (each labelled with the job's phase), then idle again. */
async function importWithSearches(baseUrl: string, liveProducts: number, file: string, profile = false): Promise<Run> {
  // wrangler dev's inspector proxy, attached to the operator Worker (where the import's Workflow steps run).
  const profiler = profile ? await startCpuProfile(await inspectorWebSocket(INSPECTOR_PORT), 1000) : null;
  const token = await fetchToken(baseUrl, buyer.clientId, buyer.clientSecret);
  const requests = await searchRequests({ baseUrl, token, ...buyer, products: liveProducts, orderPool: 0 });
  const idleSeconds = Number(values["search-duration"]);
  const idle = await sampleIdle(baseUrl, requests, idleSeconds);
  const api = await OperatorApi.connect(baseUrl, operator);
  let phase = "starting";
  let polling = true;
  const phaseSeconds = new Map<string, number>();
  const phaseChanges = [{ phase, at: Date.now() }];
  const heapByPhase = new Map<string, { usedMiB: number; heldMiB: number }>();
  const poller = (async () => {
    let seenAt = Date.now();
    while (polling) {
      const [job] = (await api.call<{ items: ImportJob[] }>("GET", "/catalog/imports?limit=1")).items;
      const now = Date.now();
      phaseSeconds.set(phase, (phaseSeconds.get(phase) ?? 0) + (now - seenAt) / 1000);
      seenAt = now;
      if (job && jobPhase(job) !== phase) {
        phase = jobPhase(job);
        phaseChanges.push({ phase, at: now });
      }
      if (profiler) {
        const heap = await profiler.heapUsage();
        const highest = heapByPhase.get(phase) ?? { usedMiB: 0, heldMiB: 0 };
        heapByPhase.set(phase, { usedMiB: Math.max(highest.usedMiB, heap.usedMiB), heldMiB: Math.max(highest.heldMiB, heap.heldMiB) });
      }
      await sleep(250);
    }
  })();
  const importing = peakWorkerdRss(
    () => importOnce(baseUrl, file),
    () => phase,
  );
  const during = values["no-searches"] ? [] : await sampleSearches(baseUrl, requests, importing, () => phase);
  const { result: job, peakMiB, peakParts, peakByPhase } = await importing;
  polling = false;
  await poller;
  const cpuProfile = profiler ? await profiler.stop() : null;
  // For Chrome DevTools (Performance, Load profile) as well as the summary below.
  if (cpuProfile) writeFileSync(path.join(state.persistTo, "first-import.cpuprofile"), JSON.stringify(cpuProfile));
  const profileByPhase = cpuProfile
    ? [
        `The operator Worker's V8 heap, highest per phase (MiB used / held): ${[...heapByPhase].map(([name, heap]) => `${name} ${heap.usedMiB} / ${heap.heldMiB}`).join(", ")}`,
        "",
        ...summarizeByPhase(cpuProfile, profiler!.startedAt, phaseChanges, operatorDevBundle()),
      ]
    : undefined;
  const idleAfter = await sampleIdle(baseUrl, requests, idleSeconds);
  phaseSeconds.delete("starting");
  const searched = during.filter((s) => s.during !== "succeeded");
  return { job, peakMiB, peakParts, peakByPhase, idle, during: searched, idleAfter, phaseSeconds, profileByPhase };
}

/**
 * The operator Worker's bundle that wrangler dev runs (the newest it wrote), with its source map beside it. That Worker
 * runs the import's Workflow, and with these three configurations wrangler's inspector proxy was seen attached to it.
 */
function operatorDevBundle(): string | undefined {
  const dir = path.join(path.dirname(ADMIN_WRANGLER_CONFIG), ".wrangler/tmp");
  return readdirSync(dir)
    .filter((name) => name.startsWith("dev-"))
    .map((name) => path.join(dir, name, "index.js"))
    .filter((file) => existsSync(`${file}.map`) && readFileSync(`${file}.map`, "utf8").includes("src/operator/index.ts"))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** Each phase's samples (by the time the poller saw it begin) and the functions with the most self time in them. */
function summarizeByPhase(profile: CpuProfile, startedAt: number, changes: { phase: string; at: number }[], bundle?: string): string[] {
  const times = sampleTimes(profile, startedAt);
  const phaseAt = (time: number) => changes.findLast((change) => change.at <= time)?.phase ?? changes[0]!.phase;
  const phases = times.map(phaseAt);
  return [...new Set(phases)].flatMap((phase) => {
    const { samples, lines } = topSelfTime(profile, 15, { keep: (index) => phases[index] === phase, bundle });
    return [`${phase} (${samples} samples of about 1 ms)`, ...lines.map((line) => `  ${line}`)];
  });
}

const first = await underWranglerDev((baseUrl) => importWithSearches(baseUrl, 600, file, values.profile));
const afterFirst = await catalogHash(state);
const sizeAfterFirst = databaseSize(catalogDatabaseFile());
// The same file: its result is taken (src/operator/imports/same-file.ts). The same rows with a blank line more: every
// row read, hashed and found unchanged (the row path).
const again = await underWranglerDev((baseUrl) => importWithSearches(baseUrl, afterFirst.products, file));
const afterAgain = await catalogHash(state);
const otherBytes = path.join(state.persistTo, "catalog-blank-line-more.ndjson");
copyFileSync(file, otherBytes);
appendFileSync(otherBytes, "\n");
const rowPath = await underWranglerDev((baseUrl) => importWithSearches(baseUrl, afterFirst.products, otherBytes));
const afterRowPath = await catalogHash(state);

// Search over the imported catalog, on the runtime `npm run bench` measures with (the built bundle on workerd).
const bundle = buildBenchBundle();
const searches: string[] = [];
try {
  const runtime = await startAppRuntime({ bundle: bundle.file, state, port: port + 1, vars: { ...BENCH_VARS, BENCH_RTT_MS: "0" } });
  try {
    const token = await fetchToken(runtime.baseUrl, buyer.clientId, buyer.clientSecret);
    const ctx: BenchContext = { baseUrl: runtime.baseUrl, token, ...buyer, products, orderPool: 0 };
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

const row = (label: string, { job, peakMiB, peakParts }: Run) => {
  const total = seconds(job.startedAt, job.finishedAt);
  const validation = seconds(job.startedAt, job.validatedAt ?? null);
  return `| ${label} | ${JSON.stringify(job.counts)} | ${total.toFixed(1)} s (validation ${validation.toFixed(1)} s, apply and upkeep ${(total - validation).toFixed(1)} s) | ${Math.round(job.counts.read / total)} | ${peakMiB} MiB (${peakParts}) |`;
};

/** Search figures of a run: per kind idle before, during and idle after; then during, per phase of the job. */
function searchTable(label: string, run: Run): string {
  const byKind = SEARCH_KINDS.map((kind) => {
    const of = (samples: SearchSample[]) => formatFigures(figures(samples.filter((s) => s.kind === kind)));
    return `| ${kind} | ${of(run.idle)} | ${of(run.during)} | ${of(run.idleAfter)} |`;
  });
  const phases = [...new Set(run.during.map((s) => s.during))];
  const byPhase = phases.map((phase) => `| ${phase} | ${formatFigures(figures(run.during.filter((s) => s.during === phase)))} |`);
  return [
    `Searches during the ${label} (ms: p50 / p99 / max (answers)), one connection, every answer computed`,
    "",
    "| Search | idle before | during the import | idle after |",
    "|---|---|---|---|",
    ...byKind,
    "",
    "| Phase of the import | all three searches |",
    "|---|---|",
    ...byPhase,
  ].join("\n");
}

const phaseLine = (run: Run) =>
  [...run.phaseSeconds].map(([phase, s]) => `${phase} ${s.toFixed(1)} s (peak ${run.peakByPhase.get(phase) ?? "-"} MiB)`).join(", ");

const finalSize = databaseSize(catalogDatabaseFile());
console.log(`
Catalog import, ${products} products (${machineSummary()})

| Run | Counts | Start to end (server) | Rows/s | workerd peak RSS |
|---|---|---|---:|---:|
${row("first import", first)}
${row("same file again (its result taken)", again)}
${row("same rows, a blank line more (every row read)", rowPath)}

Phases of the first import (s, as polled): ${phaseLine(first)}
Phases of the second: ${phaseLine(again)}
Phases of the third: ${phaseLine(rowPath)}

The second took the result of ${again.job.sameFilesAs === first.job.id ? "the first" : `${again.job.sameFilesAs} (NOT the first)`}; the third ${rowPath.job.sameFilesAs === null ? "read its rows" : `took the result of ${rowPath.job.sameFilesAs}`}.
Catalog version after the first import ${afterFirst.version}, after the second ${afterAgain.version}, after the third ${afterRowPath.version} (${afterFirst.version === afterAgain.version && afterAgain.version === afterRowPath.version ? "unchanged" : "CHANGED"}); catalog hash ${afterFirst.hash === afterAgain.hash && afterAgain.hash === afterRowPath.hash ? "unchanged" : "CHANGED"}; ${afterRowPath.products} products.

Catalog database after the first import: file ${sizeAfterFirst.fileMiB} MiB (the peak: both versions and the staging), in use ${sizeAfterFirst.inUseMiB} MiB (one version); after the second: file ${finalSize.fileMiB} MiB, in use ${finalSize.inUseMiB} MiB.

${searchTable("first import", first)}
${first.profileByPhase ? `\nCPU profile of the first import, by phase (self time of the operator Worker's isolate):\n\n${first.profileByPhase.join("\n")}\n` : ""}
${searchTable("same file again", again)}

${searchTable("same rows, a blank line more", rowPath)}

| Search after the import (1 connection, bench runtime) | p50 / p99 ms | errors |
|---|---:|---:|
${searches.join("\n")}
`);
