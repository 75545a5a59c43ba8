import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { buildStep, chooseApplyPath } from "../../src/operator/imports/next-catalog/build";
import {
  SCAN_CODE_CHUNKS,
  SCAN_CODES_START,
  type ScanCodesCursor,
  scanCodesStep,
} from "../../src/operator/imports/next-catalog/scan-codes";
import { contentOf, recordOf, sourceHash } from "../../src/operator/imports/records";
import { percentile } from "../../src/platform/percentile";
import { cliArgs, describeFailure, UsageError } from "../cli";
import { importRecordOf } from "./catalog-file";
import { machineSummary } from "./report";
import { peakResidentMiB, type StatementTimes, sqliteAsD1 } from "./sqlite-d1";

/**
 * `npm run bench:import-floor -- --products 1000000`: the floor of a bulk import's build on this machine
 * (docs/benchmarks.md, "Catalog import"). The build's own code (src/operator/imports/next-catalog/) runs over plain
 * SQLite files through node:sqlite (scripts/bench/sqlite-d1.ts): no D1, no Worker, no Workflow, nothing else on the
 * thread. Both databases get their migrations; --products demo products are staged as validation stages them (not
 * timed: validation is the Worker's JavaScript, measured by `npm run bench:import -- --profile`); then the build runs
 * step after step to the switch and its cleanup, and the scan codes' copy after it. Each phase's SQL time and the p50 /
 * max of what D1 runs at once (a statement, or a batch with its commit): what a search on the same database waits for
 * at most behind one of them.
 */
const { values, usage } = cliArgs(
  "bench:import-floor",
  "Runs a bulk import's build over plain SQLite (no D1, no Worker): each phase's time and its longest statement.",
  {
    products: { type: "string", default: "1000000", help: "demo products in the file", value: "<n>" },
    prefix: { type: "string", help: "the full-text index's prefix lengths instead of the schema's, e.g. '2 3'", value: "<list>" },
  },
);
const refuse = (message: string) => {
  console.error(describeFailure(new UsageError(message), usage).message);
  process.exit(2);
};
if (!/^[1-9]\d*$/.test(values.products)) refuse(`--products is a positive whole number, not "${values.products}".`);
// The prefix lengths go into the table's definition (DDL takes no parameters): digits and spaces only.
if (values.prefix !== undefined && !/^\d+( \d+)*$/.test(values.prefix)) {
  refuse(`--prefix is prefix lengths apart by spaces, such as '2 3', not "${values.prefix}".`);
}
const products = Number(values.products);
const dir = ".wrangler/bench-import-floor";
mkdirSync(dir, { recursive: true });

const open = (name: string, migrations: string) => {
  const file = path.join(dir, `${name}.sqlite`);
  for (const suffix of ["", "-journal", "-wal"]) rmSync(file + suffix, { force: true });
  const db = new DatabaseSync(file);
  for (const migration of readdirSync(migrations)
    .filter((n) => n.endsWith(".sql"))
    .sort()) {
    db.exec(readFileSync(path.join(migrations, migration), "utf8"));
  }
  return { db, file };
};
const catalog = open("catalog", "catalog-migrations");
const main = open("main", "migrations");

const PREFIX_OPTION = /prefix\s*=\s*'[^']*'/;
const ftsDefinition = () => (catalog.db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'products_fts'").get() as { sql: string }).sql;
if (values.prefix) catalog.db.exec(`DROP TABLE products_fts; ${ftsDefinition().replace(PREFIX_OPTION, `prefix = '${values.prefix}'`)}`);
const ftsPrefix = ftsDefinition().match(PREFIX_OPTION)?.[0];

// The job and its staged rows, as validation leaves them for a first import of the file.
const JOB = "imp_floor";
catalog.db
  .prepare(
    "INSERT INTO catalog_imports (id, format, mode, dry_run, on_error, max_errors, max_withdraw_percent, state, client_id, created_at, " +
      "rows_read, rows_to_apply, created) VALUES (?1, 'ndjson', 'upsert', 0, 'rejectAll', 0, 100, 'running', 'floor', ?2, ?3, ?3, ?3)",
  )
  .run(JOB, new Date().toISOString(), products);
const stage = catalog.db.prepare(
  "INSERT INTO catalog_import_rows (job_id, seq, product_id, line, action, content_hash, record, source_hash) VALUES (?, ?, ?, ?, 'create', ?, ?, ?)",
);
let started = performance.now();
for (let start = 0; start < products; start += 10_000) {
  catalog.db.exec("BEGIN");
  for (let index = start; index < Math.min(products, start + 10_000); index++) {
    const input = importRecordOf(index);
    const record = recordOf(input);
    const content = contentOf(record);
    stage.run(JOB, index + 1, record.id!, index + 1, content.hash, content.json, sourceHash(JSON.stringify(input)));
  }
  catalog.db.exec("COMMIT");
}
console.log(`# ${machineSummary()}`);
console.log(`${products.toLocaleString("en")} rows staged in ${seconds(performance.now() - started)} (not timed below)`);
console.log(
  `full-text index: ${ftsPrefix ?? "no prefix indexes"}; this process's peak resident memory so far ${peakResidentMiB().toFixed(0)} MiB\n`,
);

const jobPhase = catalog.db.prepare("SELECT build_phase FROM catalog_imports WHERE id = ?");
let scanCodesPhase = "";
const timing: StatementTimes = {
  label: () =>
    scanCodesPhase
      ? `scan codes: ${scanCodesPhase}`
      : ((jobPhase.get(JOB) as { build_phase: string | null }).build_phase ?? "choose the path"),
  byLabel: new Map(),
  peakMiB: new Map(),
};
const CATALOG = sqliteAsD1(catalog.db, timing);
const DB = sqliteAsD1(main.db, timing);

started = performance.now();
const wall = new Map<string, number>();
const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const at = performance.now();
  const result = await work();
  wall.set(label, (wall.get(label) ?? 0) + performance.now() - at);
  return result;
};
if ((await chooseApplyPath(CATALOG, JOB)) !== "bulk") throw new Error("the floor needs the bulk path");
let done = false;
while (!done) done = await timed("build steps", () => buildStep(CATALOG, JOB));
let cursor: ScanCodesCursor | null = SCAN_CODES_START;
while (cursor) {
  scanCodesPhase = cursor.phase;
  // One chunk a call, so that each statement is labelled with its own phase.
  cursor = await timed("scan codes steps", () => scanCodesStep({ CATALOG, DB }, cursor!, { ...SCAN_CODE_CHUNKS, stepBudgetMs: 0 }));
}
const total = performance.now() - started;
const built = catalog.db.prepare("SELECT count(*) AS n FROM products").get() as { n: number };
const codes = main.db.prepare("SELECT count(*) AS n FROM product_codes").get() as { n: number };
if (built.n !== products || codes.n < products) throw new Error(`built ${built.n} products and ${codes.n} scan codes of ${products}`);

console.log("| phase | SQL time | statements and batches | each p50 / max | peak RSS so far |");
console.log("|---|---:|---:|---:|---:|");
let sql = 0;
for (const [label, times] of timing.byLabel) {
  const sorted = [...times].sort((a, b) => a - b);
  const sum = sorted.reduce((s, ms) => s + ms, 0);
  sql += sum;
  const p50 = percentile(sorted, 0.5);
  const peak = timing.peakMiB.get(label) ?? 0;
  console.log(`| ${label} | ${seconds(sum)} | ${sorted.length} | ${ms(p50)} / ${ms(sorted.at(-1) ?? 0)} | ${peak.toFixed(0)} MiB |`);
}
console.log(
  `\nbuild and scan codes: ${seconds(total)} (SQL ${seconds(sql)}; ${[...wall].map(([l, t]) => `${l} ${seconds(t)}`).join(", ")})`,
);
const size = catalog.db.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'products_fts%'").get() as { bytes: number };
console.log(`full-text index: ${(size.bytes / 1024 / 1024).toFixed(0)} MiB (dbstat)`);
for (const { db, file } of [catalog, main]) {
  db.close();
  rmSync(file, { force: true });
}

function seconds(ms: number) {
  return `${(ms / 1000).toFixed(1)} s`;
}
function ms(value: number) {
  return `${Math.round(value).toLocaleString("en")} ms`;
}
