import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pushDirectoryChanges } from "../../src/operator/tenant-stores/directory-mirror";
import { PROCESSING_TIMEOUT_MS } from "../../src/platform/idempotency/key-lock";
import { MISMATCH_MESSAGE, PROCESSING_MESSAGE, requestFingerprint } from "../../src/platform/idempotency/middleware";
import { RESULT_TTL_MS } from "../../src/platform/idempotency/results";
import { storeKeyLocks } from "../../src/shared/tenants/key-locks";
import { AT_LATEST, call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import {
  issueQuote,
  JSMITH,
  KJOHNSON,
  lineFor,
  NOTHING_WRITTEN,
  orderBody,
  placeOrder,
  rowsWrittenBy,
  withoutFields,
} from "../helpers/orders";
import { testFault } from "../helpers/platform";
import { ageKey, committedResults, lockedAttempt } from "../helpers/store-locks";
import { storeRows } from "../helpers/stores";

/**
 * Spec 8 on POST /orders. A tenant's keys are decided by its store's lock (src/shared/tenants/idempotency-lock.ts;
 * docs/tenant-stores.md, "Idempotency" and "Order creation"), beside the results that commit with its orders.
 */

const CACHED = "X-Idempotency-Cached";
const ORDERS_PATH = "/customer/api/orders";
let nextProduct = 100;

/** A body that can be ordered: a fresh quote (no custom fields) of a product not used elsewhere in this file. */
async function freshBody(who = JSMITH) {
  const quote = await issueQuote(`MP-${String(nextProduct++).padStart(7, "0")}`, who, withoutFields);
  return orderBody([lineFor(quote)], who);
}

/** The lock of tenant A's key in its store, as the API asks it. */
const lockOf = (key: string) => storeKeyLocks(env, TENANT_A)(key);

/** A decision of tenant A's store about another key (proceed, then release): each decision clears expired entries. */
async function anotherDecision() {
  const lock = lockOf(crypto.randomUUID());
  const decision = await lock.begin("another request");
  expect(decision.outcome).toBe("proceed");
  if (decision.outcome === "proceed") expect(await lock.release(decision.attemptId)).toBe(true);
}

async function expectConflict(res: Response, message: string) {
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({ error: message });
}

describe("Idempotency-Key on POST /orders (spec section 8)", () => {
  it("rule 3: a retry with the same key and body replays the cached 201 with X-Idempotency-Cached, writing nothing", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    expect(first.headers.get(CACHED)).toBeNull();
    const firstText = await first.text();

    const { result: replay, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(replay.status).toBe(201);
    expect(replay.headers.get(CACHED)).toBe("true");
    expect(replay.headers.get("Content-Type")).toContain("application/json");
    expect(await replay.text()).toBe(firstText);
  });

  it("a 201 the client never reads is recorded under the store's lock in the call that commits it, and replayed", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const unread = await call(await tokenFor(TENANT_A, ["orders:write"]), "/orders", {
      method: "POST",
      json: body,
      headers: { "Idempotency-Key": key },
    });
    expect(unread.status).toBe(201);

    // No background work to wait for: the store completed the attempt with the 201 it committed.
    const attempt = await lockedAttempt(TENANT_A, key);
    expect(attempt).toMatchObject({ attemptId: null, response: { status: 201 } });
    expect(await committedResults(TENANT_A, key)).toBe(1);
    // The stored answer is the latest version's; the replay is rendered at the client's like any answer.
    const replay = await placeOrder(body, { key, headers: AT_LATEST });
    expect(replay.headers.get(CACHED)).toBe("true");
    expect(await replay.text()).toBe(attempt!.response!.body);
  });

  it("a replay does not depend on the order's checks: it answers the cached 201 even when access is gone since (the lock decides before the checks run)", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    const firstText = await first.text();
    const another = await freshBody();
    // jsmith loses the facility: a new order would be a 403 now. The directory's master is DB, which the operator
    // plane pushes to the tenant's stores (docs/tenant-stores.md, "The directory").
    const membership = await env.DB.prepare("SELECT user_id, facility_id FROM user_facilities WHERE user_id = ?1 AND facility_id = ?2")
      .bind(JSMITH.userId, JSMITH.facilityId)
      .first<{ user_id: number; facility_id: number }>();
    expect(membership).not.toBeNull();
    await env.DB.prepare("DELETE FROM user_facilities WHERE user_id = ?1 AND facility_id = ?2")
      .bind(JSMITH.userId, JSMITH.facilityId)
      .run();
    await pushDirectoryChanges(env);
    try {
      const replay = await placeOrder(body, { key });
      expect(replay.headers.get(CACHED)).toBe("true");
      expect(replay.status).toBe(201);
      expect(await replay.text()).toBe(firstText);
      const refused = await placeOrder(another, { key: crypto.randomUUID() });
      expect(refused.status).toBe(403);
    } finally {
      await env.DB.prepare("INSERT INTO user_facilities (user_id, facility_id) VALUES (?1, ?2)")
        .bind(JSMITH.userId, JSMITH.facilityId)
        .run();
      await pushDirectoryChanges(env);
    }
  });

  it("the same JSON with keys in another order, and the key in upper case, are the same request", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await placeOrder(reordered, { key: key.toUpperCase() });
    expect(replay.headers.get(CACHED)).toBe("true");
    expect(await replay.text()).toBe(await first.text());
  });

  it("rule 4: the same key with a different body is 409 { error }, writing nothing", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    expect((await placeOrder(body, { key })).status).toBe(201);
    const { result: res, written } = await rowsWrittenBy(() => placeOrder({ ...body, notes: "changed" }, { key }));
    expect(written).toEqual(NOTHING_WRITTEN);
    await expectConflict(res, MISMATCH_MESSAGE);
  });

  it.each([
    ["400", (body: any) => ({ ...body, shippingMethod: "TELEPORT" })],
    ["403", (body: any) => ({ ...body, requesterId: 50004 })],
    ["404", (body: any) => ({ ...body, quoteItems: [{ ...body.quoteItems[0], priceOptionId: "po_unknown" }] })],
    ["422", (body: any) => ({ ...body, quoteItems: [{ ...body.quoteItems[0], price: 0.01 }] })],
  ])("rule 6: a %s is not cached; the key is reused with the corrected request", async (status, spoil) => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const failed = await placeOrder(spoil(body), { key });
    expect(String(failed.status)).toBe(status);
    expect(await lockedAttempt(TENANT_A, key)).toBeUndefined();
    expect(await committedResults(TENANT_A, key)).toBe(0);
    // The same failing request runs again (no replay header) ...
    const again = await placeOrder(spoil(body), { key });
    expect(String(again.status)).toBe(status);
    expect(again.headers.get(CACHED)).toBeNull();
    // ... and the corrected one goes through with the same key.
    const fixed = await placeOrder(body, { key });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get(CACHED)).toBeNull();
  });

  it("rule 6: a 5xx is cached for 24 hours and replayed (failure injected into the store's write, which rolls back whole)", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    await storeRows(
      TENANT_A,
      "CREATE TRIGGER inject_outbox_failure BEFORE INSERT ON outbox_events BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    );
    const startedAt = Date.now();
    const attempt = await rowsWrittenBy(() => placeOrder(body, { key })).finally(() =>
      storeRows(TENANT_A, "DROP TRIGGER inject_outbox_failure"),
    );
    const finishedAt = Date.now();
    expect(attempt.written).toEqual(NOTHING_WRITTEN);
    const failed = attempt.result;
    const problem = await expectProblem(failed, 500);
    expect(JSON.stringify(problem)).not.toContain("injected failure");

    const entry = await lockedAttempt(TENANT_A, key);
    expect(entry).toMatchObject({ attemptId: null, response: { status: 500 } });
    expect(entry!.expiresAt).toBeGreaterThanOrEqual(startedAt + RESULT_TTL_MS);
    expect(entry!.expiresAt).toBeLessThanOrEqual(finishedAt + RESULT_TTL_MS);
    expect(await committedResults(TENANT_A, key)).toBe(0);

    const { result: replay, written } = await rowsWrittenBy(() => placeOrder(body, { key }));
    expect(written).toEqual(NOTHING_WRITTEN);
    expect(replay.status).toBe(500);
    expect(replay.headers.get(CACHED)).toBe("true");
    expect(await replay.json()).toEqual(problem);

    // A new key is a new logical operation: the quotes were never consumed.
    expect((await placeOrder(body)).status).toBe(201);
  });

  it("rule 5: 20 concurrent identical requests with one key create exactly one order; the rest replay it or get 409 processing", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const { result: responses, written } = await rowsWrittenBy(() =>
      Promise.all(Array.from({ length: 20 }, () => placeOrder(body, { key }))),
    );
    expect(written).toEqual({ orders: 1, orderLines: 1, shippingDocuments: 1, shippingDocumentLines: 1, events: 1 });

    const results = await Promise.all(
      responses.map(async (r) => ({ status: r.status, cached: r.headers.get(CACHED), body: await r.json<any>() })),
    );
    const originals = results.filter((r) => r.status === 201 && r.cached === null);
    expect(originals).toHaveLength(1);
    for (const r of results) {
      if (r === originals[0]) continue;
      if (r.status === 201) {
        expect(r.cached).toBe("true");
        expect(r.body).toEqual(originals[0]!.body);
      } else {
        expect(r.status).toBe(409);
        expect(r.body).toEqual({ error: PROCESSING_MESSAGE });
      }
    }
  });

  describe("rule 5: the processing marker", () => {
    async function startedElsewhere(body: unknown, key: string) {
      // An attempt that began and never finished (e.g. its Worker was evicted mid-request).
      const fingerprint = await requestFingerprint("POST", ORDERS_PATH, body);
      const decision = await lockOf(key).begin(fingerprint);
      expect(decision.outcome).toBe("proceed");
      return decision.outcome === "proceed" ? decision.attemptId : "";
    }

    it("answers 409 processing while it lasts, 409 mismatch for another body, and lets a new attempt proceed after 5 minutes", async () => {
      const key = crypto.randomUUID();
      const body = await freshBody();
      const staleAttempt = await startedElsewhere(body, key);

      const { written } = await rowsWrittenBy(async () => {
        await expectConflict(await placeOrder(body, { key }), PROCESSING_MESSAGE);
        await expectConflict(await placeOrder({ ...body, notes: "other" }, { key }), MISMATCH_MESSAGE);
      });
      expect(written).toEqual(NOTHING_WRITTEN);

      await ageKey(TENANT_A, key, PROCESSING_TIMEOUT_MS - 1000);
      await expectConflict(await placeOrder(body, { key }), PROCESSING_MESSAGE);
      await ageKey(TENANT_A, key, 1000);
      const retried = await placeOrder(body, { key });
      expect(retried.status).toBe(201);
      expect(retried.headers.get(CACHED)).toBeNull();

      // The abandoned attempt cannot overwrite the result of the one that took over.
      expect(await lockOf(key).complete(staleAttempt, { status: 500, headers: {}, body: "late" })).toBe(false);
      const replay = await placeOrder(body, { key });
      expect(replay.status).toBe(201);
      expect(replay.headers.get(CACHED)).toBe("true");
    });

    it("is cleared by the store's next decision once 5 minutes have passed", async () => {
      const key = crypto.randomUUID();
      const body = await freshBody();
      const before = Date.now();
      const attemptId = await startedElsewhere(body, key);
      const marker = await lockedAttempt(TENANT_A, key);
      expect(marker).toMatchObject({ attemptId, response: null });
      expect(marker!.expiresAt).toBeGreaterThanOrEqual(before + PROCESSING_TIMEOUT_MS);
      expect(marker!.expiresAt).toBeLessThanOrEqual(Date.now() + PROCESSING_TIMEOUT_MS);

      // Still live: a decision about another key keeps it.
      await anotherDecision();
      expect(await lockedAttempt(TENANT_A, key)).toEqual(marker);

      await ageKey(TENANT_A, key, PROCESSING_TIMEOUT_MS);
      await anotherDecision();
      expect(await lockedAttempt(TENANT_A, key)).toBeUndefined();
    });
  });

  describe("rule 6: 24-hour result cache", () => {
    it("replays until 24 hours have passed, then treats the key as new", async () => {
      const key = crypto.randomUUID();
      const body = await freshBody();
      expect((await placeOrder(body, { key })).status).toBe(201);
      // The 201 is recorded in the store with the order: age both the cached answer and the committed result.
      expect(await lockedAttempt(TENANT_A, key)).toMatchObject({ response: { status: 201 } });

      await ageKey(TENANT_A, key, RESULT_TTL_MS - 60_000);
      expect((await placeOrder(body, { key })).headers.get(CACHED)).toBe("true");
      await expectConflict(await placeOrder(await freshBody(), { key }), MISMATCH_MESSAGE);

      await ageKey(TENANT_A, key, 60_000);
      const another = await placeOrder(await freshBody(), { key });
      expect(another.status).toBe(201);
      expect(another.headers.get(CACHED)).toBeNull();
    });

    it("a decision before expiry keeps a live entry; once expired, the store's next decision clears the answer and the committed result", async () => {
      const key = crypto.randomUUID();
      const body = await freshBody();
      const startedAt = Date.now();
      expect((await placeOrder(body, { key })).status).toBe(201);
      const before = await lockedAttempt(TENANT_A, key);
      expect(before).toMatchObject({ attemptId: null, response: { status: 201 } });
      expect(before!.expiresAt).toBeGreaterThanOrEqual(startedAt + RESULT_TTL_MS);
      expect(before!.expiresAt).toBeLessThanOrEqual(Date.now() + RESULT_TTL_MS);

      await anotherDecision();
      expect(await lockedAttempt(TENANT_A, key)).toEqual(before);
      expect(await committedResults(TENANT_A, key)).toBe(1);

      await ageKey(TENANT_A, key, RESULT_TTL_MS);
      await anotherDecision();
      expect(await lockedAttempt(TENANT_A, key)).toBeUndefined();
      expect(await committedResults(TENANT_A, key)).toBe(0);
    });
  });

  it("an unavailable idempotency store is 503 with Retry-After, writing nothing and recording nothing", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    // The lock is the tenant's store: unreachable, as it is for the whole request.
    const { result: res, written } = await rowsWrittenBy(() => placeOrder(body, { key, headers: testFault("tenant-store-unavailable") }));
    expect(written).toEqual(NOTHING_WRITTEN);
    const problem = await expectProblem(res, 503);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get(CACHED)).toBeNull();
    expect(JSON.stringify(problem)).not.toMatch(/Network connection lost/);
    expect(await lockedAttempt(TENANT_A, key)).toBeUndefined();

    // Once the store is back, the same request with the same key is a first attempt: its quote is still unused.
    const retried = await placeOrder(body, { key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get(CACHED)).toBeNull();
  });

  it("keys are scoped to the tenant: the same key from two tenants never meets", async () => {
    const key = crypto.randomUUID();
    const bodyA = await freshBody(JSMITH);
    const created = await placeOrder(bodyA, { key, tenantId: TENANT_A });
    expect(created.status).toBe(201);
    const { orderNumber } = (await json(created)).data;

    // Tenant B replaying tenant A's exact request gets no cached answer: the request runs, and is refused.
    const probe = await placeOrder(bodyA, { key, tenantId: TENANT_B });
    expect(probe.status).toBe(403);
    expect(probe.headers.get(CACHED)).toBeNull();
    expect(await probe.text()).not.toContain(orderNumber);

    // Tenant B's own order with the same key is no conflict.
    const bodyB = await freshBody(KJOHNSON);
    const own = await placeOrder(bodyB, { key, tenantId: TENANT_B });
    expect(own.status).toBe(201);
    expect(own.headers.get(CACHED)).toBeNull();
    expect((await json(own)).data.orderNumber).not.toBe(orderNumber);

    // Each tenant's replay is its own.
    expect((await json(await placeOrder(bodyA, { key, tenantId: TENANT_A }))).data.orderNumber).toBe(orderNumber);
  });
});
