import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cliArgs, ownRuntimePort } from "../cli";
import type { ImportJob } from "../tools/local-import";

/**
 * `npm run crash-test:imports`: SIGKILL the local runtime again and again while it imports a catalog, restart it on the
 * same state and resume the job (POST .../start on a started job nudges its Workflow instance, as the sweep does), until
 * it ends. The kills aim at each phase in turn (TARGETS). The same file is then imported once without a crash into a
 * second, identical state. Both catalogs must be equal row for row, rank (rowid) and device identifiers included, with
 * the same categories, facet counts, sort positions, full-text documents and tables, and the job's counts must equal the clean run's:
 * no window staged twice or half, no chunk applied twice or half (docs/architecture.md, "The operator plane and
 * catalog imports").
 */
const { values } = cliArgs(
  "crash-test:imports",
  "Kills the local runtime (SIGKILL) at each phase of a catalog import, then checks the catalog equals a clean import.",
  {
    crashes: { type: "string", default: "20", help: "SIGKILLs to send", value: "<n>" },
    products: { type: "string", default: "100000", help: "products in the imported file", value: "<n>" },
    port: ownRuntimePort("8797"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { BUILD_STEPS },
  { writeCatalogFile },
  { startServer },
  { ensureLocalSigningKey },
  { seedLocal },
  { catalogHash, createOperatorClient, jobPhase, jobSeconds, OperatorApi },
] = await Promise.all([
  import("../../src/operator/imports/jobs"),
  import("../bench/catalog-file"),
  import("../bench/server"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("../tools/local-import"),
]);

const crashes = Number(values.crashes);
const products = Number(values.products);
const port = Number(values.port);
const SEEDED = 600;

/**
 * Where the kills aim, in order: validation, then each phase of the build of the next catalog version (a file of new
 * products takes the bulk path: src/operator/imports/next-catalog/build.ts), the index build most, then the switch, the
 * old version's removal and the scan codes. The phases are the build's own (BUILD_STEPS, in the order it takes them).
 */
const PHASES: string[] = ["validating", ...Object.values(BUILD_STEPS)];
const TARGETS: string[] = [
  ...Array(4).fill("validating"),
  ...Array(2).fill(BUILD_STEPS.create),
  BUILD_STEPS.sort,
  BUILD_STEPS.indexes,
  ...Array(4).fill(BUILD_STEPS.index),
  BUILD_STEPS.positions,
  ...Array(2).fill(BUILD_STEPS.merge),
  BUILD_STEPS.switch,
  BUILD_STEPS.cleanup,
  ...Array(3).fill(BUILD_STEPS.done),
];
const isFinal = (job: ImportJob) => ["succeeded", "failed", "cancelled"].includes(job.state);
const phaseRank = (phase: string) => PHASES.indexOf(phase);

const work = mkdtempSync(path.join(tmpdir(), "medparts-import-crash-"));
const file = path.join(work, "catalog.ndjson");
// Every tenth title differs from the seed's: the demo products the file shares with the seed are updated, the rest created.
await writeCatalogFile(file, products, 10);
await ensureLocalSigningKey();

async function prepared(name: string) {
  const state = { persistTo: path.join(work, name) };
  await seedLocal(SEEDED, state);
  return { state, credentials: await createOperatorClient(state, `${name} operator`) };
}

try {
  const crashed = await prepared("crashed");
  const clean = await prepared("clean");

  let server = await startServer({ port, ...crashed.state, logFile: path.join(work, "crashed-0.log") });
  let api = await OperatorApi.connect(server.baseUrl, crashed.credentials);
  const { id } = await api.createJob(file);
  await api.start(id);
  const phases: string[] = [];
  let job: ImportJob = await api.job(id);
  for (let crash = 1; crash <= crashes && !isFinal(job); crash++) {
    // Wait for the phase this crash aims at (or any later one), then kill within a random moment of it.
    const target = TARGETS[Math.floor(((crash - 1) * TARGETS.length) / crashes)]!;
    while (!isFinal(job) && phaseRank(jobPhase(job)) < phaseRank(target)) {
      await sleep(20);
      job = await api.job(id);
    }
    await sleep(Math.random() * 250);
    job = await api.job(id);
    if (isFinal(job)) break;
    phases.push(`${jobPhase(job)} ${job.progress.rowsRead}/${job.progress.rowsApplied}`);
    await server.kill();
    server = await startServer({ port, ...crashed.state, logFile: path.join(work, `crashed-${crash}.log`) });
    api = await api.reconnect(server.baseUrl);
    job = await api.start(id);
  }
  const crashedJob = await api.waitUntilFinished(id);
  await server.stop();

  server = await startServer({ port, ...clean.state, logFile: path.join(work, "clean.log") });
  const cleanApi = await OperatorApi.connect(server.baseUrl, clean.credentials);
  const cleanJob = await cleanApi.createJob(file);
  await cleanApi.start(cleanJob.id);
  const cleanEnd = await cleanApi.waitUntilFinished(cleanJob.id);
  await server.stop();

  const [afterCrashes, afterClean] = [
    await catalogHash(crashed.state, { derived: true }),
    await catalogHash(clean.state, { derived: true }),
  ];
  console.log(`killed at: ${phases.join(", ")}`);
  console.log(`crashed run (${phases.length} SIGKILLs): ${crashedJob.state} ${JSON.stringify(crashedJob.counts)}`);
  console.log(`clean run: ${cleanEnd.state} ${JSON.stringify(cleanEnd.counts)} in ${jobSeconds(cleanEnd).toFixed(1)} s`);
  console.log(`catalog after the crashes: ${afterCrashes.products} products, hash ${afterCrashes.hash.slice(0, 16)}`);
  console.log(`catalog after the clean run: ${afterClean.products} products, hash ${afterClean.hash.slice(0, 16)}`);
  const same =
    crashedJob.state === "succeeded" &&
    cleanEnd.state === "succeeded" &&
    afterCrashes.hash === afterClean.hash &&
    JSON.stringify(crashedJob.counts) === JSON.stringify(cleanEnd.counts);
  console.log(same ? "equal: the crashed import left the catalog a clean import leaves" : "DIFFERENT");
  if (phases.length < crashes) console.log(`the import ended after ${phases.length} of ${crashes} crashes: give it more --products`);
  if (!same || phases.length < crashes) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
