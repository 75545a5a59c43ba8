import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadRequest } from "../bench/load";
import type { LocalServer } from "../bench/server";
import { cliArgs, listenPortOf, UsageError } from "../cli";

/**
 * `npm run crash-test:start`: `npm start` must start in every state a crash can leave the local runtime in (issue 66).
 * Each round kills (SIGKILL, the whole process group) at a random moment of one phase, in turn:
 *   1. the Node seed (scripts/dev/seed.ts as a child: migrations, then DB and CATALOG through Miniflare);
 *   2. the stores' seed inside the runtime (started unprepared, POST /__dev/seed-stores, killed a random few ms later);
 *   3. a demo's writes through the API (orders placed, a demo order and a new one cancelled);
 *   4. twice in a row: one of those kills, a partial restart (the seed, or the runtime and its stores' seed), killed too.
 * After each round, the full start on the same state (the seed, then `wrangler dev` and prepareWhenLive) must succeed and
 * leave the runtime sound: it answers; DB has no table of a tenant's data and every demo tenant is in the registry of
 * stores; each demo tenant's store holds its demo orders once each, whole (lines, shipping documents), and its directory
 * as DB's master copy has it (and so does its sandbox twin's store), and a user lookup answers; every order and cancel
 * the API answered is still there (a reseed reverts no change of the demo data); a new order can be placed and found.
 * Then a demo order is cancelled, undisturbed, for the later seeds to keep. The rounds run in cycles of the 4 phases;
 * the first two cycles start from an empty state directory, so that the first seed (migrations included) and the
 * stores' first seed are killed too; later ones go on with the second's state. Runs on the crash-test entry
 * (test/crash/worker.ts: the dev entry, plus /__crash/sql to read a tenant's store).
 */
const { values } = cliArgs(
  "crash-test:start",
  "Kills the local runtime (SIGKILL) during its seed, its stores' seed and a demo's writes, then checks the next start succeeds and is whole.",
  {
    crashes: { type: "string", default: "8", help: "rounds, each ending in a SIGKILL (two in the 4th phase)", value: "<n>" },
    products: { type: "string", default: "600", help: "catalog size of the seed", value: "<n>" },
    port: { type: "string", help: "port of the test's own runtime (default: a free one)", value: "<port>" },
  },
);
const rounds = Number(values.crashes);
const products = Number(values.products);
if (!Number.isInteger(rounds) || rounds < 1) throw new UsageError(`--crashes is a positive whole number, not "${values.crashes}".`);
if (!Number.isInteger(products) || products < 1) throw new UsageError(`--products is a positive whole number, not "${values.products}".`);
const portOption = listenPortOf(values.port, "--port");

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { demoOrders },
  { TENANTS, USERS },
  { createApiClient },
  { randomToken },
  { DIRECTORY_TABLES, TENANT_DATA_TABLES },
  { fetchToken, jsonPost, send },
  { issueQuotePool, orderRequest },
  { freePort, killProcessGroup, running, startServer },
  { ensureLocalSigningKey, prepareWhenLive, withLocalBindings },
  { DEV_SEED_STORES_PATH },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/dev/seed/orders"),
  import("../../src/dev/seed/organizations"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../../src/shared/tenants/tables"),
  import("../bench/client"),
  import("../bench/scenarios"),
  import("../bench/server"),
  import("../dev/local-platform"),
  import("../dev/seed-route"),
]);

const ENTRY = "test/crash/worker.ts";
const API = "/customer/api";
/** The phases, in the order of a cycle of rounds (each cycle starts on an empty state directory). */
const PHASES = ["seed", "stores' seed", "demo writes", "twice"] as const;
type Phase = (typeof PHASES)[number];
/** Orders a demo round places at once (beside a cancel of a demo order). */
const DEMO_ORDERS = 5;

/** The demo orders and their lines, by tenant: what each store must hold once, whole. */
const DEMO = demoOrders(products);
const DEMO_STATUS = new Map(DEMO.map((order) => [order.orderNumber, order.status]));

/** Each directory table's rows in a store, in one row. */
const directoryCounts = `SELECT ${DIRECTORY_TABLES.map(({ name }) => `(SELECT count(*) FROM ${name}) AS ${name}`).join(", ")}`;

/** What the harness saw answered, which every later start must keep. */
interface Answered {
  /** Orders whose POST /orders answered 201, with their tenant. */
  placed: Map<string, number>;
  /** Orders whose cancel answered 200 Cancelled (demo orders among them: a reseed must not revert them). */
  cancelled: Map<string, number>;
}

interface State {
  dir: string;
  runtime?: LocalServer;
  clients: Map<number, { clientId: string; clientSecret: string }>;
  answered: Answered;
  /** What the last full start found wrong in DB. */
  dbProblems: string[];
  /** The rows of each directory table in DB by demo tenant, as the last seed left them. */
  directory: Map<number, Record<string, number>>;
  /** Seeds started on it (killed or not): the first migrates it from empty. */
  seeds: number;
  /** Whether its last seed ran whole. */
  seedWhole: boolean;
  /** Whether its stores' seed has answered once (their first seed is the longest). */
  storesSeeded: boolean;
}

/** What a kill found and did, for the round's line. */
interface Kill {
  phase: Exclude<Phase, "twice">;
  delayMs: number;
  note: string;
}

/** Running estimates of each phase's length, from the runs that ended before their kill or were not killed. */
const estimates = {
  /** The seed on an empty state (migrations included), and again on a seeded one. */
  freshSeedMs: 18_000,
  seedMs: 8_000,
  /** The stores' seed: its first run on a state (the directory pushed, the orders written), and a run again. */
  firstStoresMs: 300,
  storesMs: 100,
  demoMs: 300,
};

/** The tokens of the harness's clients, by tenant, for the runtime now running. */
const tokens = new Map<number, string>();

const root = mkdtempSync(path.join(tmpdir(), "medparts-start-crash-"));
const logDir = path.join(root, "logs");
mkdirSync(logDir);
let logCount = 0;
const logFile = (what: string) => path.join(logDir, `${String(++logCount).padStart(3, "0")}-${what}.log`);
const port = portOption || (await freePort());
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) if (running(child)) process.kill(-child.pid!, "SIGKILL");
});

await ensureLocalSigningKey();
console.log(`crash-test:start: ${rounds} rounds on port ${port}, state and logs in ${root}`);
const results: { round: number; phase: Phase; kills: Kill[]; restartMs: number; problems: string[] }[] = [];
let state: State | undefined;
let failed = false;
const totals = { placed: 0, cancelled: 0, demoCancelled: 0 };
function countAnswered({ answered }: State): void {
  totals.placed += answered.placed.size;
  totals.cancelled += answered.cancelled.size;
  totals.demoCancelled += [...answered.cancelled.keys()].filter((orderNumber) => DEMO_STATUS.has(orderNumber)).length;
}
try {
  for (let round = 0; round < rounds && !failed; round++) {
    const cycle = Math.floor(round / PHASES.length);
    // Odd cycles swap the first two phases: the empty state's first run is the seed's in one cycle, the stores' in the next.
    const order: Phase[] = cycle % 2 === 0 ? [...PHASES] : ["stores' seed", "seed", "demo writes", "twice"];
    const phase = order[round % PHASES.length]!;
    // The first two cycles start on an empty state: one kills its first seed (migrations included), the other its
    // stores' first seed. Later cycles go on with the second one's state, whose demo data the rounds keep changing.
    if (round % PHASES.length === 0 && cycle < 2) {
      await state?.runtime?.kill();
      if (state) {
        countAnswered(state);
        rmSync(state.dir, { recursive: true, force: true });
      }
      state = {
        dir: mkdtempSync(path.join(root, `state-${cycle}-`)),
        clients: new Map(),
        answered: { placed: new Map(), cancelled: new Map() },
        dbProblems: [],
        directory: new Map(),
        seeds: 0,
        seedWhole: false,
        storesSeeded: false,
      };
    }
    const current = state!;
    const kills: Kill[] = [];
    let problems: string[] = [];
    let restartMs = 0;
    try {
      if (phase === "twice") {
        const k = results.filter((r) => r.phase === "twice").length;
        const first = (["seed", "stores' seed", "demo writes"] as const)[k % 3]!;
        const second = (["stores' seed", "seed"] as const)[k % 2]!;
        kills.push(await killDuring(first, current));
        kills.push(await killDuring(second, current));
      } else {
        kills.push(await killDuring(phase, current));
      }
      const started = Date.now();
      await fullStart(current);
      restartMs = Date.now() - started;
      problems = await soundness(current);
    } catch (error) {
      problems.push(`the start failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    results.push({ round, phase, kills, restartMs, problems });
    const killed = kills.map((k) => `${k.phase} killed at ${k.delayMs} ms (${k.note})`).join(", then ");
    const outcome =
      problems.length === 0 ? `restarted in ${(restartMs / 1000).toFixed(1)} s: sound` : `FAILED:\n    ${problems.join("\n    ")}`;
    console.log(`round ${round + 1}/${rounds} [${phase}] ${killed}; ${outcome}`);
    failed = problems.length > 0;
  }
} finally {
  await state?.runtime?.kill();
}
if (state) countAnswered(state);

const byPhase = PHASES.map((phase) => `${phase} ${results.filter((r) => r.phase === phase).length}`).join(", ");
const kills = results.flatMap((r) => r.kills);
const killedLate = kills.filter((k) => k.note.includes("before the kill")).length;
const restarts = results.filter((r) => r.problems.length === 0).map((r) => r.restartMs);
console.log(
  `rounds ${results.length} (${byPhase}), kills ${kills.length} (${killedLate} after their phase had ended), failures ${results.filter((r) => r.problems.length > 0).length}` +
    (restarts.length ? `, restarts ${(Math.min(...restarts) / 1000).toFixed(1)}-${(Math.max(...restarts) / 1000).toFixed(1)} s` : ""),
);
console.log(
  `answered and found after every later start: ${totals.placed} orders placed, ${totals.cancelled} cancels (${totals.demoCancelled} of demo orders)`,
);
if (failed || results.length < rounds) {
  console.log(`state and logs kept in ${root}`);
  process.exitCode = 1;
} else {
  rmSync(root, { recursive: true, force: true });
}

/** One kill at a random moment of `phase`, leaving nothing running. */
async function killDuring(phase: Kill["phase"], s: State): Promise<Kill> {
  if (phase === "seed") return killSeed(s);
  if (phase === "stores' seed") return killStoresSeed(s);
  return killDemoWrites(s);
}

/** The Node seed (migrations, DB, CATALOG), killed at a random moment of its run. */
async function killSeed(s: State): Promise<Kill> {
  await stopRuntime(s);
  const fresh = s.seeds === 0;
  const estimate = fresh ? estimates.freshSeedMs : estimates.seedMs;
  const delayMs = Math.floor(Math.random() * estimate);
  const seed = spawnSeed(s);
  const ended = await Promise.race([seed.exited.then(() => true), sleep(delayMs).then(() => false)]);
  if (ended) {
    const { code, ms } = await seed.exited;
    if (code !== 0) throw new Error(`the seed exited with ${code} before its kill; see ${seed.log}`);
    s.seedWhole = true;
    if (fresh) estimates.freshSeedMs = ms;
    else estimates.seedMs = ms;
    return { phase: "seed", delayMs, note: `${fresh ? "first " : ""}seed ended before the kill, in ${ms} ms` };
  }
  await killProcessGroup(seed.child);
  return { phase: "seed", delayMs, note: `${fresh ? "first seed" : "seed"}, ~${Math.round((100 * delayMs) / estimate)}% of its length` };
}

/** The seed run whole, then the runtime started unprepared and killed a random few ms after the stores' seed was asked for. */
async function killStoresSeed(s: State): Promise<Kill> {
  await stopRuntime(s);
  if (!s.seedWhole) await runSeed(s);
  const runtime = await startRuntime(s, false);
  const first = !s.storesSeeded;
  const delayMs = Math.floor(Math.random() * (first ? estimates.firstStoresMs : estimates.storesMs));
  const sent = Date.now();
  const answer = fetch(`${runtime.baseUrl}${DEV_SEED_STORES_PATH}`, { method: "POST" }).then(
    (res) => ({ status: res.status, ms: Date.now() - sent }),
    () => null,
  );
  await sleep(delayMs);
  await stopRuntime(s);
  const answered = await answer;
  if (answered && answered.status < 300) {
    if (first) estimates.firstStoresMs = answered.ms;
    else estimates.storesMs = answered.ms;
    s.storesSeeded = true;
  }
  const what = first ? "first stores' seed" : "stores' seed again";
  const note = answered ? `${what} answered ${answered.status} in ${answered.ms} ms, before the kill` : `${what} unanswered`;
  return { phase: "stores' seed", delayMs, note };
}

/** A demo's writes through the API on the started runtime: orders placed and a demo order cancelled, killed under them. */
async function killDemoWrites(s: State): Promise<Kill> {
  if (!s.runtime) await fullStart(s);
  const runtime = s.runtime!;
  const token = await tenantToken(s, 1);
  const ctx = { baseUrl: runtime.baseUrl, token, products };
  const pool = await issueQuotePool({ ...ctx, clientId: "", clientSecret: "", orderPool: DEMO_ORDERS }, DEMO_ORDERS);
  const target = openDemoOrder(s);
  const targetToken = target ? await tenantToken(s, target.tenantId) : undefined;
  const delayMs = Math.floor(Math.random() * estimates.demoMs);
  const sent = Date.now();
  let answered = 0;
  const writes = DEMO_ORDERS + 1 + (target ? 1 : 0);
  const work: Promise<unknown>[] = pool.map(async (line) => {
    const res = await attempt(runtime.baseUrl, orderRequest(ctx, line, crypto.randomUUID()));
    if (!res) return;
    answered++;
    const orderNumber = (res.body as { data?: { orderNumber?: string } } | undefined)?.data?.orderNumber;
    if (res.status !== 201 || !orderNumber) return;
    s.answered.placed.set(orderNumber, 1);
    // And one of them cancelled at once, as a buyer who ordered twice by mistake.
    if (line === pool[0] && (await cancel(runtime.baseUrl, token, orderNumber, 1, s))) answered++;
  });
  if (target && targetToken)
    work.push(cancel(runtime.baseUrl, targetToken, target.orderNumber, target.tenantId, s).then((ok) => ok && answered++));
  const allAnswered = Promise.all(work).then(() => Date.now() - sent);
  const ended = await Promise.race([allAnswered, sleep(delayMs).then(() => null)]);
  await stopRuntime(s);
  await allAnswered.catch(() => {});
  if (ended !== null) {
    estimates.demoMs = Math.max(100, ended);
    return { phase: "demo writes", delayMs, note: `${answered} of ${writes} writes answered in ${ended} ms, before the kill` };
  }
  return { phase: "demo writes", delayMs, note: `${answered} of ${writes} writes answered` };
}

/** A cancel of the whole order; whether it was answered (a 200 Cancelled is kept in `answered`). */
async function cancel(baseUrl: string, token: string, orderNumber: string, tenantId: number, s: State): Promise<boolean> {
  const res = await attempt(
    baseUrl,
    jsonPost(`${API}/orders/${orderNumber}/cancel`, token, { reason: "crash-test:start" }, { "idempotency-key": crypto.randomUUID() }),
  );
  const status = (res?.body as { data?: { status?: string } } | undefined)?.data?.status;
  if (res?.status === 200 && status === "Cancelled") s.answered.cancelled.set(orderNumber, tenantId);
  return res !== null;
}

/** A request whose answer may never come (the runtime killed under it): null then. */
async function attempt(baseUrl: string, request: LoadRequest) {
  try {
    const res = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  } catch {
    return null;
  }
}

/**
 * What `npm start` does, on the same state: the seed, then `wrangler dev` and prepareWhenLive (the stores' seed and
 * the webhook sweep), which must succeed; and the harness's own clients, one per demo tenant.
 */
async function fullStart(s: State): Promise<void> {
  await stopRuntime(s);
  await runSeed(s);
  // DB as the seed left it, read before the runtime opens it: the control plane only, every demo tenant in its stores.
  s.dbProblems = await withLocalBindings(
    async (env) => {
      for (const { id } of TENANTS) {
        const credentials = { clientId: `crash-start-${id}`, clientSecret: randomToken(24) };
        await createApiClient(database(env.DB), { tenantId: id, name: `Start crash test client ${id}`, ...credentials });
        s.clients.set(id, credentials);
      }
      const problems: string[] = [];
      const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
      const names = new Set(tables.results.map((row) => row.name));
      const tenantTables = TENANT_DATA_TABLES.map((table) => table.name).filter((name) => names.has(name));
      if (tenantTables.length) problems.push(`tables of a tenant's data: ${tenantTables.join(", ")}`);
      const registry = await env.DB.prepare("SELECT tenant_id AS id, state FROM tenant_stores").all<{ id: number; state: string }>();
      const notInStore = TENANTS.filter(({ id }) => registry.results.find((row) => row.id === id)?.state !== "store");
      if (notInStore.length) problems.push(`tenants without a 'store' row in the registry: ${notInStore.map(({ id }) => id).join(", ")}`);
      // The directory's master copy, each table's rows by tenant: what the tenant's stores must hold once pushed.
      s.directory = new Map(TENANTS.map(({ id }) => [id, {}]));
      for (const table of DIRECTORY_TABLES) {
        const rows = await env.DB.prepare(`SELECT ${table.owner} AS tenant, count(*) AS n FROM ${table.name} t GROUP BY 1`).all<{
          tenant: number;
          n: number;
        }>();
        for (const { tenant, n } of rows.results) {
          const counts = s.directory.get(tenant);
          if (counts) counts[table.name] = n;
        }
      }
      return problems;
    },
    { persistTo: s.dir },
  );
  const runtime = await startRuntime(s, false);
  const started = Date.now();
  await prepareWhenLive(runtime.baseUrl);
  // Its stores' seed and the webhook sweep: an upper bound of the stores' first seed.
  if (!s.storesSeeded) estimates.firstStoresMs = Date.now() - started;
  s.storesSeeded = true;
}

/** Whether the started runtime and its state are whole; the problems found, none when sound. */
async function soundness(s: State): Promise<string[]> {
  const problems: string[] = [];
  const baseUrl = s.runtime!.baseUrl;
  const check = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  await check("/health/live", async () => {
    const res = await fetch(`${baseUrl}/health/live`);
    if (!res.ok) throw new Error(`answered ${res.status}`);
  });
  for (const { id } of TENANTS) {
    await check(`tenant ${id}'s store`, async () => {
      const own = DEMO.filter((order) => order.tenantId === id);
      const [orders, lines, documents, directory, twinDirectory] = await Promise.all([
        storeSql(baseUrl, id, "SELECT order_number AS n, count(*) AS c, min(status) AS status FROM orders GROUP BY order_number"),
        storeSql(
          baseUrl,
          id,
          "SELECT count(*) AS c FROM order_lines WHERE order_id IN (SELECT id FROM orders WHERE order_number LIKE 'ORD-%-DEMO%')",
        ),
        storeSql(
          baseUrl,
          id,
          "SELECT count(*) AS c FROM shipping_documents WHERE order_id IN (SELECT id FROM orders WHERE order_number LIKE 'ORD-%-DEMO%')",
        ),
        storeSql(baseUrl, id, directoryCounts),
        storeSql(baseUrl, -id, directoryCounts),
      ]);
      const stored = new Map(orders.map((row) => [String(row.n), row]));
      const missing = own.filter((order) => !stored.has(order.orderNumber)).map((order) => order.orderNumber);
      if (missing.length) throw new Error(`demo orders missing: ${missing.join(", ")}`);
      const twice = orders.filter((row) => Number(row.c) > 1).map((row) => row.n);
      if (twice.length) throw new Error(`orders stored more than once: ${twice.join(", ")}`);
      const demoHere = orders.filter((row) => DEMO_STATUS.has(String(row.n)));
      if (demoHere.length !== own.length) throw new Error(`${demoHere.length} demo orders, ${own.length} expected`);
      const expectedLines = own.reduce((sum, order) => sum + order.lines.length, 0);
      if (Number(lines[0]!.c) !== expectedLines) throw new Error(`${lines[0]!.c} demo order lines, ${expectedLines} expected`);
      const expectedDocuments = own.reduce((sum, order) => sum + order.shippingDocuments.length, 0);
      if (Number(documents[0]!.c) !== expectedDocuments)
        throw new Error(`${documents[0]!.c} demo shipping documents, ${expectedDocuments} expected`);
      // Its directory as DB's master copy has it, in its store and its sandbox twin's.
      const expected = JSON.stringify(Object.fromEntries(DIRECTORY_TABLES.map(({ name }) => [name, s.directory.get(id)?.[name] ?? 0])));
      for (const [whose, rows] of [
        ["its store", directory],
        ["its sandbox twin's", twinDirectory],
      ] as const)
        if (JSON.stringify(rows[0]) !== expected)
          throw new Error(`the directory in ${whose} is ${JSON.stringify(rows[0])}, in DB ${expected}`);
      // The demo orders keep what the API changed since: the seed's INSERT OR IGNORE must not write them back.
      for (const row of demoHere) {
        const cancelled = s.answered.cancelled.has(String(row.n));
        const status = cancelled ? "Cancelled" : DEMO_STATUS.get(String(row.n));
        if (row.status !== status && !(row.status === "Cancelled" && DEMO_STATUS.get(String(row.n)) === "Ordered"))
          throw new Error(`demo order ${row.n} is ${row.status}, ${status} expected`);
      }
    });
    await check(`tenant ${id}'s API`, async () => {
      const token = await tenantToken(s, id);
      const user = USERS.find((u) => u.tenantId === id)!;
      await send(baseUrl, { method: "GET", path: `${API}/users/lookup?userId=${user.id}`, headers: { authorization: `Bearer ${token}` } });
      const search = await send<{ data: { pagination: { total: number } } }>(baseUrl, {
        method: "GET",
        path: `${API}/orders/search?limit=1`,
        headers: { authorization: `Bearer ${token}` },
      });
      const least = DEMO.filter((order) => order.tenantId === id).length + [...s.answered.placed.values()].filter((t) => t === id).length;
      if (search.data.pagination.total < least)
        throw new Error(`orders/search finds ${search.data.pagination.total}, at least ${least} expected`);
    });
  }
  for (const problem of s.dbProblems) problems.push(`DB: ${problem}`);
  await check("orders and cancels answered before", async () => {
    for (const [orderNumber, tenantId] of [...s.answered.placed, ...s.answered.cancelled]) {
      const order = await send<{ data: { status: string } }>(baseUrl, {
        method: "GET",
        path: `${API}/orders/${orderNumber}`,
        headers: { authorization: `Bearer ${await tenantToken(s, tenantId)}` },
      });
      if (s.answered.cancelled.has(orderNumber) && order.data.status !== "Cancelled")
        throw new Error(`${orderNumber} was cancelled, is ${order.data.status}`);
    }
  });
  await check("a new order", async () => {
    const token = await tenantToken(s, 1);
    const ctx = { baseUrl, token, clientId: "", clientSecret: "", products, orderPool: 1 };
    const [line] = await issueQuotePool(ctx, 1);
    const placed = await send<{ data: { orderNumber: string } }>(baseUrl, orderRequest(ctx, line!, crypto.randomUUID()), 201);
    s.answered.placed.set(placed.data.orderNumber, 1);
    await send(baseUrl, { method: "GET", path: `${API}/orders/${placed.data.orderNumber}`, headers: { authorization: `Bearer ${token}` } });
  });
  // And the demo data changed, undisturbed, for the next rounds' seeds to keep.
  const target = openDemoOrder(s);
  if (target)
    await check(`a cancel of demo order ${target.orderNumber}`, async () => {
      const token = await tenantToken(s, target.tenantId);
      await cancel(baseUrl, token, target.orderNumber, target.tenantId, s);
      if (!s.answered.cancelled.has(target.orderNumber)) throw new Error("not answered 200 Cancelled");
    });
  return problems;
}

/** A demo order still open, of any tenant, that the harness has not cancelled: a cancel of it changes the demo data. */
function openDemoOrder(s: State) {
  return DEMO.find((order) => order.status === "Ordered" && !s.answered.cancelled.has(order.orderNumber));
}

/** Rows of a query in a tenant's store, through the crash entry's /__crash/sql. */
async function storeSql(baseUrl: string, tenantId: number, sql: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${baseUrl}/__crash/sql?tenant=${tenantId}`, {
    method: "POST",
    body: JSON.stringify({ statements: [{ sql, params: [] }] }),
  });
  if (!res.ok) throw new Error(`/__crash/sql answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return ((await res.json()) as Record<string, unknown>[][])[0]!;
}

async function tenantToken(s: State, tenantId: number): Promise<string> {
  const known = tokens.get(tenantId);
  if (known) return known;
  const client = s.clients.get(tenantId);
  if (!client) throw new Error(`no client of tenant ${tenantId}: the state has had no full start`);
  const token = await fetchToken(s.runtime!.baseUrl, client.clientId, client.clientSecret);
  tokens.set(tenantId, token);
  return token;
}

async function startRuntime(s: State, prepare: boolean): Promise<LocalServer> {
  s.runtime = await startServer({
    port,
    persistTo: s.dir,
    entry: ENTRY,
    logFile: logFile("wrangler"),
    prepare,
    vars: { RATE_LIMIT_PER_MINUTE: "100000", RATE_LIMIT_BURST: "100000" },
  });
  return s.runtime;
}

async function stopRuntime(s: State): Promise<void> {
  await s.runtime?.kill();
  s.runtime = undefined;
  tokens.clear();
}

/** scripts/dev/seed.ts as a child in its own process group, as `npm run seed` runs it. */
function spawnSeed(s: State) {
  s.seeds++;
  s.seedWhole = false;
  const log = logFile("seed");
  const out = createWriteStream(log);
  const started = Date.now();
  const child = spawn("node_modules/.bin/tsx", ["scripts/dev/seed.ts", "--products", String(products), "--persist-to", s.dir], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve({ code, ms: Date.now() - started });
    }),
  );
  return { child, exited, log };
}

/** The seed, run whole: it must succeed on whatever a crash left. */
async function runSeed(s: State): Promise<void> {
  const fresh = s.seeds === 0;
  const seed = spawnSeed(s);
  const { code, ms } = await seed.exited;
  if (code !== 0) throw new Error(`the seed exited with ${code}; see ${seed.log}`);
  s.seedWhole = true;
  if (fresh) estimates.freshSeedMs = ms;
  else estimates.seedMs = ms;
}
