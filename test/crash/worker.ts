import production from "../../src/api/index";
import type { Bindings } from "../../src/env";
import type { StoreStatementData } from "../../src/shared/tenants/statements";
import { tenantStore } from "../../src/shared/tenants/stub";
import { afterBatchCommits, namespaceAround, sqlOf } from "../helpers/faults";

// The Durable Object classes of the production entry (wrangler.toml names them).
export * from "../../src/api/index";

/**
 * Entry worker of `npm run crash-test` (scripts/crash/orders.ts), never deployed. A request carrying
 * `X-Crash-At-Commit: 1` runs the production app with one change: right after a D1 batch that writes
 * idempotency_results has committed, it prints CRASH_POINT and never returns, so the harness can kill the
 * runtime exactly at the commit boundary (after the commit, before the Durable Object records the result).
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

/** The same pause after a tenant store's transaction commits an order's result (a switched tenant, `--store`). */
function pausingAfterCommit(env: Bindings, key: string): Bindings {
  const DB = afterBatchCommits(env.DB, async (statements) => {
    if (statements.some((s) => writesResult(sqlOf(s)))) await pause(key);
  });
  const TENANT_STORE = namespaceAround(env.TENANT_STORE, {
    execute:
      (execute) =>
      async (statements: StoreStatementData[], ...rest: unknown[]) => {
        const results = await execute(statements, ...rest);
        if (statements.some((s) => writesResult(s.sql))) await pause(key);
        return results;
      },
  });
  return { ...env, DB, TENANT_STORE };
}

/**
 * GET /__crash/committed?tenant=1&home=store|database: the order results committed for the tenant, Idempotency-Key to
 * the stored answer, and its count of harness orders, read where the tenant's data lives (the harness reads them
 * between rounds, with the runtime up).
 */
async function committed(env: Bindings, url: URL): Promise<Response> {
  const tenantId = Number(url.searchParams.get("tenant"));
  const statements = [
    { sql: "SELECT idempotency_key AS key, response FROM idempotency_results WHERE tenant_id = ?", params: [tenantId] },
    { sql: "SELECT count(*) AS n FROM orders WHERE po_number = 'BENCH-PO' AND tenant_id = ?", params: [tenantId] },
  ];
  if (url.searchParams.get("home") === "store") {
    const [results, orders] = await tenantStore(env, tenantId).execute(statements);
    return Response.json({ results: results!.results, orders: orders!.results[0]!.n });
  }
  const [results, orders] = await env.DB.batch(statements.map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  return Response.json({ results: results!.results, orders: (orders!.results[0] as { n: number }).n });
}

/**
 * POST /__crash/sql?tenant=1&home=store|database `{ statements: [{ sql, params }] }`: the statements run where the
 * tenant's data lives, their rows answered (the returns' crash test moves due days back and counts what the cron wrote).
 */
async function sqlWhereTheTenantLives(env: Bindings, url: URL, request: Request): Promise<Response> {
  const tenantId = Number(url.searchParams.get("tenant"));
  const { statements } = (await request.json()) as { statements: StoreStatementData[] };
  if (url.searchParams.get("home") === "store") {
    return Response.json((await tenantStore(env, tenantId).execute(statements)).map((result) => result.results));
  }
  const results = await env.DB.batch(statements.map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
  return Response.json(results.map((result) => result.results));
}

export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/__crash/committed") return committed(env, url);
    if (url.pathname === "/__crash/sql" && request.method === "POST") return sqlWhereTheTenantLives(env, url, request);
    const crash = request.headers.get(CRASH_HEADER) === "1";
    const key = request.headers.get("Idempotency-Key") ?? "";
    return production.fetch(request, crash ? pausingAfterCommit(env, key) : env, ctx);
  },
  scheduled: production.scheduled,
} satisfies ExportedHandler<Bindings>;
