import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EVENT_RETENTION_DAYS } from "../../src/api/events/types";
import worker from "../../src/api/index";
import { PURGE_BATCH_SIZE } from "../../src/platform/housekeeping";
import { RESULT_TTL_MS } from "../../src/platform/idempotency/results";
import { QUOTE_PURGE_GRACE_MS } from "../../src/shared/catalog/quotes";
import { TENANT_A } from "../helpers/api";
import { findQuote, lineFor, orderBody, placeOrder, storedQuoteLike, withoutFields } from "../helpers/orders";
import { storeRows } from "../helpers/stores";

/**
 * The Cron Trigger (wrangler.toml [triggers]) through the deployed entry's scheduled handler: tenant A lives in its
 * store, which the cron has purge its own tables (its `housekeep`, src/api/stores/tenant-store.ts).
 */

/** Tenant A's store. */
const inStore = (sql: string, ...params: (string | number)[]) => storeRows(TENANT_A, sql, ...params);

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
  await inStore(
    `INSERT INTO idempotency_results (tenant_id, idempotency_key, fingerprint, response, created_at, expires_at)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(?1)`,
    JSON.stringify(rows),
  );
}

const remaining = async (prefix: string) =>
  (await inStore("SELECT count(*) AS n FROM idempotency_results WHERE idempotency_key LIKE ?1", `${prefix}-%`))[0]!.n;

async function runHousekeeping(at: number): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: "*/15 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** `count` copies of a real quote (ids `<prefix>-<n>`), expiring at `expiresAt`, none used by an order. */
async function copyQuote(templateId: string, count: number, expiresAt: Date, prefix: string): Promise<void> {
  await inStore(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
     INSERT INTO quotes (id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition,
       warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at, used_by_order_id)
     SELECT ?3 || '-' || i, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition,
       warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, ?4, NULL
     FROM quotes, n WHERE id = ?1`,
    templateId,
    count,
    prefix,
    expiresAt.toISOString(),
  );
}

const quoteExists = async (id: string) => (await inStore("SELECT 1 AS one FROM quotes WHERE id = ?1", id)).length > 0;
const quotesLike = async (prefix: string) => (await inStore("SELECT count(*) AS n FROM quotes WHERE id LIKE ?1", `${prefix}-%`))[0]!.n;

describe("scheduled housekeeping", () => {
  it("deletes events and webhook delivery records past the 30-day retention, oldest first; keeps younger ones", async () => {
    const now = Date.now();
    const at = (days: number) => new Date(now - days * 24 * HOUR).toISOString();
    const events = { old: crypto.randomUUID(), young: crypto.randomUUID() };
    for (const [id, createdAt] of [
      [events.old, at(EVENT_RETENTION_DAYS + 1)],
      [events.young, at(EVENT_RETENTION_DAYS - 1)],
    ]) {
      await inStore(
        "INSERT INTO outbox_events (id, type, tenant_id, aggregate_id, payload, created_at, sequence, dispatched_at) VALUES (?1, 'order.created', 1, 'ORD-X', '{}', ?2, 1, ?2)",
        id!,
        createdAt!,
      );
      await inStore(
        "INSERT INTO webhook_deliveries (endpoint_id, event_id, attempt, outcome, latency_ms, created_at) VALUES ('we_x', ?1, 1, 'succeeded', 5, ?2)",
        id!,
        createdAt!,
      );
    }
    await runHousekeeping(now);
    const left = async (table: string, column: string) =>
      (await inStore(`SELECT ${column} AS id FROM ${table} WHERE ${column} IN (?1, ?2)`, events.old, events.young)).map((r) => r.id);
    expect(await left("outbox_events", "id")).toEqual([events.young]);
    expect(await left("webhook_deliveries", "event_id")).toEqual([events.young]);
  });

  it("deletes quotes a day past expiry that no order used, in bounded batches; keeps used, recent and live ones", async () => {
    const now = Date.now();
    const used = await findQuote(withoutFields);
    expect((await placeOrder(orderBody([lineFor(used)]))).status).toBe(201);
    // Quotes are stored only as issued before signed ids (and, once ordered, as the order's record of them).
    const unused = await storedQuoteLike(await findQuote(withoutFields));
    await copyQuote(unused.priceOptionId, PURGE_BATCH_SIZE + 12, new Date(now - QUOTE_PURGE_GRACE_MS - HOUR), "stale");
    await copyQuote(unused.priceOptionId, 3, new Date(now - QUOTE_PURGE_GRACE_MS + HOUR), "grace");
    // The used quote expired long ago too: it stays, its order line references it.
    await inStore(
      "UPDATE quotes SET expires_at = ?2 WHERE id = ?1",
      used.priceOptionId,
      new Date(now - 10 * QUOTE_PURGE_GRACE_MS).toISOString(),
    );

    await runHousekeeping(now);

    expect(await quotesLike("stale")).toBe(0);
    expect(await quotesLike("grace")).toBe(3);
    expect(await quoteExists(used.priceOptionId)).toBe(true);
    expect(await quoteExists(unused.priceOptionId)).toBe(true);
  });

  it("purges expired idempotency results in bounded batches and keeps live ones", async () => {
    const now = Date.now();
    const expired = PURGE_BATCH_SIZE + 37; // more than one batch
    await insertResults(expired, new Date(now - HOUR), "expired");
    await insertResults(5, new Date(now + HOUR), "live");

    await runHousekeeping(now);

    expect(await remaining("expired")).toBe(0);
    expect(await remaining("live")).toBe(5);
  });
});
