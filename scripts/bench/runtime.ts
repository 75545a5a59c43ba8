import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { DOCS_WRANGLER_CONFIG, type LocalState, wrangler } from "../local-platform";

/**
 * The bench's Worker on the production runtime: the bundle `wrangler deploy --dry-run` builds (minified, as
 * uploaded) from scripts/bench/worker.ts, run by workerd through Miniflare's API with wrangler.toml's bindings,
 * and no dev proxy, file watcher or live reload in front of it. Local D1/KV/DO state is the dataset's.
 */
export interface BenchRuntime {
  baseUrl: string;
  stop(): Promise<void>;
}

const BENCH_ENTRY = "scripts/bench/worker.ts";
/** The ceiling: a Worker that answers a constant, on the same runtime, in the same run. */
const BARE_WORKER = `export default { fetch() { return new Response("ok"); } };`;

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

export async function startAppRuntime(options: {
  bundle: string;
  state: LocalState;
  port: number;
  vars: Record<string, string>;
}): Promise<BenchRuntime> {
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
      handleStructuredLogs: printErrorsOnly,
      resourcePersistencePath: path.join(options.state.persistTo ?? ".wrangler/state", "v3"),
      // The first worker serves the port; the docs Worker answers the app's DOCS binding, as deployed.
      workers: [app, docsWorker()],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  return { baseUrl, stop: () => mf.dispose() };
}

/** The assets-only /docs Worker (docs-worker/wrangler.toml); Miniflare wants a script, which its asset router never calls. */
function docsWorker() {
  const { assets, compatibilityDate } = unstable_getMiniflareWorkerOptions(DOCS_WRANGLER_CONFIG).workerOptions;
  return { name: "medparts-docs", modules: true, script: "export default {};", compatibilityDate, assets };
}

export async function startBareRuntime(port: number): Promise<BenchRuntime> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, script: BARE_WORKER, host: "127.0.0.1", port, compatibilityDate: "2026-04-20" }),
  );
  await mf.ready;
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => mf.dispose() };
}
