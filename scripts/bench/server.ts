import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { DEV_ENTRY, type LocalState, prepareWhenLive, wranglerDevArgs } from "../dev/local-platform";

/** A `wrangler dev` process on loopback with its own local D1/KV/DO state (load runs, e2e, the crash test). */
export interface LocalServer {
  baseUrl: string;
  stop(): Promise<void>;
  /** SIGKILL to wrangler and its workerd at once: no shutdown hook runs (the crash test). */
  kill(): Promise<void>;
}

export interface ServerOptions extends LocalState {
  port: number;
  /** Extra `--var NAME:VALUE` overrides (e.g. generous rate limits for load runs). */
  vars?: Record<string, string>;
  logFile: string;
  /** Another entry module than the local runtime's (scripts/dev/worker.ts), built on it (the crash test's). */
  entry?: string;
  /** Sees everything the process prints (it also goes to `logFile`). */
  onOutput?: (text: string) => void;
  /** More `wrangler dev` options (a CPU profile's inspector port). */
  wranglerArgs?: string[];
  /** false: answer once it is live, without preparing it (prepareWhenLive); the start's crash test does that itself. */
  prepare?: boolean;
}

export async function startServer(options: ServerOptions): Promise<LocalServer> {
  const varArgs = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const args = [
    ...wranglerDevArgs(String(options.port), options, options.entry ?? DEV_ENTRY),
    ...varArgs,
    ...(options.wranglerArgs ?? []),
    "--log-level",
    "warn",
  ];
  mkdirSync(options.logFile.replace(/\/[^/]+$/, ""), { recursive: true });
  const log = createWriteStream(options.logFile);
  // Own process group, so stopping also ends workerd, which wrangler starts as a child.
  const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env, WRANGLER_SEND_METRICS: "false" };
  const child = spawn("node_modules/.bin/wrangler", args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.pipe(log);
    if (options.onOutput) stream?.on("data", (chunk: Buffer) => options.onOutput?.(chunk.toString()));
  }
  const killOnExit = () => running(child) && process.kill(-child.pid, "SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit)); // restarts (the crash tests) leave no listener behind
  const baseUrl = `http://127.0.0.1:${options.port}`;
  await waitUntilLive(baseUrl, child, options.logFile);
  if (options.prepare !== false) await prepareWhenLive(baseUrl);
  return { baseUrl, stop: () => stopProcessGroup(child), kill: () => killProcessGroup(child) };
}

async function waitUntilLive(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}; see ${logFile}`);
    try {
      const res = await fetch(`${baseUrl}/health/live`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stopProcessGroup(child);
  throw new Error(`wrangler dev did not become live within 90 s; see ${logFile}`);
}

/** Still running: neither exited nor ended by a signal (a killed child keeps exitCode null). */
export const running = (child: ChildProcess): child is ChildProcess & { pid: number } =>
  child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/** SIGKILL to the child's whole process group (wrangler and its workerd); resolves once the child has exited. */
export function killProcessGroup(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGKILL");
  return exited;
}

function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  const forced = setTimeout(() => running(child) && process.kill(-child.pid, "SIGKILL"), 5_000);
  return exited.finally(() => clearTimeout(forced));
}

/** A TCP port free on loopback now, for a local server of its own. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
