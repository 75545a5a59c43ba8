import { readFileSync } from "node:fs";
import path from "node:path";
import { parseCodeInfo, type Scope } from "../../src/shared/recalls/code-info";
import { gtin14 } from "../../src/shared/recalls/identifiers";
import { type DeliveredUnit, matchUnit } from "../../src/shared/recalls/match";
import { cliArgs } from "../cli";

/**
 * `npm run bench:recalls`: the CPU of reading recall notices and of matching a newly shipped unit against every open
 * recall (docs/benchmarks.md, "Recalls"; issue 70's target: a unit against 10,000 open recalls in <= 50 ms). The
 * notices are the 59 real code_info strings of the shared test data, each copied with fresh device identifiers (valid
 * GTINs) until there are `--recalls`. A unit is matched against all of them one by one, and through an index of the
 * notices by device identifier and product number (those without either are always tried).
 */

const { values } = cliArgs("bench:recalls", "The CPU of reading recall notices and matching a shipped unit against them, in Node.", {
  recalls: { type: "string", default: "10000", help: "open recalls to match against", value: "<n>" },
  units: { type: "string", default: "200", help: "units matched per case", value: "<n>" },
});
const recallCount = Number(values.recalls);
const unitCount = Number(values.units);

const corpus = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../../shared/test-data/recalls/code-info-corpus.json"), "utf8"),
).items.map((item: { code_info: string }) => item.code_info) as string[];

/** The `n`th GTIN-14 of a made-up company prefix, with its check digit. */
function madeUpGtin(n: number): string {
  const body = `0${String(900_000_000_000 + n).padStart(12, "0")}`;
  for (let check = 0; check <= 9; check++) if (gtin14(`${body}${check}`)) return `${body}${check}`;
  throw new Error("no check digit");
}

/** A corpus string with its 14-digit identifiers replaced by fresh ones: notice `i`'s own devices. */
const noticeText = (i: number) => {
  let k = 0;
  return corpus[i % corpus.length]!.replace(/\b\d{14}\b/g, () => madeUpGtin(i * 8 + k++));
};

const cpuMs = (work: () => void) => {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const texts = Array.from({ length: recallCount }, (_, i) => noticeText(i));
let scopes: Scope[] = [];
const parseMs = cpuMs(() => {
  scopes = texts.map((text) => parseCodeInfo(text));
});

/** Notices by the device identifiers and product numbers they name; the rest (no gate) in `always`. */
const byKey = new Map<string, Scope[]>();
const always: Scope[] = [];
for (const scope of scopes) {
  const keys = [scope, ...scope.groups].flatMap((part) => [...part.deviceIds, ...part.labels.map((l) => l.deviceId), ...part.products]);
  if (keys.length === 0) always.push(scope);
  for (const key of new Set(keys)) byKey.set(key, [...(byKey.get(key) ?? []), scope]);
}

const unitOf = (i: number): DeliveredUnit => ({ di: madeUpGtin((i * 37) % (recallCount * 8)), lot: `L${i}`, serial: `S${i}` });
const units = Array.from({ length: unitCount }, (_, i) => unitOf(i));

let touched = 0;
const naiveMs =
  cpuMs(() => {
    for (const unit of units) for (const scope of scopes) if (matchUnit(scope, unit).outcome !== "not_affected") touched++;
  }) / unitCount;
const indexedMs =
  cpuMs(() => {
    for (const unit of units) {
      const candidates = [...(byKey.get(unit.di!) ?? []), ...always];
      for (const scope of candidates) matchUnit(scope, unit);
    }
  }) / unitCount;

console.log(`npm run bench:recalls (${recallCount} open recalls, ${unitCount} units, Node ${process.version})\n`);
console.log("| Case | CPU |\n|---|---:|");
console.log(
  `| Reading ${recallCount} notices (parseCodeInfo) | ${parseMs.toFixed(0)} ms (${((parseMs / recallCount) * 1000).toFixed(0)} µs a notice) |`,
);
console.log(`| A unit against every open recall, one by one | ${naiveMs.toFixed(2)} ms a unit |`);
console.log(
  `| A unit through the index (its DI, and the ${always.length} notices without a device or product) | ${indexedMs.toFixed(3)} ms a unit |`,
);
console.log(`\n${touched} unit-recall pairs were not cleared (affected or needs review) one by one.`);
