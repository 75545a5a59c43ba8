import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SourceMapConsumer } from "source-map-js";

/**
 * V8's sampling CPU profiler through a workerd inspector (the Chrome DevTools protocol over a WebSocket): started by
 * `startCpuProfile`, summarized as the functions with the most self time. `npm run bench:profile` profiles a request
 * scenario; `npm run bench:import -- --profile` a whole import, phase by phase.
 */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  /** Microseconds of V8's monotonic clock. */
  startTime: number;
  endTime: number;
  /** The node sampled each time, and the microseconds since the previous sample. */
  samples: number[];
  timeDeltas: number[];
}

export interface RunningProfile {
  /** Date.now() when the profiler started: sample times are counted from it. */
  startedAt: number;
  /** The isolate's V8 heap now: what its objects use and what the heap holds, in MiB. */
  heapUsage(): Promise<{ usedMiB: number; heldMiB: number }>;
  stop(): Promise<CpuProfile>;
}

/**
 * The WebSocket of an inspector's target (its `/json` list on `port`): the first whose title `prefer` accepts, else
 * the first. workerd lists a target per Worker; wrangler dev's proxy lists the one Worker it is attached to.
 */
export async function inspectorWebSocket(port: number, prefer: (title: string) => boolean = () => true): Promise<string> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { title: string; webSocketDebuggerUrl: string }[];
  const target = targets.find((t) => prefer(t.title)) ?? targets[0];
  if (!target) throw new Error(`the inspector on port ${port} lists no target`);
  return target.webSocketDebuggerUrl;
}

/** Starts the profiler on the inspector's WebSocket (`ws://127.0.0.1:<port>/...`), sampling every `intervalUs`. */
export async function startCpuProfile(webSocketUrl: string, intervalUs: number): Promise<RunningProfile> {
  // wrangler's inspector proxy refuses an upgrade without an Origin (Node's WebSocket sends none); undici takes headers.
  const ws = new WebSocket(webSocketUrl, { headers: { Origin: "http://localhost" } } as unknown as string[]);
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
  await call("Profiler.setSamplingInterval", { interval: intervalUs });
  await call("Profiler.start");
  const startedAt = Date.now();
  return {
    startedAt,
    async heapUsage() {
      const { usedSize, totalSize } = (await call("Runtime.getHeapUsage")) as { usedSize: number; totalSize: number };
      return { usedMiB: Math.round(usedSize / 2 ** 20), heldMiB: Math.round(totalSize / 2 ** 20) };
    },
    async stop() {
      const { profile } = (await call("Profiler.stop")) as { profile: CpuProfile };
      ws.close();
      return profile;
    },
  };
}

/** Each sample's wall-clock time (ms since the epoch), given when the profiler started. */
export function sampleTimes(profile: CpuProfile, startedAt: number): number[] {
  let at = profile.startTime;
  return profile.timeDeltas.map((delta) => {
    at += delta;
    return startedAt + (at - profile.startTime) / 1000;
  });
}

/**
 * The `top` functions by self time among the samples `keep` selects (by index), one line each: the share, then the
 * function with its file, line and column. A frame in `bundle` (the Worker's bundle, minified) is named through the
 * source map beside it (`<bundle>.map`): its source file and line, and the name the minifier took away. V8's own
 * entries are among them: "(idle)" is time outside JavaScript (SQLite, I/O, waiting), "(garbage collector)" and
 * "(program)" its own work.
 */
export function topSelfTime(
  profile: CpuProfile,
  top: number,
  options: { keep?: (sampleIndex: number) => boolean; bundle?: string } = {},
): { samples: number; lines: string[] } {
  const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const name = frameNamer(options.bundle);
  const hitsByFunction = new Map<string, number>();
  let samples = 0;
  profile.samples.forEach((nodeId, index) => {
    if (options.keep && !options.keep(index)) return;
    const frame = frameOf.get(nodeId);
    if (!frame) return;
    const key = name(frame);
    hitsByFunction.set(key, (hitsByFunction.get(key) ?? 0) + 1);
    samples++;
  });
  const lines = [...hitsByFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, hits]) => `${((100 * hits) / Math.max(samples, 1)).toFixed(1).padStart(5)} %  ${key}`);
  return { samples, lines };
}

type CallFrame = CpuProfile["nodes"][number]["callFrame"];

/** How a frame is shown: through the bundle's source map when it is in the bundle and the map has it. */
function frameNamer(bundle: string | undefined): (frame: CallFrame) => string {
  const plain = (frame: CallFrame) =>
    `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
  if (!bundle || !existsSync(`${bundle}.map`)) return plain;
  const map = new SourceMapConsumer(JSON.parse(readFileSync(`${bundle}.map`, "utf8")));
  const bundleName = path.basename(bundle);
  return (frame) => {
    if (path.basename(frame.url) !== bundleName) return plain(frame);
    const original = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    if (!original.source) return plain(frame);
    const source = original.source.replace(/^(\.\.\/)+/, "");
    return `${original.name ?? (frame.functionName || "(anonymous)")} ${source}:${original.line}`;
  };
}
