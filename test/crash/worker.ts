import production from "../../src/api/index";
import type { Bindings } from "../../src/env";
import { afterBatchCommits, sqlOf } from "../helpers/faults";

// The Durable Object classes of the production entry (wrangler.toml names them).
export * from "../../src/api/index";

/**
 * Entry worker of `npm run crash-test` (scripts/crash-test.ts), never deployed. A request carrying
 * `X-Crash-At-Commit: 1` runs the production app with one change: right after a D1 batch that writes
 * idempotency_results has committed, it prints CRASH_POINT and never returns, so the harness can kill the
 * runtime exactly at the commit boundary (after the commit, before the Durable Object records the result).
 */
const CRASH_HEADER = "X-Crash-At-Commit";
const CRASH_POINT = "MEDPARTS_CRASH_POINT";

function pausingAfterCommit(env: Bindings, key: string): Bindings {
  const DB = afterBatchCommits(env.DB, async (statements) => {
    if (!statements.some((s) => /insert into "idempotency_results"/i.test(sqlOf(s)))) return;
    console.error(`${CRASH_POINT} ${key}`); // an error-level line: the harness runs wrangler with --log-level warn
    // The runtime is killed here. A pending timer, not a bare never-settling promise: workerd cancels a request
    // that waits on nothing (and would answer it), which is not the crash this simulates.
    await new Promise((resolve) => setTimeout(resolve, 10 * 60_000));
  });
  return { ...env, DB };
}

export default {
  fetch(request, env, ctx) {
    const crash = request.headers.get(CRASH_HEADER) === "1";
    const key = request.headers.get("Idempotency-Key") ?? "";
    return production.fetch(request, crash ? pausingAfterCommit(env, key) : env, ctx);
  },
  scheduled: production.scheduled,
} satisfies ExportedHandler<Bindings>;
