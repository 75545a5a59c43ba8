import type { Bindings } from "../../src/env";
import production from "../../src/index";

// The Durable Object classes of the production entry (wrangler.toml names them).
export * from "../../src/index";

/**
 * Entry worker of `npm run crash-test` (scripts/crash-test.ts), never deployed. A request carrying
 * `X-Crash-At-Commit: 1` runs the production app with one change: right after a D1 batch that writes
 * idempotency_results has committed, it prints CRASH_POINT and never returns, so the harness can kill the
 * runtime exactly at the commit boundary (after the commit, before the Durable Object records the result).
 */
const CRASH_HEADER = "X-Crash-At-Commit";
const CRASH_POINT = "MEDPARTS_CRASH_POINT";

function pausingAfterCommit(env: Bindings, key: string): Bindings {
  const db = env.DB;
  const DB = new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop !== "batch") return value.bind(target);
      return async (statements: D1PreparedStatement[]) => {
        const results = await value.call(target, statements);
        const commitsResult = statements.some((s) =>
          /insert into "idempotency_results"/i.test((s as { statement?: string }).statement ?? ""),
        );
        if (commitsResult) {
          console.log(`${CRASH_POINT} ${key}`);
          await new Promise(() => {}); // the runtime is killed here
        }
        return results;
      };
    },
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
