import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { convertV4MiniflareOptions } from "miniflare";
import { docsWorkerOptions, type LocalState, seedDemoStoresAt, wrangler } from "../dev/local-platform";

/**
 * The bench's Worker on the production runtime: the bundle `wrangler deploy --dry-run` builds (minified, as
 * uploaded) from scripts/bench/worker.ts, run by workerd through Miniflare's API with wrangler.toml's bindings,
 * and no dev proxy, file watcher or live reload in front of it. Local D1/KV/DO state is the dataset's; the demo
 * tenants' stores are seeded once it answers, as every local runtime's (scripts/dev/seed-route.ts).
 */
export interface BenchRuntime {
  baseUrl: string;
  stop(): Promise<void>;
  /** CPU time (user + system, ms) the runtime's workerd process has used so far; null where /proc is not readable. */
  cpuMs?(): number | null;
}

const BENCH_ENTRY = "scripts/bench/worker.ts";
/** The ceiling: a Worker that answers a constant, on the same runtime, in the same run. */
const BARE_WORKER = `export default { fetch() { return new Response("ok"); } };`;
/**
 * The floor of any request that reads D1 once: a Worker that makes one `SELECT 1` on a local D1 database and answers
 * a constant. Locally a D1 query crosses two more isolates (Miniflare's D1 entry worker and the database's Durable
 * Object), so this is what one round trip costs on this runtime, whatever the app does around it.
 */
const ONE_D1_QUERY_WORKER = `export default { async fetch(request, env) { await env.DB.prepare("SELECT 1").first(); return new Response("ok"); } };`;

/** Builds the bench entry exactly as `wrangler deploy` bundles the production one; returns the module's path. */
export function buildBenchBundle(): { file: string; dispose(): void } {
  const outdir = mkdtempSync(path.join(tmpdir(), "medparts-bench-bundle-"));
  wrangler(["deploy", "--dry-run", "--outdir", outdir, BENCH_ENTRY]);
  return { file: path.join(outdir, "worker.js"), dispose: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** The app logs a line per request; under load that is noise (and costs the harness CPU). Errors still show. */
const printErrorsOnly = (log: { level: string; message: string }) => {
  if (log.level === "error") console.error(log.message);
};

/** Load runs must measure the service, not the rate limiter: the bench runtime gets generous limits. */
export const BENCH_VARS: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: "100000000",
  RATE_LIMIT_BURST: "1000000",
  TOKEN_RATE_LIMIT_PER_MINUTE: "100000000",
  TOKEN_RATE_LIMIT_BURST: "1000000",
};

export interface AppRuntimeOptions {
  bundle: string;
  state: LocalState;
  port: number;
  vars: Record<string, string>;
  /** workerd's inspector port (npm run bench:profile); none by default. */
  inspectorPort?: number;
}

/** The app's runtime, hosted by a child process (scripts/bench/runtime-host.ts). */
export const startAppRuntime = (options: AppRuntimeOptions) => startHosted({ kind: "app", options });

/** The bare Worker's runtime, hosted the same way as the app's. `oneD1Query`: the floor variant (ONE_D1_QUERY_WORKER). */
export const startBareRuntime = (port: number, oneD1Query = false) => startHosted({ kind: "bare", port, oneD1Query });

export type HostedRuntime = { kind: "app"; options: AppRuntimeOptions } | { kind: "bare"; port: number; oneD1Query: boolean };

const HOST_ENTRY = "scripts/bench/runtime-host.ts";
const READY = "READY ";

/**
 * Miniflare's Node side reads and parses every log line workerd prints: in this process that work would take turns
 * with autocannon's event loop, and slow the load generator for the app (which logs a line per request) but not
 * for the bare Worker. Each runtime therefore lives in a child process of its own, as a deployed Worker's logs are
 * handled away from its clients.
 */
async function startHosted(runtime: HostedRuntime): Promise<BenchRuntime> {
  const child = spawn("node_modules/.bin/tsx", [HOST_ENTRY, JSON.stringify(runtime)], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const ready = output.split("\n").find((line) => line.startsWith(READY));
      if (ready) resolve(ready.slice(READY.length).trim());
    });
    child.once("exit", (code) => reject(new Error(`bench runtime host exited with ${code} before it was ready:\n${output}`)));
  });
  child.stdout.resume(); // anything printed later (errors) must not fill the pipe
  let workerd: number | null | undefined;
  return {
    baseUrl,
    cpuMs: () => {
      workerd ??= child.pid === undefined ? null : workerdUnder(child.pid);
      return workerd === null ? null : processCpuMs(workerd);
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The workerd process among the descendants of `root` (the host runs tsx, which runs node, which runs workerd). */
function workerdUnder(root: number): number | null {
  return workerdsUnder(root)[0] ?? null;
}

/**
 * CPU time (user + system, ms) of every workerd process among the descendants of `root` so far (`wrangler dev`'s,
 * under this process: scripts/bench/server.ts); null where /proc is not readable or none runs.
 */
export function workerdsCpuMs(root: number): number | null {
  const times = workerdsUnder(root).map(processCpuMs);
  return times.length === 0 || times.some((ms) => ms === null) ? null : times.reduce<number>((sum, ms) => sum + ms!, 0);
}

/** The workerd processes among the descendants of `root`. */
function workerdsUnder(root: number): number[] {
  try {
    const parentOf = new Map<number, number>();
    const names = new Map<number, string>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        parentOf.set(Number(entry), parent);
        names.set(Number(entry), name);
      } catch {
        // the process ended meanwhile
      }
    }
    const descends = (pid: number): boolean => {
      for (let at = parentOf.get(pid); at !== undefined && at > 1; at = parentOf.get(at)) if (at === root) return true;
      return false;
    };
    return [...names].filter(([pid, name]) => name === "workerd" && descends(pid)).map(([pid]) => pid);
  } catch {
    return [];
  }
}

/** utime + stime of a process (all its threads), in ms; /proc counts in ticks of 10 ms. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const ADMIN_STAND_IN = {
  name: "medparts-admin",
  modules: true,
  script: 'export default { fetch: () => new Response("the operator plane is not part of this bench", { status: 503 }) };',
};

/** Runs in the host process: the app's Worker (and the docs Worker) on workerd through Miniflare. */
export async function runAppRuntime(options: AppRuntimeOptions): Promise<BenchRuntime> {
  const [{ unstable_getMiniflareWorkerOptions }, { convertV4MiniflareOptions, Miniflare }] = await Promise.all([
    import("wrangler"),
    import("miniflare"),
  ]);
  // Source options (module rules, root) describe wrangler's own bundling; the bundle here is already built.
  const { modulesRules: _rules, rootPath: _root, ...workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml").workerOptions;
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const app = {
    ...workerOptions,
    name: "medparts",
    modules: true,
    scriptPath: options.bundle,
    modulesRoot: path.dirname(options.bundle),
    cronTriggers: [],
    bindings: { ...(workerOptions.bindings as Record<string, unknown>), ...options.vars, ISSUER: `${baseUrl}/auth` },
  };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: options.port,
      inspectorPort: options.inspectorPort,
      handleStructuredLogs: printErrorsOnly,
      resourcePersistencePath: path.join(options.state.persistTo ?? ".wrangler/state", "v3"),
      // The first worker serves the port; the docs Worker answers the app's DOCS binding, as deployed. The operator
      // plane (ADMIN binding) is not on the buyer path this bench measures: a stand-in answers 503 for it
      // (npm run bench:import runs the real one under wrangler dev).
      workers: [app, await docsWorkerOptions(), ADMIN_STAND_IN],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  await seedDemoStoresAt(baseUrl);
  return { baseUrl, stop: () => mf.dispose() };
}

/** Runs in the host process: the bare Worker (or its one-D1-query variant, on an in-memory database) through Miniflare. */
export async function runBareRuntime(port: number, oneD1Query: boolean): Promise<BenchRuntime> {
  const { convertV4MiniflareOptions, Miniflare } = await import("miniflare");
  const worker = oneD1Query ? { script: ONE_D1_QUERY_WORKER, d1Databases: { DB: "bench-floor" } } : { script: BARE_WORKER };
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, ...worker, host: "127.0.0.1", port, compatibilityDate: "2026-04-20" }),
  );
  await mf.ready;
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => mf.dispose() };
}
