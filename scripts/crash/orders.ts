import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LoadRequest } from "../bench/load";
import type { BenchContext } from "../bench/scenarios";
import type { LocalServer } from "../bench/server";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run crash-test`: crash the local runtime at the commit boundary of orders, restart it on the same state and
 * retry every unanswered request with its Idempotency-Key, as spec 8 tells an integrator to.
 *
 * Each round starts `wrangler dev` on the crash-test entry (test/crash/worker.ts, never deployed), retries what the
 * previous crash left unanswered, then sends --concurrency orders at once asking the entry to pause right after tenant
 * 1's store commits an order (its transaction, with the order's event and the key's result); at the first pause the
 * whole runtime is killed (SIGKILL). At the end the store is checked: no logical order (one key, its own quotes) may
 * have more than one order, and every request whose order committed must have had its retry answered with that very
 * order, marked X-Idempotency-Cached.
 */
const { values } = cliArgs(
  "crash-test",
  "Kills the local runtime while orders are placed, then checks each order exists once, whole, with its events.",
  {
    crashes: { type: "string", default: "20", help: "SIGKILLs to send", value: "<n>" },
    concurrency: { type: "string", default: "6", help: "orders placed at once", value: "<n>" },
    port: ownRuntimePort("8796"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { createApiClient },
  { randomToken },
  { fetchToken },
  { issueQuotePool, orderRequest },
  { startServer },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../bench/client"),
  import("../bench/scenarios"),
  import("../bench/server"),
  import("../dev/local-platform"),
  import("../dev/seed"),
]);

const TENANT = 1;
const crashes = Number(values.crashes);
const concurrency = Number(values.concurrency);
const CRASH_POINT = "MEDPARTS_CRASH_POINT";
const ENTRY = "test/crash/worker.ts";
const PRODUCTS = 600;

interface Attempt {
  key: string;
  request: LoadRequest;
}

interface Outcome {
  status: number;
  cached: boolean;
  orderNumber?: string;
}

interface Runtime {
  server: LocalServer;
  /** Resolves when the entry printed that it paused right after a commit. */
  crashed: Promise<void>;
}

async function startRuntime(persistTo: string, round: number): Promise<Runtime> {
  let output = "";
  let reachedCrashPoint = () => {};
  const crashed = new Promise<void>((resolve) => {
    reachedCrashPoint = resolve;
  });
  const server = await startServer({
    port: Number(values.port),
    persistTo,
    entry: ENTRY,
    logFile: path.join(persistTo, `wrangler-${round}.log`),
    onOutput: (text) => {
      output += text;
      if (output.includes(CRASH_POINT)) reachedCrashPoint();
    },
  });
  return { server, crashed };
}

async function send(baseUrl: string, attempt: Attempt, extraHeaders: Record<string, string> = {}): Promise<Outcome | null> {
  try {
    const { request } = attempt;
    const res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: { ...request.headers, ...extraHeaders },
      body: request.body,
    });
    const body = (await res.json().catch(() => null)) as { data?: { orderNumber?: string } } | null;
    return { status: res.status, cached: res.headers.get("x-idempotency-cached") === "true", orderNumber: body?.data?.orderNumber };
  } catch {
    return null; // no answer: the runtime died under the request
  }
}

await ensureLocalSigningKey();
const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-crash-"));
try {
  await seedLocal(PRODUCTS, { persistTo });
  const credentials = { clientId: "crash-test", clientSecret: randomToken(24) };
  await withLocalBindings((env) => createApiClient(database(env.DB), { tenantId: 1, name: "Crash test client", ...credentials }), {
    persistTo,
  });

  let unanswered: Attempt[] = [];
  const retries: { attempt: Attempt; outcome: Outcome }[] = [];
  /** Keys whose order committed before any retry (read from the store right after each crash), with that order's number. */
  const committedBeforeRetry = new Map<string, string>();
  let crashPoints = 0;
  const all: Attempt[] = [];
  let finalOrders = new Map<string, string>();
  let orderCount = 0;
  for (let round = 0; round <= crashes; round++) {
    const runtime = await startRuntime(persistTo, round);
    // What the last crash left committed, before any retry.
    const committedNow = await committedOrders(runtime.server.baseUrl);
    for (const attempt of unanswered) {
      const orderNumber = committedNow.results.get(attempt.key.toLowerCase());
      if (orderNumber) committedBeforeRetry.set(attempt.key.toLowerCase(), orderNumber);
    }
    const token = await fetchToken(runtime.server.baseUrl, credentials.clientId, credentials.clientSecret);
    const ctx: BenchContext = { baseUrl: runtime.server.baseUrl, token, ...credentials, products: PRODUCTS, orderPool: concurrency };
    for (const attempt of unanswered) {
      const retry = {
        ...attempt,
        request: { ...attempt.request, headers: { ...attempt.request.headers, authorization: `Bearer ${token}` } },
      };
      const outcome = await send(runtime.server.baseUrl, retry);
      if (!outcome) throw new Error(`retry of ${attempt.key} got no answer from a healthy runtime`);
      retries.push({ attempt, outcome });
    }
    unanswered = [];
    if (round === crashes) {
      ({ results: finalOrders, orders: orderCount } = await committedOrders(runtime.server.baseUrl));
      await runtime.server.kill();
      break;
    }
    const pool = await issueQuotePool(ctx, concurrency);
    const attempts = pool.map((line) => {
      const key = crypto.randomUUID();
      return { key, request: orderRequest(ctx, line, key) };
    });
    all.push(...attempts);
    const answers = attempts.map((attempt) => send(runtime.server.baseUrl, attempt, { "X-Crash-At-Commit": "1" }));
    const reached = await Promise.race([
      runtime.crashed.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000)),
    ]);
    if (reached) crashPoints++;
    await runtime.server.kill();
    const outcomes = await Promise.all(answers);
    unanswered = attempts.filter((_, i) => outcomes[i] === null);
    process.stdout.write(`round ${round + 1}/${crashes}: ${unanswered.length} of ${attempts.length} unanswered\n`);
  }

  const committedKey = (r: { attempt: Attempt }) => committedBeforeRetry.has(r.attempt.key.toLowerCase());
  const retried = retries.filter(committedKey);
  const answeredWithOriginal = retried.filter(
    (r) => r.outcome.status === 201 && r.outcome.cached && r.outcome.orderNumber === committedBeforeRetry.get(r.attempt.key.toLowerCase()),
  );
  // Every logical order has its own quotes and key: more orders than keys with a committed result is a duplicate.
  const duplicates = orderCount - finalOrders.size;
  const inFlight = retries.length - retried.length;
  const inFlightStatuses = retries.filter((r) => !committedKey(r)).map((r) => r.outcome.status);
  console.log(
    `crashes ${crashes} (${crashPoints} killed at the commit boundary), requests ${all.length}, unanswered ${retries.length} (${retried.length} committed before the crash, ${inFlight} not: their retries answered ${JSON.stringify(countBy(inFlightStatuses))})`,
  );
  console.log(
    `orders ${orderCount}, duplicates ${duplicates}, retries answered with the original result ${answeredWithOriginal.length}/${retried.length}`,
  );
  for (const r of retried.filter((r) => !answeredWithOriginal.includes(r))) {
    console.log(`  not answered with its order: ${r.attempt.key} -> ${JSON.stringify(r.outcome)}`);
  }
  if (duplicates !== 0 || answeredWithOriginal.length !== retried.length || retried.length === 0 || crashPoints !== crashes)
    process.exitCode = 1;
} finally {
  rmSync(persistTo, { recursive: true, force: true });
}

/**
 * Every committed order result of tenant 1, Idempotency-Key -> order number, and its count of harness orders: read
 * from its store through the crash entry (test/crash/worker.ts).
 */
async function committedOrders(baseUrl: string): Promise<{ results: Map<string, string>; orders: number }> {
  const res = await fetch(`${baseUrl}/__crash/committed?tenant=${TENANT}`);
  if (!res.ok) throw new Error(`reading the committed orders answered ${res.status}: ${await res.text()}`);
  const { results, orders } = (await res.json()) as { results: { key: string; response: string }[]; orders: number };
  return {
    results: new Map(
      results.map((r) => [r.key, (JSON.parse(JSON.parse(r.response).body) as { data: { orderNumber: string } }).data.orderNumber]),
    ),
    orders,
  };
}

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
