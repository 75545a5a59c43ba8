import { mkdirSync, rmSync } from "node:fs";
import { database } from "../../src/db/client";
import { percentile } from "../../src/platform/percentile";
import { createApiClient } from "../../src/shared/auth/clients";
import { randomToken } from "../../src/shared/auth/secrets";
import { DIRECTORY_TABLES } from "../../src/shared/tenants/tables";
import { type LocalStorage, withLocalBindings } from "../dev/local-platform";
import { seedLocal } from "../dev/seed";
import { DEV_TENANTS_CREATED_PATH } from "../dev/seed-route";
import { API_PREFIX, fetchToken, jsonPost, send } from "./client";
import { COUNT_ROUND_TRIPS_HEADER, parseRoundTrips, ROUND_TRIPS_HEADER, type RoundTrips } from "./probe";
import { BENCH_VARS, startAppRuntime } from "./runtime";
import { REQUESTER } from "./scenarios";

/**
 * `npm run bench -- --tenants 50`: many hospitals ordering at once (docs/benchmarks.md, "Tenants ordering at once").
 * The seed's tenant 1 is cloned `--tenants` times (its directory with every id moved by a million per clone, so each
 * clone orders as tenant 1's requester does), each with its own API client. The clones are written into `DB` as the
 * operator plane writes a new tenant, registry row first, so their directory is recorded to push; once the bench
 * runtime answers, its dev route (scripts/dev/seed-route.ts) pushes it to their stores and starts their publishing, as
 * the operator plane does after it creates a tenant. Each phase runs at `--rtt` (the first value) on the bench
 * runtime: one clone ordering alone on one connection, then every clone at once, one connection each, for
 * `--duration` seconds, every clone on its own store. An order is POST /orders with one line, a fresh quote and a
 * fresh Idempotency-Key.
 */

export interface TenantsBenchSettings {
  tenants: number;
  duration: number;
  rttMs: number;
  port: number;
  bundle: string;
}

const PRODUCTS = 1000;
const FIRST_CLONE = 1001;
const ID_OFFSET = 1_000_000;
/** Text columns of the directory that are unique: each clone's get a suffix. */
const UNIQUE_TEXT = new Set(["external_id", "login_user_id", "user_name", "display_name", "email"]);

export interface Clone {
  tenantId: number;
  offset: number;
  client: { clientId: string; clientSecret: string };
}

/** The value of `column` of a clone's copy of a row of tenant 1 (`t`), as SQL. */
function clonedColumn(column: { name: string; type: string }, tenantId: number, offset: number, isTenants: boolean): string {
  const name = `t."${column.name}"`;
  if (isTenants && column.name === "id") return String(tenantId);
  if (column.name === "tenant_id") return String(tenantId);
  if (column.type.toUpperCase() === "TEXT" && UNIQUE_TEXT.has(column.name)) return `${name} || '-${tenantId}'`;
  if (column.type.toUpperCase() === "INTEGER" && (column.name === "id" || column.name.endsWith("_id"))) return `${name} + ${offset}`;
  return name;
}

/**
 * Tenant 1's rows of the control database copied for a clone, in one batch: the tenant, its registry row (where the
 * schema still has `tenant_stores`: the directory's triggers record a tenant's changes to push once it is there), its
 * directory, parents first, and its price tiers.
 */
async function cloneTenantOne(env: LocalStorage, tenantId: number, offset: number): Promise<void> {
  const directory = [
    { name: "tenants", owner: "t.id" },
    { name: "tenant_stores", owner: "t.tenant_id" },
    ...DIRECTORY_TABLES.map((table) => ({ name: table.name, owner: table.owner })),
    { name: "tenant_price_tiers", owner: "t.tenant_id" },
  ];
  const statements: D1PreparedStatement[] = [];
  for (const table of directory) {
    const { results } = await env.DB.prepare("SELECT name, type FROM pragma_table_info(?1) ORDER BY cid")
      .bind(table.name)
      .all<{ name: string; type: string }>();
    if (results.length === 0) continue; // a table this schema no longer has
    const columns = results.map((column) => `"${column.name}"`).join(", ");
    const values = results.map((column) => clonedColumn(column, tenantId, offset, table.name === "tenants")).join(", ");
    statements.push(
      env.DB.prepare(`INSERT INTO "${table.name}" (${columns}) SELECT ${values} FROM "${table.name}" t WHERE ${table.owner} = 1`),
    );
  }
  await env.DB.batch(statements);
}

/** Fresh datasets each run: the clones and their orders are the bench's own. */
export async function prepareClones(count: number, state: { persistTo: string }): Promise<Clone[]> {
  rmSync(state.persistTo, { recursive: true, force: true });
  mkdirSync(state.persistTo, { recursive: true });
  await seedLocal(PRODUCTS, state);
  return withLocalBindings(async (env) => {
    const clones: Clone[] = [];
    for (let k = 0; k < count; k++) {
      const tenantId = FIRST_CLONE + k;
      const offset = (k + 1) * ID_OFFSET;
      await cloneTenantOne(env, tenantId, offset);
      const client = { clientId: `mpc_bench_tenant_${tenantId}`, clientSecret: randomToken(24) };
      await createApiClient(database(env.DB), { tenantId, name: `Bench tenant ${tenantId}`, ...client });
      clones.push({ tenantId, offset, client });
    }
    return clones;
  }, state);
}

interface Quote {
  priceOptionId: string;
  productId: string;
  price: number;
}

export const requesterOf = (clone: Clone) => ({
  requesterId: REQUESTER.requesterId + clone.offset,
  userId: REQUESTER.userId + clone.offset,
  facilityId: REQUESTER.facilityId + clone.offset,
  shippingAddressId: REQUESTER.shippingAddressId + clone.offset,
  billingAddressId: REQUESTER.billingAddressId + clone.offset,
});

/** `size` quotes without required custom fields for the clone's requester, from products taken in turn. */
async function quotesFor(baseUrl: string, token: string, clone: Clone, size: number, start: number): Promise<Quote[]> {
  const { requesterId, facilityId } = requesterOf(clone);
  const quotes: Quote[] = [];
  for (let n = start; quotes.length < size; n++) {
    const productId = `MP-${String(1 + (n % PRODUCTS)).padStart(7, "0")}`;
    const { data } = await send<{ data: { options: (Quote & { customFields: { isRequired: boolean }[] })[] } }>(
      baseUrl,
      jsonPost(`${API_PREFIX}/catalog/detail`, token, { productId, requesterId, facilityId }),
    );
    for (const option of data.options) {
      if (option.customFields.every((field) => !field.isRequired))
        quotes.push({ priceOptionId: option.priceOptionId, productId, price: option.price });
    }
  }
  return quotes;
}

/** Orders one after the other until `until` or the quotes run out; each answer's latency in ms. */
async function orderLoop(baseUrl: string, token: string, clone: Clone, quotes: Quote[], until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const quote = quotes.pop();
    if (!quote) break;
    const { path, headers, body } = orderRequest(token, clone, quote);
    const started = performance.now();
    const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers, body });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`tenant ${clone.tenantId}: POST /orders answered ${res.status}: ${text.slice(0, 300)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (value: number) => Math.round(value);

interface PhaseResult {
  tenants: number;
  orders: number;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  /** The median and the worst of the tenants' own p50s. */
  tenantP50Median: number;
  tenantP50Worst: number;
}

async function phase(baseUrl: string, clones: Clone[], tokens: Map<number, string>, duration: number): Promise<PhaseResult> {
  // Enough quotes for the phase: about 15 orders a second for one tenant alone, far fewer each when all order at once.
  const perTenant = clones.length === 1 ? duration * 20 : Math.max(12, Math.ceil((duration * 120) / clones.length));
  const pools = await Promise.all(clones.map((clone, i) => quotesFor(baseUrl, tokens.get(clone.tenantId)!, clone, perTenant, i * 7)));
  const until = Date.now() + duration * 1000;
  const started = performance.now();
  const perClone = await Promise.all(clones.map((clone, i) => orderLoop(baseUrl, tokens.get(clone.tenantId)!, clone, pools[i]!, until)));
  const seconds = (performance.now() - started) / 1000;
  const all = sortedOf(perClone.flat());
  const tenantP50s = sortedOf(perClone.map((latencies) => percentile(sortedOf(latencies), 0.5)));
  if (pools.some((pool) => pool.length === 0)) console.warn("  (a tenant ran out of quotes before the end of the phase)");
  return {
    tenants: clones.length,
    orders: all.length,
    ordersPerSecond: Math.round((all.length / seconds) * 10) / 10,
    p50: ms(percentile(all, 0.5)),
    p99: ms(percentile(all, 0.99)),
    tenantP50Median: ms(percentile(tenantP50s, 0.5)),
    tenantP50Worst: ms(tenantP50s.at(-1) ?? 0),
  };
}

const READ_SAMPLES = 20;

/** POST /orders of one line, the quote's, under a fresh key. */
function orderRequest(token: string, clone: Clone, quote: Quote) {
  const body = {
    ...requesterOf(clone),
    shippingMethod: "GROUND",
    payment: { paymentMethod: "PO", poNumber: "BENCH-PO" },
    quoteItems: [{ ...quote, quantity: 1 }],
  };
  return jsonPost(`${API_PREFIX}/orders`, token, body, { "idempotency-key": crypto.randomUUID() });
}

/**
 * A tenant's requests as the issue lists them (order creation of a quote just issued, the reads, and catalog
 * detail), one at a time: each one's sequential round trips to D1, KV and Durable Objects (the probe's count; a tenant
 * store is a Durable Object) and its p50.
 */
async function readPaths(baseUrl: string, token: string, clone: Clone) {
  const { userId, requesterId, facilityId } = requesterOf(clone);
  const quotes = await quotesFor(baseUrl, token, clone, READ_SAMPLES, 500);
  const get = (path: string, headers: Record<string, string> = {}) => ({
    method: "GET",
    path: `${API_PREFIX}${path}`,
    headers,
    body: undefined,
  });
  const search = await send<{ data: { orders: { orderNumber: string }[] } }>(baseUrl, {
    method: "GET",
    path: `${API_PREFIX}/orders/search?limit=1`,
    headers: { authorization: `Bearer ${token}` },
  });
  const orderNumber = search.data.orders[0]?.orderNumber ?? "none";
  const detail = jsonPost(`${API_PREFIX}/catalog/detail`, token, { productId: "MP-0000003", requesterId, facilityId });
  const requests: Record<string, () => { method: string; path: string; headers?: Record<string, string>; body?: string }> = {
    "order-create (a quote just issued)": () => orderRequest(token, clone, quotes.pop()!),
    // The bookmark makes the lookup read its database instead of the profile an isolate remembers.
    "users-lookup (read, not remembered)": () => get(`/users/lookup?userId=${userId}`, { "x-session-bookmark": "first-primary" }),
    "orders-search": () => get("/orders/search?limit=50"),
    "order-by-number": () => get(`/orders/${orderNumber}`),
    "events-feed": () => get("/events?limit=50"),
    "webhook-endpoints": () => get("/webhook-endpoints"),
    "catalog-detail": () => detail,
  };
  const rows: { name: string; roundTrips: RoundTrips; p50: number }[] = [];
  for (const [name, next] of Object.entries(requests)) {
    const latencies: number[] = [];
    let roundTrips: RoundTrips = { d1: 0, kv: 0, do: 0 };
    for (let i = 0; i < READ_SAMPLES; i++) {
      const request = next();
      const started = performance.now();
      const res = await fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${token}`, ...request.headers, [COUNT_ROUND_TRIPS_HEADER]: "1" },
        body: request.body,
      });
      await res.arrayBuffer();
      if (res.status !== (request.method === "POST" && request.path.endsWith("/orders") ? 201 : 200)) {
        throw new Error(`${name}: answered ${res.status}`);
      }
      latencies.push(performance.now() - started);
      roundTrips = parseRoundTrips(res.headers.get(ROUND_TRIPS_HEADER));
    }
    rows.push({ name, roundTrips, p50: ms(percentile(sortedOf(latencies), 0.5)) });
  }
  return rows;
}

/** Runs the bench; its Markdown tables. */
export async function runTenantsBench(settings: TenantsBenchSettings): Promise<string> {
  const state = { persistTo: `.wrangler/bench-tenants/${settings.tenants}` };
  console.log(`Seeding ${PRODUCTS} products and ${settings.tenants} clones of tenant 1 into ${state.persistTo} ...`);
  const clones = await prepareClones(settings.tenants, state);
  const runtime = await startAppRuntime({
    bundle: settings.bundle,
    state,
    port: settings.port,
    vars: { ...BENCH_VARS, BENCH_RTT_MS: String(settings.rttMs) },
  });
  const rows: PhaseResult[] = [];
  let reads: Awaited<ReturnType<typeof readPaths>> = [];
  try {
    // The clones' directory to their stores, their stores publishing (the runtime seeded the demo tenants' already).
    const created = await fetch(
      `${runtime.baseUrl}${DEV_TENANTS_CREATED_PATH}?tenants=${clones.map((clone) => clone.tenantId).join(",")}`,
      {
        method: "POST",
      },
    );
    if (!created.ok) throw new Error(`bringing the clones to their stores answered ${created.status}: ${await created.text()}`);
    const tokens = new Map<number, string>();
    for (const clone of clones)
      tokens.set(clone.tenantId, await fetchToken(runtime.baseUrl, clone.client.clientId, clone.client.clientSecret));
    for (const group of [clones.slice(0, 1), clones]) {
      console.log(`Tenants on their stores: ${group.length} ordering at once, ${settings.duration} s at rtt ${settings.rttMs} ms ...`);
      const result = await phase(runtime.baseUrl, group, tokens, settings.duration);
      console.log(`  ${JSON.stringify(result)}`);
      rows.push(result);
    }
    reads = await readPaths(runtime.baseUrl, tokens.get(clones[0]!.tenantId)!, clones[0]!);
  } finally {
    await runtime.stop();
  }
  const readTable =
    `| Request, one tenant on its store | Round trips D1 / KV / DO | p50 ms |\n|---|---|---:|\n` +
    reads.map(({ name, roundTrips: t, p50 }) => `| ${name} | ${t.d1} / ${t.kv} / ${t.do} | ${p50} |`).join("\n");
  const header =
    `| Tenants ordering at once, each on its store | Orders | Orders/s | p50 ms | p99 ms | Median of the tenants' p50 ms | Worst tenant's p50 ms |\n` +
    `|---:|---:|---:|---:|---:|---:|---:|\n`;
  return (
    header +
    rows
      .map(
        (r) => `| ${r.tenants} | ${r.orders} | ${r.ordersPerSecond} | ${r.p50} | ${r.p99} | ${r.tenantP50Median} | ${r.tenantP50Worst} |`,
      )
      .join("\n") +
    `\n\n${readTable}`
  );
}
