import os from "node:os";
import type { RelevanceSummary } from "../../src/dev/seed/judged-queries";
import type { LoadResult } from "./load";
import type { RoundTrips } from "./probe";

export interface ScenarioReport {
  name: string;
  what: string;
  /** The delay the bench's Worker added to every D1, KV and Durable Object call (a distant primary). */
  rttMs: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  requests: number;
  statusCounts: Record<string, number>;
  /** req/s relative to the bare Worker measured in the same run (the ceiling). */
  shareOfBare: number;
  /** Sequential round trips of one request, per service (mean over ROUND_TRIP_SAMPLES requests sent one at a time). */
  roundTrips: RoundTrips;
  /** CPU time of the runtime's workerd process (all its isolates, local D1 included) per answered request; null off Linux. */
  runtimeCpuMsPerRequest: number | null;
}

export interface ScaleReport {
  products: number;
  seedSeconds: number | null;
  scenarios: ScenarioReport[];
  /** precision@10 of the judged query set on this dataset. */
  relevance: RelevanceSummary;
}

export interface BenchReport {
  startedAt: string;
  machine: { cpus: string; cores: number; memoryGiB: number; node: string; platform: string };
  settings: { products: number; duration: number; connections: number; scaleConnections?: number; rtts: number[]; runtime: string };
  bare: ScenarioReport;
  /** The bare Worker's req/s at --connections at the start and at the end of the run; `bare` is the higher. */
  bareMeasurements?: { start: number; end: number };
  /** A Worker that makes one D1 query and answers a constant: the floor of every scenario that reads D1 at all. */
  oneD1Query?: ScenarioReport;
  scenarios: ScenarioReport[];
  scale: ScaleReport[];
}

export function machineFacts(): BenchReport["machine"] {
  const cpus = os.cpus();
  return {
    cpus: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** This machine in one line: processor, cores, memory and Node. */
export function machineSummary(): string {
  const machine = machineFacts();
  return `${machine.cpus}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}`;
}

export function scenarioReport(
  scenario: { name: string; what: string },
  rttMs: number,
  result: LoadResult,
  roundTrips: RoundTrips,
  bareReqPerSec: number,
  runtimeCpuMsPerRequest: number | null = null,
): ScenarioReport {
  return {
    name: scenario.name,
    what: scenario.what,
    rttMs,
    reqPerSec: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.errors,
    requests: result.requests,
    statusCounts: result.statusCounts,
    shareOfBare: bareReqPerSec > 0 ? result.requestsPerSecond / bareReqPerSec : 0,
    roundTrips,
    runtimeCpuMsPerRequest,
  };
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const trips = (r: RoundTrips) => `${r.d1} / ${r.kv} / ${r.do}`;
const cpu = (s: ScenarioReport) => (s.runtimeCpuMsPerRequest == null ? "n/a" : fixed(s.runtimeCpuMsPerRequest, 2));

export function toMarkdown(report: BenchReport): string {
  const m = report.machine;
  const rtts = report.settings.rtts;
  const names = [...new Set(report.scenarios.map((s) => s.name))];
  const cell = (name: string, rtt: number) => report.scenarios.find((s) => s.name === name && s.rttMs === rtt);
  const lines = [
    `Run ${report.startedAt} on ${m.cpus} (${m.cores} cores, ${m.memoryGiB} GiB), Node ${m.node}, ${m.platform}.`,
    `${report.settings.runtime}. Catalog: ${report.settings.products.toLocaleString("en-US")} products; ${report.settings.connections} connections; ${report.settings.duration} s per scenario.`,
    `Ceiling: a bare Worker answering a constant on the same runtime, ${fixed(report.bare.reqPerSec)} req/s (p50 ${fixed(report.bare.p50Ms)} ms, workerd CPU ${cpu(report.bare)} ms/req)${
      report.bareMeasurements
        ? `, the higher of its runs at the start (${fixed(report.bareMeasurements.start)} req/s) and at the end (${fixed(report.bareMeasurements.end)} req/s)`
        : ""
    }.`,
    ...(report.oneD1Query
      ? [
          `Floor of one D1 round trip: a Worker that makes one \`SELECT 1\` on a local D1 database and answers a constant, ${fixed(report.oneD1Query.reqPerSec)} req/s (p50 ${fixed(report.oneD1Query.p50Ms)} ms, workerd CPU ${cpu(report.oneD1Query)} ms/req), ${fixed(report.oneD1Query.shareOfBare * 100)} % of the bare Worker: no scenario that reads D1 can go above it on this runtime.`,
        ]
      : []),
    "Round trips: sequential calls of one request to D1 / KV / Durable Objects. workerd CPU: user + system time of the runtime's workerd process (all its isolates, local D1 included) per answered request, steadier than req/s on a shared machine.",
    "",
    `| Scenario | What | round trips D1 / KV / DO | ${rtts.map((r) => `rtt ${r}: req/s | p50 ms | p99 ms | share of bare | workerd CPU ms/req`).join(" | ")} | errors |`,
    `|---|---|---:|${rtts.map(() => "---:|---:|---:|---:|---:").join("|")}|---:|`,
    ...names.map((name) => {
      const rows = rtts.map((rtt) => cell(name, rtt));
      const first = rows.find(Boolean)!;
      const cells = rows.map((s) =>
        s ? `${fixed(s.reqPerSec)} | ${fixed(s.p50Ms)} | ${fixed(s.p99Ms)} | ${fixed(s.shareOfBare * 100)} % | ${cpu(s)}` : " | | | | ",
      );
      const errors = rows.reduce((sum, s) => sum + (s?.errors ?? 0), 0);
      return `| ${name} | ${first.what} | ${trips(first.roundTrips)} | ${cells.join(" | ")} | ${errors} |`;
    }),
  ];
  if (report.scale.length > 0) {
    const scaleNames = report.scale[0]!.scenarios.map((s) => s.name);
    lines.push(
      "",
      `Catalog search latency by catalog size, rtt 0, ${report.settings.scaleConnections ?? 1} connection(s) (search-popular: 10) (p50 / p99 ms):`,
      "",
      `| Products | Seed s | ${scaleNames.join(" | ")} |`,
      `|---:|---:|${scaleNames.map(() => "---:").join("|")}|`,
      ...report.scale.map(
        (row) =>
          `| ${row.products.toLocaleString("en-US")} | ${row.seedSeconds === null ? "cached" : fixed(row.seedSeconds)} | ${row.scenarios
            .map((s) => `${fixed(s.p50Ms)} / ${fixed(s.p99Ms)}`)
            .join(" | ")} |`,
      ),
    );
    lines.push(
      "",
      "Share of the bare Worker at the same connections, same run:",
      "",
      ...report.scale.map(
        (row) =>
          `- ${row.products.toLocaleString("en-US")} products: ${row.scenarios
            .map((s) => `${s.name} ${fixed(s.reqPerSec)} req/s (${fixed(s.shareOfBare * 100)} %, workerd CPU ${cpu(s)} ms/req)`)
            .join(", ")}`,
      ),
    );
    const groups = Object.keys(report.scale[0]!.relevance.byGroup);
    lines.push(
      "",
      `Relevance: precision@10 of the judged query set (${report.scale[0]!.relevance.queries} queries, src/dev/seed/judged-queries.ts; the mean is over the queries with right answers in that catalog):`,
      "",
      `| Products | measured | mean | ${groups.join(" | ")} | exact part number first |`,
      `|---:|---:|---:|${groups.map(() => "---:").join("|")}|---:|`,
      ...report.scale.map(({ products, relevance }) => {
        const cells = groups.map((g) => (relevance.byGroup[g] ?? 0).toFixed(3));
        const exact = `${relevance.exactFirst.first} of ${relevance.exactFirst.of}`;
        return `| ${products.toLocaleString("en-US")} | ${relevance.measured} | ${relevance.meanPrecisionAt10.toFixed(3)} | ${cells.join(" | ")} | ${exact} |`;
      }),
    );
    const misses = report.scale.flatMap(({ products, relevance }) =>
      relevance.results
        .filter((r) => (r.precisionAt10 !== null && r.precisionAt10 < 1) || r.exactFirst === false)
        .map(
          (r) =>
            `${products.toLocaleString("en-US")}: "${r.query}" ${r.precisionAt10?.toFixed(1) ?? "n/a"}${r.exactFirst === false ? " (exact part not first)" : ""}`,
        ),
    );
    if (misses.length > 0) lines.push("", `Below 1.0: ${misses.join("; ")}`);
  }
  return `${lines.join("\n")}\n`;
}
