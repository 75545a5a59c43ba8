import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchContext } from "../bench/scenarios";
import type { LocalServer } from "../bench/server";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run crash-test:webhooks`: at-least-once webhook delivery against the loss of everything in flight.
 *
 * A local receiver is slow, then down, then answers 500, round after round; meanwhile orders are placed (each writes
 * an `order.created` event) and the whole runtime is killed (SIGKILL) with deliveries queued, retrying and under way:
 * local queues are not persisted, so every message in flight is lost. After the last kill the receiver answers 200,
 * the runtime starts once more, and the scheduled sweep runs every --sweep-seconds (the Cron Trigger's minute) until
 * every event of the tenant has reached the receiver. With production's WEBHOOK_RESEND_AFTER_SECONDS unless
 * --resend-after-seconds is given. Prints `events N, delivered D, lost L, delivered twice T` and when the last event
 * arrived after the restart; exits non-zero if any event is lost or the last arrived later than --within-seconds.
 * Tenant 1 lives in its store: the kills fall while the store writes orders and events, its alarm dispatches them and
 * the consumer records deliveries there.
 */
const { values } = cliArgs(
  "crash-test:webhooks",
  "Kills the local runtime while events are delivered, then checks every event reached the receiver.",
  {
    crashes: { type: "string", default: "6", help: "SIGKILLs to send", value: "<n>" },
    orders: { type: "string", default: "6", help: "orders whose events are delivered", value: "<n>" },
    port: ownRuntimePort("8795"),
    "deadline-seconds": { type: "string", default: "900", help: "give up after this long", value: "<s>" },
    "sweep-seconds": { type: "string", default: "60", help: "how often the sweep runs", value: "<s>" },
    "within-seconds": { type: "string", default: "60", help: "deliveries must arrive within this long of the last restart", value: "<s>" },
    "resend-after-seconds": {
      type: "string",
      help: "the sweep resends after this long (default: the value in wrangler.toml)",
      value: "<s>",
    },
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { WEBHOOK_SWEEP_CRON },
  { database },
  { createApiClient },
  { randomToken },
  { fetchToken, jsonPost, send },
  { issueQuotePool, orderRequest },
  { startServer },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
] = await Promise.all([
  import("../../src/api/webhooks/queues"),
  import("../../src/db/client"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../bench/client"),
  import("../bench/scenarios"),
  import("../bench/server"),
  import("../dev/local-platform"),
  import("../dev/seed"),
]);

const crashes = Number(values.crashes);
const ordersPerRound = Number(values.orders);
const PRODUCTS = 60;

type Phase = "slow" | "down" | "error" | "ok";
const PHASES: Phase[] = ["slow", "down", "error"];

/** The receiver: records each event id it answered 200 for, and how often. */
function startReceiver() {
  let phase: Phase = "slow";
  const delivered = new Map<string, number>();
  const firstArrival = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (phase === "down") return req.socket.destroy();
      if (phase === "error") return res.writeHead(500).end("not now");
      const answer = () => {
        const id = (JSON.parse(body) as { id: string }).id;
        delivered.set(id, (delivered.get(id) ?? 0) + 1);
        if (!firstArrival.has(id)) firstArrival.set(id, Date.now());
        res.writeHead(200).end("ok");
      };
      if (phase === "slow") setTimeout(answer, 1500);
      else answer();
    });
  });
  return {
    delivered,
    firstArrival,
    setPhase: (next: Phase) => {
      phase = next;
    },
    listening: new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function startRuntime(persistTo: string, round: number): Promise<LocalServer> {
  return startServer({
    port: Number(values.port),
    persistTo,
    logFile: path.join(persistTo, `wrangler-${round}.log`),
    vars: {
      ALLOW_LOCAL_WEBHOOKS: "true",
      ...(values["resend-after-seconds"] ? { WEBHOOK_RESEND_AFTER_SECONDS: values["resend-after-seconds"] } : {}),
      RATE_LIMIT_PER_MINUTE: "100000",
      RATE_LIMIT_BURST: "100000",
    },
  });
}

/** Every event id of the tenant's feed (GET /events, paged). */
async function feedEventIds(baseUrl: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const query = new URLSearchParams({ limit: "100", ...(after ? { after } : {}) });
    const res = await fetch(`${baseUrl}/customer/api/events?${query}`, { headers: { Authorization: `Bearer ${token}` } });
    const page = (await res.json()) as { data: { events: { id: string }[]; nextCursor: string | null } };
    ids.push(...page.data.events.map((e) => e.id));
    if (page.data.events.length < 100 || !page.data.nextCursor) return ids;
    after = page.data.nextCursor;
  }
}

await ensureLocalSigningKey();
const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-webhook-crash-"));
const receiver = startReceiver();
try {
  const receiverPort = await receiver.listening;
  await seedLocal(PRODUCTS, { persistTo });
  const credentials = { clientId: "webhook-crash-test", clientSecret: randomToken(24) };
  await withLocalBindings((env) => createApiClient(database(env.DB), { tenantId: 1, name: "Webhook crash test", ...credentials }), {
    persistTo,
  });

  let runtime = await startRuntime(persistTo, 0);
  let token = await fetchToken(runtime.baseUrl, credentials.clientId, credentials.clientSecret);
  const endpoint = await send<{ data: { id: string } }>(
    runtime.baseUrl,
    jsonPost("/customer/api/webhook-endpoints", token, { url: `http://127.0.0.1:${receiverPort}/hook`, eventTypes: ["*"] }),
    201,
  );
  const before = new Set(await feedEventIds(runtime.baseUrl, token));
  for (let round = 1; round <= crashes; round++) {
    const phase = PHASES[(round - 1) % PHASES.length]!;
    receiver.setPhase(phase);
    const ctx: BenchContext = { baseUrl: runtime.baseUrl, token, ...credentials, products: PRODUCTS, orderPool: ordersPerRound };
    const pool = await issueQuotePool(ctx, ordersPerRound);
    await Promise.all(pool.map((line) => send(runtime.baseUrl, orderRequest(ctx, line, crypto.randomUUID()), 201)));
    // Deliveries are queued, under way at the slow receiver or waiting for their retry: kill it all.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await runtime.kill();
    process.stdout.write(`round ${round}/${crashes}: receiver ${phase}, ${ordersPerRound} orders, killed\n`);
    // The receiver is back before the last start: what arrives after it measures recovery, not the receiver.
    if (round === crashes) receiver.setPhase("ok");
    runtime = await startRuntime(persistTo, round);
    token = await fetchToken(runtime.baseUrl, credentials.clientId, credentials.clientSecret);
  }

  const restartedAt = Date.now();
  const events = (await feedEventIds(runtime.baseUrl, token)).filter((id) => !before.has(id));
  const deadline = Date.now() + Number(values["deadline-seconds"]) * 1000;
  const missing = () => events.filter((id) => !receiver.delivered.has(id));
  const sweepMs = Number(values["sweep-seconds"]) * 1000;
  let nextSweep = Date.now() + sweepMs;
  while (missing().length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (Date.now() < nextSweep) continue;
    // The Cron Trigger's run, by hand (crons do not fire locally): the sweep of owed deliveries.
    await fetch(`${runtime.baseUrl}/__scheduled?cron=${encodeURIComponent(WEBHOOK_SWEEP_CRON)}`);
    nextSweep += sweepMs;
    process.stdout.write(
      `  ${Math.round((Date.now() - restartedAt) / 1000)} s: waiting for ${missing().length} of ${events.length} events\n`,
    );
  }
  await runtime.stop();
  const twice = events.filter((id) => (receiver.delivered.get(id) ?? 0) > 1).length;
  const arrivals = events.map((id) => receiver.firstArrival.get(id)).filter((at): at is number => at !== undefined);
  const lastAfterRestart = Math.max(0, ...arrivals.map((at) => at - restartedAt)) / 1000;
  console.log(
    `endpoint ${endpoint.data.id}: events ${events.length}, delivered ${events.length - missing().length}, lost ${missing().length}, delivered twice ${twice}; the last arrived ${lastAfterRestart.toFixed(1)} s after the restart (sweep every ${values["sweep-seconds"]} s)`,
  );
  if (missing().length > 0 || events.length === 0 || lastAfterRestart > Number(values["within-seconds"])) process.exitCode = 1;
} finally {
  await receiver.close();
  rmSync(persistTo, { recursive: true, force: true });
}
