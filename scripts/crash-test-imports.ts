import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { writeCatalogFile } from "./bench/catalog-file";
import { startServer } from "./bench/server";
import { catalogHash, createOperatorClient, type ImportJob, jobSeconds, OperatorApi } from "./imports/local-import";
import { ensureLocalSigningKey } from "./local-platform";
import { seedLocal } from "./seed";

/**
 * `npm run crash-test:imports`: SIGKILL the local runtime again and again while it imports a catalog, restart it on the
 * same state and resume the job (POST .../start on a started job nudges its Workflow instance, as the sweep does), until
 * it ends. The same file is then imported once without a crash into a second, identical state. Both catalogs must be
 * equal row for row, rank (rowid) and device identifiers included, and the job's counts must equal the clean run's:
 * no window staged twice or half, no chunk applied twice or half (docs/architecture.md, "The operator plane and
 * catalog imports").
 */
const { values } = parseArgs({
  options: {
    crashes: { type: "string", default: "20" },
    products: { type: "string", default: "100000" },
    port: { type: "string", default: "8797" },
  },
});
const crashes = Number(values.crashes);
const products = Number(values.products);
const port = Number(values.port);
const SEEDED = 600;

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
  for (let crash = 1; crash <= crashes && !["succeeded", "failed", "cancelled"].includes(job.state); crash++) {
    await sleep(100 + Math.random() * 300);
    job = await api.job(id);
    if (["succeeded", "failed", "cancelled"].includes(job.state)) break;
    phases.push(`${job.state}:${job.progress.rowsRead}/${job.progress.rowsApplied}`);
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

  const [afterCrashes, afterClean] = [await catalogHash(crashed.state), await catalogHash(clean.state)];
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
