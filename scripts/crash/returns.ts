import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LocalServer } from "../bench/server";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run crash-test:returns`: the housekeeping's due steps of cores and loaners (docs/api.md, "Cores and loaners")
 * against SIGKILL. Exchange and loan lines are ordered and shipped (each parcel opens a core or a loaner); then, round
 * after round, a share of them is made due (moved back to overdue, or due within the warning days), the cron is
 * triggered and the whole runtime killed while it takes their steps, and restarted on the same state; a last run ends
 * undisturbed. Every return must then have taken each due step exactly once: one `*.due_soon` per return warned,
 * one `*.overdue` per return overdue, one `core.charged` and one charge invoice per overdue core, and none left open
 * that was due. Runs on the crash-test entry (test/crash/worker.ts), whose /__crash/sql runs statements in tenant 1's
 * store.
 */
const { values } = cliArgs(
  "crash-test:returns",
  "Kills the local runtime during return steps, then checks every return and its events are whole.",
  {
    crashes: { type: "string", default: "10", help: "SIGKILLs to send", value: "<n>" },
    returns: { type: "string", default: "96", help: "returns to drive", value: "<n>" },
    port: ownRuntimePort("8799"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { productId },
  { createApiClient },
  { randomToken },
  { fetchToken, jsonPost, send },
  { REQUESTER },
  { startServer },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/dev/seed/catalog"),
  import("../../src/shared/auth/clients"),
  import("../../src/shared/auth/secrets"),
  import("../bench/client"),
  import("../bench/scenarios"),
  import("../bench/server"),
  import("../dev/local-platform"),
  import("../dev/seed"),
]);

const crashes = Number(values.crashes);
const count = Number(values.returns);
const PRODUCTS = 60;
const VENDOR = 3;
const ENTRY = "test/crash/worker.ts";
const DAY = 86_400_000;
const MAIN_CRON = "*/15 * * * *";

const EXCHANGE = { purchaseType: "exchange", exchangeTerms: { coreCharge: "100.00", coreDueDays: 30, coreConditions: [] } };
const LOAN = { purchaseType: "loan", loanTerms: { loanDays: 30, lateFeePerDay: "5.00" } };

await ensureLocalSigningKey();
const persistTo = mkdtempSync(path.join(tmpdir(), "medparts-returns-crash-"));
const start = (round: number) =>
  startServer({
    port: Number(values.port),
    persistTo,
    entry: ENTRY,
    logFile: path.join(persistTo, `wrangler-${round}.log`),
    vars: { RATE_LIMIT_PER_MINUTE: "100000", RATE_LIMIT_BURST: "100000" },
  });

/** Statements run in tenant 1's store, through the crash entry. */
async function sql(runtime: LocalServer, statements: { sql: string; params: unknown[] }[]) {
  const res = await fetch(`${runtime.baseUrl}/__crash/sql?tenant=1`, {
    method: "POST",
    body: JSON.stringify({ statements }),
  });
  if (!res.ok) throw new Error(`/__crash/sql: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>[][];
}

try {
  await seedLocal(PRODUCTS, { persistTo });
  const buyer = { clientId: "returns-crash-buyer", clientSecret: randomToken(24) };
  const vendor = { clientId: "returns-crash-vendor", clientSecret: randomToken(24) };
  await withLocalBindings(
    async (env) => {
      await createApiClient(database(env.DB), { tenantId: 1, name: "Returns crash buyer", ...buyer });
      await createApiClient(database(env.DB), { vendorId: VENDOR, name: "Returns crash vendor", ...vendor });
    },
    { persistTo },
  );

  let runtime = await start(0);
  const buyerToken = await fetchToken(runtime.baseUrl, buyer.clientId, buyer.clientSecret);
  const vendorToken = await fetchToken(runtime.baseUrl, vendor.clientId, vendor.clientSecret);
  const call = (method: string, pathname: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${runtime.baseUrl}${pathname}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => {
      if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
      // biome-ignore lint/suspicious/noExplicitAny: the harness reads a few fields of several answers' envelopes.
      return (await res.json()) as { data: any };
    });

  // Exchange and loan lines, each its own order, each shipped: a core or a loaner per order.
  for (let i = 0; i < count; i++) {
    const product = productId(i % PRODUCTS);
    const sku = `CRASH-${i}`;
    await call("PUT", `/vendor/api/offers/${sku}`, vendorToken, {
      productId: product,
      condition: "Refurbished",
      purchaseChoice: i % 3 === 2 ? "Loan" : "Exchange",
      warranty: "6 months",
      price: "200.00",
      leadTimeDays: 2,
      ...(i % 3 === 2 ? LOAN : EXCHANGE),
    });
    const detail = await call("POST", "/customer/api/catalog/detail", buyerToken, {
      productId: product,
      requesterId: REQUESTER.requesterId,
      facilityId: REQUESTER.facilityId,
    });
    const option = (detail.data.options as { vendorSku: string; priceOptionId: string; price: string }[]).find((o) => o.vendorSku === sku)!;
    const order = await send<{ data: { orderNumber: string } }>(
      runtime.baseUrl,
      jsonPost(
        "/customer/api/orders",
        buyerToken,
        {
          ...REQUESTER,
          shippingMethod: "GROUND",
          quoteItems: [{ priceOptionId: option.priceOptionId, productId: product, quantity: 1, price: option.price }],
        },
        { "Idempotency-Key": crypto.randomUUID() },
      ),
      201,
    );
    // The buyer's read, not the vendor's list: the vendor's projection follows the store a moment later.
    const placed = await call("GET", `/customer/api/orders/${order.data.orderNumber}?include=lineItems`, buyerToken);
    const lineId = placed.data.lineItems[0].lineId as number;
    await call("POST", `/vendor/api/order-lines/${lineId}/acknowledge`, vendorToken, {
      promisedShipDate: new Date(Date.now() + DAY).toISOString().slice(0, 10),
    });
    await call("POST", `/vendor/api/order-lines/${lineId}/ship`, vendorToken, { trackingNumber: `1ZCRASH${String(i).padStart(4, "0")}` });
  }
  // Two thirds overdue (due days 1 to 3 days ago), one third due tomorrow (within the default 3 warning days).
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
  const returns = (await sql(runtime, [{ sql: "SELECT id, kind FROM unit_returns ORDER BY id", params: [] }]))[0] as {
    id: number;
    kind: string;
  }[];
  const dueAt = (i: number) => new Date(i % 3 === 0 ? today + DAY : today - (1 + (i % 3)) * DAY).toISOString();
  // Round k makes its share of the returns due (every crashes-th one), so that each kill falls on fresh work.
  const makeDue = (round: number) =>
    sql(
      runtime,
      returns
        .map((r, i) => ({ r, i }))
        .filter(({ i }) => i % crashes === round % crashes)
        .map(({ r, i }) => ({ sql: "UPDATE unit_returns SET due_at = ?1 WHERE id = ?2", params: [dueAt(i), r.id] })),
    );
  const expected = {
    overdue: returns.filter((_, i) => i % 3 !== 0).length,
    dueSoon: returns.filter((_, i) => i % 3 === 0).length,
    charged: returns.filter((r, i) => i % 3 !== 0 && r.kind === "core").length,
  };

  // The cron, killed mid-run again and again.
  const killedAfter: number[] = [];
  /** How many due steps' events exist so far: the kills must fall while the cron is under way, not after it. */
  const DUE_EVENTS =
    "SELECT count(*) AS n FROM outbox_events WHERE type IN ('core.due_soon', 'loaner.due_soon', 'core.overdue', 'loaner.overdue', 'core.charged')";
  const progress: number[] = [];
  const dueEvents = async () => ((await sql(runtime, [{ sql: DUE_EVENTS, params: [] }]))[0] as { n: number }[])[0]!.n;
  for (let crash = 1; crash <= crashes; crash++) {
    await makeDue(crash);
    // The local runtime writes its storage to disk a moment after a commit: the share must be due after a restart too.
    await sleep(1500);
    // The kill falls at a random time in the window in which the cron takes the round's steps (found by trying on
    // this machine): they come after the control database's housekeeping, within one call of the store.
    const startedAt = Date.now();
    const trigger = fetch(`${runtime.baseUrl}/__scheduled?cron=${encodeURIComponent(MAIN_CRON)}`).catch(() => null);
    await sleep(20 + Math.floor(Math.random() * 280));
    await runtime.kill();
    await trigger;
    killedAfter.push(Date.now() - startedAt);
    runtime = await start(crash);
    progress.push(await dueEvents());
  }
  // A last run, undisturbed (twice: a second run must find nothing to do).
  for (let run = 0; run < 2; run++) await fetch(`${runtime.baseUrl}/__scheduled?cron=${encodeURIComponent(MAIN_CRON)}`);
  await sleep(2000);

  const [events, invoices, open] = await sql(runtime, [
    {
      sql: "SELECT type, count(*) AS n, count(DISTINCT json_extract(payload, '$.returnId')) AS returns FROM outbox_events WHERE type IN ('core.due_soon', 'loaner.due_soon', 'core.overdue', 'loaner.overdue', 'core.charged') GROUP BY type",
      params: [],
    },
    { sql: "SELECT count(*) AS n, count(DISTINCT number) AS numbers FROM invoices WHERE origin = 'core_charge'", params: [] },
    { sql: "SELECT count(*) AS n FROM unit_returns WHERE status = 'open' AND due_at < ?1", params: [new Date(today).toISOString()] },
  ]);
  await runtime.stop();
  const byType = Object.fromEntries((events as { type: string; n: number; returns: number }[]).map((e) => [e.type, e]));
  const total = (types: string[]) => types.reduce((sum, type) => sum + (byType[type]?.n ?? 0), 0);
  const distinct = (types: string[]) => types.reduce((sum, type) => sum + (byType[type]?.returns ?? 0), 0);
  const charges = (invoices as { n: number; numbers: number }[])[0]!;
  const stillOpen = (open as { n: number }[])[0]!.n;
  console.log(`tenant 1's store: ${returns.length} returns; killed ${crashes} times, ${killedAfter.join(", ")} ms after the cron started`);
  console.log(
    `due-step events written by each killed round, cumulative: ${progress.join(", ")} of ${expected.dueSoon + expected.overdue + expected.charged}`,
  );
  console.log(
    `due_soon ${total(["core.due_soon", "loaner.due_soon"])} (expected ${expected.dueSoon}), overdue ${total(["core.overdue", "loaner.overdue"])} (expected ${expected.overdue}), core.charged ${total(["core.charged"])} and ${charges.n} charge invoices (expected ${expected.charged}), overdue still open ${stillOpen}`,
  );
  const exactlyOnce =
    total(["core.due_soon", "loaner.due_soon"]) === expected.dueSoon &&
    distinct(["core.due_soon", "loaner.due_soon"]) === expected.dueSoon &&
    total(["core.overdue", "loaner.overdue"]) === expected.overdue &&
    distinct(["core.overdue", "loaner.overdue"]) === expected.overdue &&
    total(["core.charged"]) === expected.charged &&
    charges.n === expected.charged &&
    charges.numbers === expected.charged &&
    stillOpen === 0;
  console.log(exactlyOnce ? "exactly once: every due step taken once, every overdue core charged once" : "NOT EXACTLY ONCE");
  if (!exactlyOnce) process.exitCode = 1;
} finally {
  rmSync(persistTo, { recursive: true, force: true });
}
