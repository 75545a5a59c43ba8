import { describe, expect, it } from "vitest";
import { MISMATCH_MESSAGE } from "../../src/platform/idempotency/middleware";
import { TENANT_A } from "../helpers/api";
import { issueQuote, JSMITH, lineFor, NOTHING_WRITTEN, orderBody, placeOrder, rowsWrittenBy, withoutFields } from "../helpers/orders";
import { testFault } from "../helpers/platform";
import { committedResults, lockedAttempt } from "../helpers/store-locks";
import { storeRows } from "../helpers/stores";

/**
 * Crash safety of POST /orders (docs/architecture.md, "Crash-safe idempotency"), where a tenant's store runs the whole
 * request: its lock, the order and the order's result in one call (docs/tenant-stores.md, "Order creation"). A fault at
 * each step boundary (or the state a crash there leaves in the store), then a retry with the same key and body, which
 * must get the original result (or proceed when nothing committed), never a second order and never a different answer.
 */

const CACHED = "X-Idempotency-Cached";
let nextProduct = 500;

async function freshBody() {
  const quote = await issueQuote(`MP-${String(nextProduct++).padStart(7, "0")}`, JSMITH, withoutFields);
  return orderBody([lineFor(quote)], JSMITH);
}

const ONE_ORDER = { orders: 1, orderLines: 1, shippingDocuments: 1, shippingDocumentLines: 1, events: 1 };

/** What a crash between the order's commit and the lock's record leaves: the key's attempt still marked processing. */
const leaveProcessing = (key: string) =>
  storeRows(
    TENANT_A,
    "UPDATE idempotency_attempts SET attempt_id = ?, response = NULL, expires_at = ? WHERE idempotency_key = ?",
    crypto.randomUUID(),
    Date.now() + 5 * 60 * 1000,
    key.toLowerCase(),
  );

/** What a lock that lost its attempts leaves (the committed results stand beside them). */
const forgetAttempt = (key: string) => storeRows(TENANT_A, "DELETE FROM idempotency_attempts WHERE idempotency_key = ?", key.toLowerCase());

describe("crash safety of POST /orders: the result commits with the order", () => {
  it("the 201 is committed in the order's batch: one idempotency row per created order, none for a refused one", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const { result, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(result.status).toBe(201);
    expect(written).toEqual(ONE_ORDER);
    expect(await committedResults(TENANT_A, key)).toBe(1);

    const refusedKey = crypto.randomUUID();
    const refused = await placeOrder({ ...body, shippingAddressId: 99999 }, { key: refusedKey });
    expect(refused.status).toBe(422);
    expect(await committedResults(TENANT_A, refusedKey)).toBe(0);
  });

  it("crash after the store's commit, before the lock records the result: the retry replays the original 201 at once", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const placed = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(placed.written).toEqual(ONE_ORDER);
    const original = await placed.result.text(); // the client of a crashed Worker never reads this
    await leaveProcessing(key);
    expect(await lockedAttempt(TENANT_A, key)).toMatchObject({ response: null }); // the marker a crash leaves behind

    for (let i = 0; i < 2; i++) {
      const { result: retry, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
      expect(written).toEqual(NOTHING_WRITTEN);
      expect(retry.status).toBe(201);
      expect(retry.headers.get(CACHED)).toBe("true");
      expect(await retry.text()).toBe(original);
    }
    // The committed result answers before the marker: another body is the 409 mismatch, not "processing".
    const other = await placeOrder(await freshBody(), { key });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: MISMATCH_MESSAGE });
  });

  it("recording the result fails: the client still gets its 201, and every retry gets the same bytes", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    // The store's lock cannot record any answer (its attempts refuse every update) after the order commits.
    await storeRows(
      TENANT_A,
      "CREATE TRIGGER refuse_records BEFORE UPDATE ON idempotency_attempts BEGIN SELECT RAISE(ABORT, 'SQLITE_IOERR: disk I/O error'); END",
    );
    try {
      const { result: first, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
      expect(written).toEqual(ONE_ORDER);
      expect(first.status).toBe(201);
      const original = await first.text();
      expect(await lockedAttempt(TENANT_A, key)).toMatchObject({ response: null });
      for (let i = 0; i < 2; i++) {
        const { result: retry, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
        expect(written).toEqual(NOTHING_WRITTEN);
        expect(retry.status).toBe(201);
        expect(await retry.text()).toBe(original);
      }
    } finally {
      await storeRows(TENANT_A, "DROP TRIGGER refuse_records");
    }
  });

  it("the lock's attempt is lost after the order: the retry replays the committed result; another body is still 409", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const original = await (await placeOrder(body, { key })).text();
    await forgetAttempt(key);
    expect(await lockedAttempt(TENANT_A, key)).toBeUndefined();

    const { result: retry, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(retry.status).toBe(201);
    expect(retry.headers.get(CACHED)).toBe("true");
    expect(await retry.text()).toBe(original);

    await forgetAttempt(key);
    const other = await placeOrder(await freshBody(), { key });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: MISMATCH_MESSAGE });
  });

  it("the store commits but its reply is lost: the answer is the committed 201, not a 503, and the retry agrees", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const { result: first, written } = await rowsWrittenBy(() => placeOrder(body, { key, headers: testFault("store-reply-lost") }));
    expect(written).toEqual(ONE_ORDER);
    expect(first.status).toBe(201);
    expect(first.headers.get(CACHED)).toBe("true"); // the committed result, read after the lost reply
    const original = (await first.json()) as { data: { orderNumber: string } };
    expect(original.data.orderNumber).toMatch(/^ORD-/);
    // The 201 is cached, not a 5xx.
    expect(await lockedAttempt(TENANT_A, key)).toMatchObject({ attemptId: null, response: { status: 201 } });

    const retry = await placeOrder(body, { key });
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(original);
  });

  it("a lock that forgets every attempt at once lets two attempts in: exactly one order, both answered with it", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    // The store's lock keeps no attempt: each is told to proceed, and its record finds nothing to complete.
    await storeRows(
      TENANT_A,
      "CREATE TRIGGER forget_attempts AFTER INSERT ON idempotency_attempts BEGIN DELETE FROM idempotency_attempts WHERE idempotency_key = NEW.idempotency_key; END",
    );
    const { result, written } = await rowsWrittenBy(() => Promise.all([placeOrder(body, { key }), placeOrder(body, { key })])).finally(() =>
      storeRows(TENANT_A, "DROP TRIGGER forget_attempts"),
    );
    expect(written).toEqual(ONE_ORDER);
    expect(result.map((r) => r.status)).toEqual([201, 201]);
    // The second is answered with the first's committed result.
    expect(result.filter((r) => r.headers.get(CACHED) === "true")).toHaveLength(1);
    const [a, b] = (await Promise.all(result.map((r) => r.json()))) as { data: { orderNumber: string } }[];
    expect(a!.data.orderNumber).toBe(b!.data.orderNumber);
    expect(await lockedAttempt(TENANT_A, key)).toBeUndefined();
  });

  it("crash after the lock, before the store's commit: nothing was written, so nothing is replayed as committed", async () => {
    // Covered step by step in idempotency.test.ts ("rule 5: the processing marker"): 409 processing while the
    // marker lasts, then a new attempt creates the order. Here: the store's write fails after the lock decided, and
    // nothing committed means nothing to replay but the 5xx answered.
    const key = crypto.randomUUID();
    const body = await freshBody();
    await storeRows(
      TENANT_A,
      "CREATE TRIGGER fail_orders BEFORE INSERT ON orders BEGIN SELECT RAISE(ABORT, 'SQLITE_IOERR: disk I/O error'); END",
    );
    const failed = await rowsWrittenBy(() => placeOrder(body, { key })).finally(() => storeRows(TENANT_A, "DROP TRIGGER fail_orders"));
    expect(failed.written).toEqual(NOTHING_WRITTEN);
    expect(failed.result.status).toBe(500);
    expect(await committedResults(TENANT_A, key)).toBe(0);
  });
});
