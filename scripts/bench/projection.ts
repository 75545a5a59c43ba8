import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cliArgs, ownRuntimePort } from "../cli";
import type { BenchContext } from "./scenarios";

/**
 * `npm run bench:projection -- [--orders 100] [--crashes 5] [--port 8795]`: the vendors' projections of a tenant's
 * lines under `wrangler dev` (docs/tenant-stores.md, "Vendors' lines").
 *
 * 1. Lag: tenant 1, in its stores as every tenant, places `--orders` orders one at a time; after each, its
 *    vendor's list (GET /vendor/api/order-lines?orderNumber=) is polled every 5 ms until the line shows, and the line is
 *    acknowledged and polled until the list shows it Acknowledged. Lag is from the write's answer to the first list
 *    that shows it: p50, p99 and the worst, for new lines and for moves.
 * 2. Convergence: `--crashes` times, orders are placed and acknowledged and the runtime is SIGKILLed at once (local
 *    queues live in memory, so messages under way are lost with it), then restarted on the same state. The housekeeping
 *    cron's reconciliation sweep then runs, and every line placed must show in its vendor's list with its status.
 * Exit 1 when a line never shows or the projection does not converge.
 */
const { values } = cliArgs(
  "bench:projection",
  "Places orders, kills the local runtime, and measures how soon every line shows in its vendor's list.",
  {
    orders: { type: "string", default: "100", help: "orders to place", value: "<n>" },
    crashes: { type: "string", default: "5", help: "SIGKILLs to send", value: "<n>" },
    port: ownRuntimePort("8795", "bench"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [
  { database },
  { percentile },
  { createApiClient },
  { ensureLocalSigningKey, withLocalBindings },
  { seedLocal },
  { fetchToken, send },
  { detailRequest, orderRequest },
  { startServer },
] = await Promise.all([
  import("../../src/db/client"),
  import("../../src/platform/percentile"),
  import("../../src/shared/auth/clients"),
  import("../dev/local-platform"),
  import("../dev/seed"),
  import("./client"),
  import("./scenarios"),
  import("./server"),
]);

const orders = Number(values.orders);
const crashes = Number(values.crashes);
const port = Number(values.port);
const TENANT = 1;
const POLL_MS = 5;
const GIVE_UP_MS = 20_000;
const BUYER = { clientId: "mpc_bench_projection", clientSecret: "bench-projection-secret-0123456789" };

interface PlacedLine {
  orderNumber: string;
  vendorId: number;
  status: "Ordered" | "Acknowledged";
}

const work = mkdtempSync(path.join(tmpdir(), "medparts-projection-"));
const state = { persistTo: path.join(work, "state") };
const summary = (lags: number[]) => {
  const sorted = [...lags].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5)} ms, p99 ${percentile(sorted, 0.99)} ms, max ${sorted.at(-1) ?? 0} ms (${sorted.length} samples)`;
};
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

try {
  await ensureLocalSigningKey();
  await seedLocal(100, state);
  const vendors = await withLocalBindings(async (env) => {
    const db = database(env.DB);
    await createApiClient(db, { tenantId: TENANT, name: "projection bench buyer", ...BUYER });
    const { results } = await env.DB.prepare("SELECT id, name FROM vendors ORDER BY id").all<{ id: number; name: string }>();
    const clients = new Map<number, { clientId: string; clientSecret: string; name: string }>();
    for (const vendor of results) {
      const credentials = { clientId: `mpv_bench_projection_${vendor.id}`, clientSecret: `bench-projection-vendor-${vendor.id}-secret` };
      await createApiClient(db, { vendorId: vendor.id, name: `projection bench ${vendor.name}`, ...credentials });
      clients.set(vendor.id, { ...credentials, name: vendor.name });
    }
    return clients;
  }, state);

  let server = await startServer({ port, ...state, logFile: path.join(work, "server-0.log") });

  const tokens = new Map<number, string>();
  const vendorToken = async (vendorId: number) => {
    if (!tokens.has(vendorId)) {
      const { clientId, clientSecret } = vendors.get(vendorId)!;
      tokens.set(vendorId, await fetchToken(server.baseUrl, clientId, clientSecret));
    }
    return tokens.get(vendorId)!;
  };
  const vendorByName = new Map([...vendors].map(([id, vendor]) => [vendor.name, id]));
  const connect = async () => {
    tokens.clear();
    const token = await fetchToken(server.baseUrl, BUYER.clientId, BUYER.clientSecret);
    return { baseUrl: server.baseUrl, token, products: 100 } as BenchContext;
  };
  let ctx = await connect();

  /** The vendor's view of the order's line, or null while its list does not show it. */
  const listed = async (line: PlacedLine) => {
    const res = await fetch(`${server.baseUrl}/vendor/api/order-lines?status=Ordered,Acknowledged&orderNumber=${line.orderNumber}`, {
      headers: { Authorization: `Bearer ${await vendorToken(line.vendorId)}` },
    });
    if (!res.ok) throw new Error(`the vendor's list answered ${res.status}`);
    const { data } = (await res.json()) as { data: { lines: { lineId: number; statusName: string }[] } };
    return data.lines[0] ?? null;
  };
  const until = async (line: PlacedLine, done: (seen: { statusName: string } | null) => boolean) => {
    const from = Date.now();
    for (;;) {
      const seen = await listed(line);
      if (done(seen)) return { lag: Date.now() - from, seen: seen! };
      if (Date.now() - from > GIVE_UP_MS) throw new Error(`${line.orderNumber} did not show as expected in ${GIVE_UP_MS} ms`);
      await sleep(POLL_MS);
    }
  };

  // Signed quotes without custom fields, each with its vendor.
  const pool: { quote: { priceOptionId: string; productId: string; price: string }; vendorId: number }[] = [];
  for (let product = 1; pool.length < orders + crashes * 2; product = (product % 100) + 1) {
    const productId = `MP-${String(product).padStart(7, "0")}`;
    const { data } = await send<{
      data: { options: { priceOptionId: string; price: string; vendorName: string; customFields: { isRequired: boolean }[] }[] };
    }>(ctx.baseUrl, detailRequest(ctx, productId));
    for (const option of data.options.filter((o) => o.customFields.every((field) => !field.isRequired))) {
      pool.push({
        quote: { priceOptionId: option.priceOptionId, productId, price: option.price },
        vendorId: vendorByName.get(option.vendorName)!,
      });
    }
  }
  const placed: PlacedLine[] = [];
  const place = async () => {
    const { quote, vendorId } = pool.pop()!;
    const { data } = await send<{ data: { orderNumber: string } }>(ctx.baseUrl, orderRequest(ctx, quote, crypto.randomUUID()), 201);
    const order = await send<{ data: { lineItems: { lineId: number }[] } }>(ctx.baseUrl, {
      method: "GET",
      path: `/customer/api/orders/${data.orderNumber}?include=lineItems`,
      headers: { authorization: `Bearer ${ctx.token}` },
    });
    const [item] = order.data.lineItems;
    const line: PlacedLine = { orderNumber: data.orderNumber, vendorId, status: "Ordered" };
    placed.push(line);
    return { line, lineId: item!.lineId };
  };
  const acknowledge = async (line: PlacedLine, lineId: number) => {
    await send(ctx.baseUrl, {
      method: "POST",
      path: `/vendor/api/order-lines/${lineId}/acknowledge`,
      headers: { authorization: `Bearer ${await vendorToken(line.vendorId)}`, "content-type": "application/json" },
      body: JSON.stringify({ promisedShipDate: tomorrow() }),
    });
    line.status = "Acknowledged";
  };

  const newLines: number[] = [];
  const moves: number[] = [];
  for (let i = 0; i < orders; i++) {
    // The order's own answer comes before its line can show; the lag counts from it.
    const { line, lineId } = await place();
    newLines.push((await until(line, (seen) => seen !== null)).lag);
    await acknowledge(line, lineId);
    moves.push((await until(line, (seen) => seen?.statusName === "Acknowledged")).lag);
  }
  console.log(`lag of a new line, order's answer to the vendor's list: ${summary(newLines)}`);
  console.log(`lag of a move, the move's answer to the vendor's list: ${summary(moves)}`);

  const lineIds = new Map<PlacedLine, number>();
  for (let crash = 1; crash <= crashes; crash++) {
    const fresh = [await place(), await place()];
    for (const { line, lineId } of fresh) lineIds.set(line, lineId);
    // Moves under way when the runtime dies: some commit and some do not, their publication cut anywhere.
    for (const { line, lineId } of fresh) void acknowledge(line, lineId).catch(() => undefined);
    await sleep(Math.random() * 30);
    await server.kill();
    server = await startServer({ port, ...state, logFile: path.join(work, `server-${crash}.log`) });
    ctx = await connect();
    tokens.clear();
  }
  // Each line's status as its store has it (a vendor's read by id goes there): what the lists must show.
  for (const [line, lineId] of lineIds) {
    const res = await fetch(`${server.baseUrl}/vendor/api/order-lines/${lineId}`, {
      headers: { Authorization: `Bearer ${await vendorToken(line.vendorId)}` },
    });
    line.status = ((await res.json()) as { data: { statusName: PlacedLine["status"] } }).data.statusName;
  }
  // What the restarts left behind, well past the lag: lines whose message died with a runtime.
  await sleep(3000);
  let behind = 0;
  for (const line of placed) if ((await listed(line))?.statusName !== line.status) behind++;
  console.log(`${behind} of ${placed.length} lines missing or out of date in their vendors' lists before the sweep`);
  const sweepStarted = Date.now();
  const sweep = await fetch(`${server.baseUrl}/__scheduled?cron=${encodeURIComponent("*/15 * * * *")}`);
  if (!sweep.ok) throw new Error(`the housekeeping cron answered ${sweep.status}`);
  let missing = 0;
  for (const line of placed) {
    try {
      await until(line, (seen) => seen?.statusName === line.status);
    } catch {
      missing++;
    }
  }
  console.log(
    `after ${crashes} SIGKILLs right after writes and one reconciliation sweep: ${placed.length - missing} of ${placed.length} lines ` +
      `show in their vendors' lists with their status (${Date.now() - sweepStarted} ms)`,
  );
  await server.stop();
  if (missing > 0) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
