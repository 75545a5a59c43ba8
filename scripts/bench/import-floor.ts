import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { generateProduct, MANUFACTURERS } from "../../src/dev/seed/catalog";
import { BUILD_HASH_BYTES, CHUNKS } from "../../src/operator/imports/next-catalog/build";
import { cliArgs } from "../cli";
import { machineFacts } from "./report";

/**
 * `npm run bench:import-floor -- --products 1000000`: the floor of a bulk import's SQLite work on this machine
 * (docs/benchmarks.md, "Catalog import"). The catalog's schema (catalog-migrations/) in a plain SQLite file through
 * node:sqlite, without D1, a Worker, a Workflow or the local runtime's one thread shared with them; --products demo
 * products inserted without triggers; then, timed, what the build does with them in the build's own chunk sizes
 * (src/operator/imports/next-catalog/build.ts): the products' indexes, one statement each; the full-text index in
 * rowid ranges with automerge off and the build's write buffer; the merge to one segment in bounded steps. Each
 * statement's time is what a search waits for at most behind it, locally and on D1's primary.
 */
const { values } = cliArgs(
  "bench:import-floor",
  "Times a bulk import's index and full-text index builds in plain SQLite (no D1, no Worker).",
  {
    products: { type: "string", default: "1000000", help: "demo products in the catalog", value: "<n>" },
    prefix: { type: "string", help: "the full-text index's prefix lengths instead of the schema's, e.g. '2 3'", value: "<list>" },
  },
);
const products = Number(values.products);
const dir = ".wrangler/bench-import-floor";
const file = path.join(dir, `catalog-${products}.sqlite`);
mkdirSync(dir, { recursive: true });
for (const suffix of ["", "-journal", "-wal"]) rmSync(file + suffix, { force: true });
const db = new DatabaseSync(file);

const migrations = path.resolve("catalog-migrations");
for (const name of readdirSync(migrations)
  .filter((n) => n.endsWith(".sql"))
  .sort()) {
  db.exec(readFileSync(path.join(migrations, name), "utf8"));
}

// The build writes bare tables without triggers and makes each index afterwards.
const productIndexes = db
  .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' AND sql IS NOT NULL")
  .all() as { name: string; sql: string }[];
for (const { name } of db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger'").all() as { name: string }[]) {
  db.exec(`DROP TRIGGER "${name}"`);
}
for (const { name } of productIndexes) db.exec(`DROP INDEX "${name}"`);

const insertManufacturer = db.prepare("INSERT OR IGNORE INTO manufacturers (id, name) VALUES (?, ?)");
for (const m of MANUFACTURERS) insertManufacturer.run(m.id, m.name);
const insertProduct = db.prepare(
  "INSERT INTO products (id, part_number, display_part_number, normalized_part_number, title, description, manufacturer_id, categories) " +
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
);
const started = performance.now();
for (let start = 0; start < products; start += 10_000) {
  db.exec("BEGIN");
  for (let index = start; index < Math.min(products, start + 10_000); index++) {
    const p = generateProduct(index);
    insertProduct.run(
      p.id,
      p.partNumber,
      p.displayPartNumber,
      p.normalizedPartNumber,
      p.title,
      p.description,
      p.manufacturerId,
      JSON.stringify(p.categories),
    );
  }
  db.exec("COMMIT");
}
const machine = machineFacts();
console.log(`# ${machine.cpus}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}`);
console.log(`${products.toLocaleString("en")} demo products inserted in ${seconds(performance.now() - started)} (not timed below)\n`);

interface Phase {
  name: string;
  statements: number[];
}
const phases: Phase[] = [];
const timed = (phase: Phase, sql: string) => {
  const at = performance.now();
  db.exec(sql);
  phase.statements.push(performance.now() - at);
};

const indexes: Phase = { name: "the products' indexes, one statement each", statements: [] };
for (const { sql } of productIndexes) timed(indexes, sql);
phases.push(indexes);

const live = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'products_fts'").get() as { sql: string };
let definition = live.sql.replace(/\bproducts_fts\b/, "next_products_fts");
if (values.prefix) definition = definition.replace(/prefix\s*=\s*'[^']*'/, `prefix = '${values.prefix}'`);
db.exec(definition);
const fts = (command: string, value: number) => `INSERT INTO next_products_fts (next_products_fts, rank) VALUES ('${command}', ${value})`;
db.exec(fts("automerge", 0));
db.exec(fts("crisismerge", 1999));
db.exec(fts("hashsize", BUILD_HASH_BYTES));

const index: Phase = { name: `the full-text index, ${CHUNKS.indexRows.toLocaleString("en")}-row chunks`, statements: [] };
for (let from = 0; from < products; from += CHUNKS.indexRows) {
  timed(
    index,
    "INSERT INTO next_products_fts (rowid, part_number, display_part_number, part_keys, title, description, manufacturer, categories) " +
      "SELECT document_id, part_number, display_part_number, part_keys, title, description, manufacturer, categories " +
      `FROM product_search_documents WHERE document_id > ${from} AND document_id <= ${from + CHUNKS.indexRows}`,
  );
}
phases.push(index);

const merge: Phase = { name: `the merge to one segment, ${CHUNKS.mergePages.toLocaleString("en")}-page steps`, statements: [] };
const segments = db.prepare("SELECT count(DISTINCT segid) AS n FROM next_products_fts_idx");
while ((segments.get() as { n: number }).n > 1) timed(merge, fts("merge", -CHUNKS.mergePages));
phases.push(merge);

console.log(`full-text index: ${definition.match(/prefix\s*=\s*'[^']*'/)?.[0] ?? "no prefix indexes"}\n`);
console.log("| phase | time | statements | statement p50 / max |");
console.log("|---|---:|---:|---:|");
for (const phase of phases) {
  const sorted = [...phase.statements].sort((a, b) => a - b);
  const total = sorted.reduce((sum, ms) => sum + ms, 0);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(`| ${phase.name} | ${seconds(total)} | ${sorted.length} | ${Math.round(p50)} / ${Math.round(sorted.at(-1) ?? 0)} ms |`);
}
const size = db.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'next_products_fts%'").get() as { bytes: number };
console.log(`\nfull-text index: ${(size.bytes / 1024 / 1024).toFixed(0)} MiB (dbstat)`);
db.close();
rmSync(file, { force: true });

function seconds(ms: number) {
  return `${(ms / 1000).toFixed(1)} s`;
}
