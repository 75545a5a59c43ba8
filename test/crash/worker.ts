import dev from "../../scripts/dev/worker";
import type { Bindings } from "../../src/env";
import type { StoreRun } from "../../src/platform/idempotency/key-lock";
import type { StoreStatementData } from "../../src/shared/tenants/statements";
import { tenantStore } from "../../src/shared/tenants/stub";
import { namespaceAround } from "../helpers/faults";

// The Durable Object classes wrangler.toml names, as the dev entry (and the production one) exports them.
export * from "../../scripts/dev/worker";

/**
 * Entry worker of the crash tests (`npm run crash-test`, scripts/crash/orders.ts; `crash-test:returns`,
 * `crash-test:start`, `crash-test:edi`), never deployed. It is the local runtime's entry (scripts/dev/worker.ts: production's app plus
 * its dev routes, the demo stores' seed among them, which every local runtime calls once live) with one change: a
 * request carrying `X-Crash-At-Commit: 1` runs with the tenant stores' stubs wrapped so that, right after a store's
 * transaction has committed an order's result (its one call placing the order, or statements that write
 * idempotency_results), it prints CRASH_POINT and never returns, so the harness can kill the runtime exactly at the
 * commit boundary (after the commit, before the Worker answers).
 */
const CRASH_HEADER = "X-Crash-At-Commit";
const CRASH_POINT = "MEDPARTS_CRASH_POINT";

const writesResult = (sql: string) => /insert into "idempotency_results"/i.test(sql);

async function pause(key: string): Promise<void> {
  console.error(`${CRASH_POINT} ${key}`); // an error-level line: the harness runs wrangler with --log-level warn
  // The runtime is killed here. A pending timer, not a bare never-settling promise: workerd cancels a request
  // that waits on nothing (and would answer it), which is not the crash this simulates.
  await new Promise((resolve) => setTimeout(resolve, 10 * 60_000));
}

/** The pause after a tenant store's transaction commits an order's result. */
function pausingAfterCommit(env: Bindings, key: string): Bindings {
  const TENANT_STORE = namespaceAround(env.TENANT_STORE, {
    // Order creation: the key's lock, the order and its result in one call (src/api/stores/tenant-store.ts).
    placeOrder:
      (placeOrder) =>
      async (...args: unknown[]) => {
        const run = (await placeOrder(...args)) as StoreRun;
        if ("ran" in run && "value" in run.ran) await pause(key);
        return run;
      },
    execute:
      (execute) =>
      async (statements: StoreStatementData[], ...rest: unknown[]) => {
        const results = await execute(statements, ...rest);
        if (statements.some((s) => writesResult(s.sql))) await pause(key);
        return results;
      },
  });
  return { ...env, TENANT_STORE };
}

/**
 * GET /__crash/committed?tenant=1: the order results committed in the tenant's store, Idempotency-Key to the stored
 * answer, and its count of harness orders (the harness reads them between rounds, with the runtime up).
 */
async function committed(env: Bindings, url: URL): Promise<Response> {
  const tenantId = Number(url.searchParams.get("tenant"));
  const [results, orders] = await tenantStore(env, tenantId).execute([
    { sql: "SELECT idempotency_key AS key, response FROM idempotency_results WHERE tenant_id = ?", params: [tenantId] },
    { sql: "SELECT count(*) AS n FROM orders WHERE po_number = 'BENCH-PO' AND tenant_id = ?", params: [tenantId] },
  ]);
  return Response.json({ results: results!.results, orders: orders!.results[0]!.n });
}

/**
 * POST /__crash/sql?tenant=1 `{ statements: [{ sql, params }] }`: the statements run in the tenant's store, their rows
 * answered (the returns' crash test moves due days back and counts what the cron wrote; the start's reads each demo
 * tenant's orders and directory). `?database=DB` instead: in `DB`, in one batch (the EDI crash test reads the
 * partner's interchanges there).
 */
async function sqlInTheStore(env: Bindings, url: URL, request: Request): Promise<Response> {
  const { statements } = (await request.json()) as { statements: StoreStatementData[] };
  if (url.searchParams.get("database") === "DB") {
    const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
    return Response.json(results.map((result) => result.results));
  }
  const tenantId = Number(url.searchParams.get("tenant"));
  return Response.json((await tenantStore(env, tenantId).execute(statements)).map((result) => result.results));
}

export default {
  ...dev,
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/__crash/committed") return committed(env, url);
    if (url.pathname === "/__crash/sql" && request.method === "POST") return sqlInTheStore(env, url, request);
    const crash = request.headers.get(CRASH_HEADER) === "1";
    const key = request.headers.get("Idempotency-Key") ?? "";
    return dev.fetch(request, crash ? pausingAfterCommit(env, key) : env, ctx);
  },
} satisfies ExportedHandler<Bindings>;
