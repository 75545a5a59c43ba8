import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { idempotencyStore, MISMATCH_MESSAGE } from "../../src/platform/idempotency/middleware";
import { IDEMPOTENCY_ENTRY_KEY, type IdempotencyEntry } from "../../src/platform/idempotency/store";
import { TENANT_A } from "../helpers/api";
import { issueQuote, JSMITH, lineFor, NOTHING_WRITTEN, orderBody, placeOrder, rowsWrittenBy, withoutFields } from "../helpers/orders";
import { eventually, testFault } from "../helpers/platform";

/**
 * Crash safety of POST /orders (docs/architecture.md, "Crash-safe idempotency"): a fault injected at each step
 * boundary of an order, then a retry with the same key and body, which must get the original result (or proceed
 * when nothing committed), never a second order and never a different answer.
 */

const CACHED = "X-Idempotency-Cached";
let nextProduct = 500;

async function freshBody() {
  const quote = await issueQuote(`MP-${String(nextProduct++).padStart(7, "0")}`, JSMITH, withoutFields);
  return orderBody([lineFor(quote)], JSMITH);
}

const ONE_ORDER = { orders: 1, orderLines: 1, shippingDocuments: 1, shippingDocumentLines: 1, events: 1 };

function storedEntry(key: string) {
  return runInDurableObject(idempotencyStore(env, TENANT_A, key), (_instance, state) =>
    state.storage.kv.get<IdempotencyEntry>(IDEMPOTENCY_ENTRY_KEY),
  );
}

async function committedResults(key: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM idempotency_results WHERE tenant_id = ?1 AND idempotency_key = ?2")
    .bind(TENANT_A, key.toLowerCase())
    .first<{ n: number }>();
  return row!.n;
}

describe("crash safety of POST /orders: the result commits with the order", () => {
  it("the 201 is committed in the order's batch: one idempotency row per created order, none for a refused one", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const { result, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(result.status).toBe(201);
    expect(written).toEqual(ONE_ORDER);
    expect(await committedResults(key)).toBe(1);

    const refusedKey = crypto.randomUUID();
    const refused = await placeOrder({ ...body, shippingAddressId: 99999 }, { key: refusedKey });
    expect(refused.status).toBe(422);
    expect(await committedResults(refusedKey)).toBe(0);
  });

  it("crash after the D1 commit, before the lock records the result: the retry replays the original 201 at once", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const lost = await rowsWrittenBy(() => placeOrder(body, { key, headers: testFault("idempotency-record-lost") }));
    expect(lost.written).toEqual(ONE_ORDER);
    const original = await lost.result.text(); // the client of a crashed Worker never reads this
    expect((await storedEntry(key))?.state).toBe("processing"); // the marker a crash leaves behind

    const { result: retry, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(retry.status).toBe(201);
    expect(retry.headers.get(CACHED)).toBe("true");
    expect(await retry.text()).toBe(original);
    // The object learned the result from D1: the next retry is served by it alone.
    expect(await storedEntry(key)).toMatchObject({ state: "completed", response: { status: 201, body: original } });
  });

  it("recording the result fails: the client still gets its 201, and every retry gets the same bytes", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const first = await placeOrder(body, { key, headers: testFault("idempotency-record-lost") });
    expect(first.status).toBe(201);
    const original = await first.text();
    for (let i = 0; i < 2; i++) {
      const { result: retry, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
      expect(written).toEqual(NOTHING_WRITTEN);
      expect(retry.status).toBe(201);
      expect(await retry.text()).toBe(original);
    }
  });

  it("the lock's storage is lost after the order: the retry replays from D1; another body is still 409", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const original = await (await placeOrder(body, { key })).text();
    await runInDurableObject(idempotencyStore(env, TENANT_A, key), (_instance, state) => state.storage.deleteAll());
    expect(await storedEntry(key)).toBeUndefined();

    const { result: retry, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(retry.status).toBe(201);
    expect(retry.headers.get(CACHED)).toBe("true");
    expect(await retry.text()).toBe(original);

    await runInDurableObject(idempotencyStore(env, TENANT_A, key), (_instance, state) => state.storage.deleteAll());
    const other = await placeOrder(await freshBody(), { key });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: MISMATCH_MESSAGE });
  });

  it("the batch commits but its reply is lost: the answer is the committed 201, not a 503, and the retry agrees", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const { result: first, written } = await rowsWrittenBy(() => placeOrder(body, { key, headers: testFault("d1-batch-reply-lost") }));
    expect(written).toEqual(ONE_ORDER);
    expect(first.status).toBe(201);
    const original = (await first.json()) as { data: { orderNumber: string } };
    expect(original.data.orderNumber).toMatch(/^ORD-/);
    // The 201 is cached, not a 5xx (recorded in the background, after the answer).
    expect(
      (
        await eventually(
          () => storedEntry(key),
          (e) => e?.state !== "processing",
        )
      )?.state,
    ).toBe("completed");

    const retry = await placeOrder(body, { key });
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(original);
  });

  it("an object that forgot the key lets two attempts run at once: exactly one order, both answered with it", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const forgetful = { key, headers: testFault("idempotency-forgets") };
    const { result, written } = await rowsWrittenBy(() => Promise.all([placeOrder(body, forgetful), placeOrder(body, forgetful)]));
    expect(written).toEqual(ONE_ORDER);
    expect(result.map((r) => r.status)).toEqual([201, 201]);
    const [a, b] = (await Promise.all(result.map((r) => r.json()))) as { data: { orderNumber: string } }[];
    expect(a!.data.orderNumber).toBe(b!.data.orderNumber);
  });

  it("crash after the lock, before the D1 commit: nothing was written, so the key proceeds once its marker expires", async () => {
    // Covered step by step in idempotency.test.ts ("rule 5: processing marker"): 409 processing while the
    // marker lasts, then a new attempt creates the order. Here: nothing committed means nothing to replay.
    const key = crypto.randomUUID();
    const body = await freshBody();
    const failed = await rowsWrittenBy(() => placeOrder(body, { key, headers: testFault("d1-unavailable") }));
    expect(failed.written).toEqual(NOTHING_WRITTEN);
    expect(failed.result.status).toBe(503);
    expect(await committedResults(key)).toBe(0);
  });
});
