import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cliArgs, ownRuntimePort } from "../cli";

/**
 * `npm run crash-test:tenant-stores`: SIGKILL the local runtime again and again while it moves a tenant into its stores,
 * restart it on the same state and ask for the move again (which resumes it), until the move ends. The same deployment
 * is then moved once without a crash from a second, identical state. Both moves must end copied and verified, with every
 * table's row count and content digest, in each store, equal to the clean move's (docs/tenant-stores.md).
 */
const { values } = cliArgs(
  "crash-test:tenant-stores",
  "Kills the local runtime while tenants move to their stores, then checks nothing was lost or doubled.",
  {
    crashes: { type: "string", default: "20", help: "SIGKILLs to send", value: "<n>" },
    orders: { type: "string", default: "80000", help: "orders to move", value: "<n>" },
    port: ownRuntimePort("8796"),
  },
);

// Loaded once the command line is sound: --help and usage errors answer without them.
const [{ startServer }, { ensureLocalSigningKey, withLocalBindings }, { seedLocal }, { createOperatorClient, OperatorApi }] =
  await Promise.all([import("../bench/server"), import("../dev/local-platform"), import("../dev/seed"), import("../tools/local-import")]);

const crashes = Number(values.crashes);
const orders = Number(values.orders);
const port = Number(values.port);
const TENANT = 1;

interface StoreEntry {
  state: string;
  moveId: string;
  copiedRows: number | null;
  totalRows: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  verification: {
    equal: boolean;
    error?: string;
    stores?: { tenantId: number; bytes: number; tables: { table: string; store: { rows: number; digest: string } }[] }[];
  } | null;
}

const work = mkdtempSync(path.join(tmpdir(), "medparts-tenant-store-crash-"));
await ensureLocalSigningKey();

/** `count` more one-line orders of tenant 1 (each with its consumed quote and its event), written straight into D1. */
async function addOrders(state: { persistTo: string }, count: number): Promise<void> {
  await withLocalBindings(async (env) => {
    const ref = await env.DB.prepare(
      "SELECT o.company_id, o.facility_id, o.user_id, o.requester_contact_id, o.shipping_address_id, o.billing_address_id, " +
        "l.vendor_id, q.offer_id FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN quotes q ON q.id = l.quote_id WHERE o.tenant_id = ?1 LIMIT 1",
    )
      .bind(TENANT)
      .first<Record<string, number>>();
    if (!ref) throw new Error("the seed has no order of tenant 1 to model the added ones on");
    const base = (await env.DB.prepare("SELECT coalesce(max(id), 0) AS id FROM orders").first<number>("id"))! + 1;
    for (let from = 0; from < count; from += 2000) {
      const n = Math.min(2000, count - from);
      const series = `WITH RECURSIVE s(i) AS (SELECT ${base + from} UNION ALL SELECT i + 1 FROM s WHERE i < ${base + from + n - 1})`;
      await env.DB.batch([
        env.DB.prepare(
          `${series} INSERT INTO quotes (id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition, warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at, used_by_order_id) ` +
            "SELECT 'po_crash_' || i, ?1, ?2, ?3, 'MP-0000001', ?4, ?5, 1000 + i % 500, 'New', '1 year', 'Buy', 3, '30 days', '[]', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', i FROM s",
        ).bind(TENANT, ref.requester_contact_id, ref.facility_id, ref.offer_id, ref.vendor_id),
        env.DB.prepare(
          `${series} INSERT INTO orders (id, order_number, tenant_id, company_id, facility_id, requester_contact_id, user_id, requester_name, po_number, payment_method, shipping_method, shipping_address_id, billing_address_id, notes, status, total_cents, event_id, created_at, updated_at) ` +
            "SELECT i, 'CRASH-' || i, ?1, ?2, ?3, ?4, ?5, 'Crash Test', 'PO-' || i, 'CreditCard', 'Ground', ?6, ?7, 'order ' || i, 'Ordered', 1000 + i % 500, 'evt_crash_' || i, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM s",
        ).bind(
          TENANT,
          ref.company_id,
          ref.facility_id,
          ref.requester_contact_id,
          ref.user_id,
          ref.shipping_address_id,
          ref.billing_address_id,
        ),
        env.DB.prepare(
          `${series} INSERT INTO order_lines (order_id, line_number, quote_id, product_id, vendor_id, part_number, requested_part_number, description, quantity, price_cents, extended_price_cents, status_name) ` +
            "SELECT i, 1, 'po_crash_' || i, 'MP-0000001', ?1, 'MP-0000001', 'MP-0000001', 'Part ' || i, 1, 1000 + i % 500, 1000 + i % 500, 'Ordered' FROM s",
        ).bind(ref.vendor_id),
        env.DB.prepare(
          `${series} INSERT INTO outbox_events (id, type, tenant_id, aggregate_id, payload, created_at, sequence, dispatched_at) ` +
            "SELECT 'evt_crash_' || i, 'order.created', ?1, 'CRASH-' || i, json_object('orderNumber', 'CRASH-' || i), '2026-11-01T00:00:00.000Z', 1, '2026-11-01T00:00:01.000Z' FROM s",
        ).bind(TENANT),
      ]);
    }
  }, state);
}

async function prepared(name: string) {
  const state = { persistTo: path.join(work, name) };
  await seedLocal(100, state);
  await addOrders(state, orders);
  return { state, credentials: await createOperatorClient(state, `${name} operator`) };
}

async function untilEnded(api: import("../tools/local-import").OperatorApi): Promise<StoreEntry> {
  for (;;) {
    const entry = await api.call<StoreEntry>("GET", `/tenants/${TENANT}/store`);
    if (entry.state !== "copying") return entry;
    await sleep(250);
  }
}

/** Per store and table: rows and digest, as the move read them back from the store. */
const digests = (entry: StoreEntry) =>
  JSON.stringify(
    (entry.verification?.stores ?? []).map((store) => [store.tenantId, store.tables.map((t) => [t.table, t.store.rows, t.store.digest])]),
  );

try {
  const crashed = await prepared("crashed");
  const clean = await prepared("clean");

  let server = await startServer({ port, ...crashed.state, logFile: path.join(work, "crashed-0.log") });
  let api = await OperatorApi.connect(server.baseUrl, crashed.credentials);
  let entry = await api.call<StoreEntry>("POST", `/tenants/${TENANT}/store-move`);
  const moveId = entry.moveId;
  const killedAt: string[] = [];
  for (let crash = 1; crash <= crashes; crash++) {
    await sleep(100 + Math.random() * 200);
    entry = await api.call<StoreEntry>("GET", `/tenants/${TENANT}/store`);
    if (entry.state !== "copying") break;
    killedAt.push(`${entry.copiedRows ?? 0}/${entry.totalRows ?? "?"}`);
    await server.kill();
    server = await startServer({ port, ...crashed.state, logFile: path.join(work, `crashed-${crash}.log`) });
    api = await api.reconnect(server.baseUrl);
    entry = await api.call<StoreEntry>("POST", `/tenants/${TENANT}/store-move`); // resumes the move under way
    if (entry.moveId !== moveId) throw new Error(`a second move started (${entry.moveId}) instead of resuming ${moveId}`);
  }
  const afterCrashes = await untilEnded(api);
  await server.stop();

  server = await startServer({ port, ...clean.state, logFile: path.join(work, "clean.log") });
  const cleanApi = await OperatorApi.connect(server.baseUrl, clean.credentials);
  await cleanApi.call("POST", `/tenants/${TENANT}/store-move`);
  const afterClean = await untilEnded(cleanApi);
  await server.stop();

  console.log(`killed at (rows copied/total): ${killedAt.join(", ")}`);
  console.log(
    `crashed move (${killedAt.length} SIGKILLs): ${afterCrashes.state}, ${afterCrashes.copiedRows} rows, equal ${afterCrashes.verification?.equal}`,
  );
  const seconds = (Date.parse(afterClean.finishedAt!) - Date.parse(afterClean.startedAt!)) / 1000;
  console.log(
    `clean move: ${afterClean.state}, ${afterClean.copiedRows} rows in ${seconds.toFixed(1)} s (${Math.round((afterClean.copiedRows ?? 0) / seconds)} rows/s, ` +
      `copy and read-back), equal ${afterClean.verification?.equal}`,
  );
  const same =
    afterCrashes.state === "copied" &&
    afterClean.state === "copied" &&
    digests(afterCrashes) === digests(afterClean) &&
    digests(afterClean) !== "[]";
  const own = afterClean.verification?.stores?.find((store) => store.tenantId === TENANT);
  if (own)
    console.log(
      `tenant ${TENANT}'s store: ${own.bytes} bytes, ${Math.round(own.bytes / (afterClean.copiedRows ?? 1))} bytes per row copied`,
    );
  console.log(same ? "equal: every table of every store holds what the clean move left" : "DIFFERENT");
  if (killedAt.length < crashes) console.log(`the move ended after ${killedAt.length} of ${crashes} crashes: give it more --orders`);
  if (!same || killedAt.length < crashes) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
