import os from "node:os";
import type { LoadResult } from "./load";

export interface ScenarioReport extends LoadResult {
  name: string;
  what: string;
  /** requests/s relative to the baseline measured in the same run. */
  ratioToBaseline: number;
}

export interface ScaleReport {
  products: number;
  seedSeconds: number | null;
  scenarios: ScenarioReport[];
}

export interface BenchReport {
  startedAt: string;
  machine: { cpus: string; cores: number; memoryGiB: number; node: string; platform: string };
  settings: { products: number; duration: number; connections: number };
  baseline: ScenarioReport;
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

export function withBaselineRatio(name: string, what: string, result: LoadResult, baselineRps: number): ScenarioReport {
  return { name, what, ...result, ratioToBaseline: baselineRps > 0 ? result.requestsPerSecond / baselineRps : 0 };
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function scenarioRow(s: ScenarioReport): string {
  return `| ${s.name} | ${s.what} | ${fixed(s.requestsPerSecond)} | ${fixed(s.p50Ms)} | ${fixed(s.p99Ms)} | ${s.errors} | ${fixed(s.ratioToBaseline * 100)} % |`;
}

export function toMarkdown(report: BenchReport): string {
  const m = report.machine;
  const lines = [
    `Run ${report.startedAt} on ${m.cpus} (${m.cores} cores, ${m.memoryGiB} GiB), Node ${m.node}, ${m.platform}.`,
    `Catalog: ${report.settings.products.toLocaleString("en-US")} products; ${report.settings.connections} connections; ${report.settings.duration} s per scenario.`,
    "",
    "| Scenario | What | req/s | p50 ms | p99 ms | errors | vs baseline |",
    "|---|---|---:|---:|---:|---:|---:|",
    scenarioRow(report.baseline),
    ...report.scenarios.map(scenarioRow),
  ];
  if (report.scale.length > 0) {
    const names = report.scale[0]!.scenarios.map((s) => s.name);
    lines.push(
      "",
      "Catalog search latency by catalog size (p50 / p99 ms):",
      "",
      `| Products | Seed s | ${names.join(" | ")} |`,
      `|---:|---:|${names.map(() => "---:").join("|")}|`,
      ...report.scale.map(
        (row) =>
          `| ${row.products.toLocaleString("en-US")} | ${row.seedSeconds === null ? "cached" : fixed(row.seedSeconds)} | ${row.scenarios
            .map((s) => `${fixed(s.p50Ms)} / ${fixed(s.p99Ms)}`)
            .join(" | ")} |`,
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}
