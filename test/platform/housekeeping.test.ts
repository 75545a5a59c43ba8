import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { PURGE_BATCH_SIZE } from "../../src/platform/housekeeping";
import { RESULT_TTL_MS } from "../../src/platform/idempotency/store";

/** The Cron Trigger (wrangler.toml [triggers]) through the deployed entry's scheduled handler, against real D1. */

const HOUR = 60 * 60 * 1000;

async function insertResults(count: number, expiresAt: Date, prefix: string): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => [
    1,
    `${prefix}-${i}`,
    "fingerprint",
    JSON.stringify({ status: 201, headers: {}, body: "{}" }),
    new Date(expiresAt.getTime() - RESULT_TTL_MS).toISOString(),
    expiresAt.toISOString(),
  ]);
  await env.DB.prepare(
    `INSERT INTO idempotency_results (tenant_id, idempotency_key, fingerprint, response, created_at, expires_at)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(?1)`,
  )
    .bind(JSON.stringify(rows))
    .run();
}

const remaining = async (prefix: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_results WHERE idempotency_key LIKE ?1")
    .bind(`${prefix}-%`)
    .first<{ n: number }>())!.n;

describe("scheduled housekeeping", () => {
  it("purges expired idempotency results in bounded batches and keeps live ones", async () => {
    const now = Date.now();
    const expired = PURGE_BATCH_SIZE + 37; // more than one batch
    await insertResults(expired, new Date(now - HOUR), "expired");
    await insertResults(5, new Date(now + HOUR), "live");

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await remaining("expired")).toBe(0);
    expect(await remaining("live")).toBe(5);
  });
});
