import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { idempotencyStore, MISMATCH_MESSAGE, PROCESSING_MESSAGE, requestFingerprint } from "../../src/platform/idempotency/middleware";
import { IDEMPOTENCY_ENTRY_KEY, type IdempotencyEntry, PROCESSING_TIMEOUT_MS, RESULT_TTL_MS } from "../../src/platform/idempotency/store";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { backgroundSettled } from "../helpers/background";
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
import { eventually, testFault } from "../helpers/platform";

const CACHED = "X-Idempotency-Cached";
const ORDERS_PATH = "/customer/api/orders";
let nextProduct = 100;

/** A body that can be ordered: a fresh quote (no custom fields) of a product not used elsewhere in this file. */
async function freshBody(who = JSMITH) {
  const quote = await issueQuote(`MP-${String(nextProduct++).padStart(7, "0")}`, who, withoutFields);
  return orderBody([lineFor(quote)], who);
}

const storeOf = (tenantId: number, key: string) => idempotencyStore(env, tenantId, key);

function storedEntry(tenantId: number, key: string) {
  return runInDurableObject(storeOf(tenantId, key), (_instance, state) => ({
    entry: state.storage.kv.get<IdempotencyEntry>(IDEMPOTENCY_ENTRY_KEY),
    alarm: state.storage.getAlarm(),
  })).then(async ({ entry, alarm }) => ({ entry, alarm: await alarm }));
}

/** Moves the key's entry, in the Durable Object and its committed result in D1, `ms` into the past. */
async function age(tenantId: number, key: string, ms: number) {
  await env.DB.prepare(
    "UPDATE idempotency_results SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?3), expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', expires_at, ?3) WHERE tenant_id = ?1 AND idempotency_key = ?2",
  )
    .bind(tenantId, key.toLowerCase(), `-${ms / 1000} seconds`)
    .run();
  return runInDurableObject(storeOf(tenantId, key), (_instance, state) => {
    const entry = state.storage.kv.get<IdempotencyEntry>(IDEMPOTENCY_ENTRY_KEY)!;
    const aged: IdempotencyEntry =
      entry.state === "processing" ? { ...entry, startedAt: entry.startedAt - ms } : { ...entry, completedAt: entry.completedAt - ms };
    state.storage.kv.put(IDEMPOTENCY_ENTRY_KEY, aged);
  });
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

  it("a 201 the client never reads is recorded in the key's object all the same, and replayed", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const unread = await call(await tokenFor(TENANT_A, ["orders:write"]), "/orders", {
      method: "POST",
      json: body,
      headers: { "Idempotency-Key": key },
    });
    expect(unread.status).toBe(201);

    await backgroundSettled(); // the recording is the answer's background work
    const { entry } = await storedEntry(TENANT_A, key);
    expect(entry).toMatchObject({ state: "completed", response: { status: 201 } });
    const replay = await placeOrder(body, { key });
    expect(replay.headers.get(CACHED)).toBe("true");
    expect(await replay.text()).toBe(entry!.state === "completed" ? entry!.response.body : "");
  });

  it("a replay does not depend on the order's reads: it answers the cached 201 even when access is gone since (the reads start alongside the key's check and are dropped)", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const first = await placeOrder(body, { key });
    expect(first.status).toBe(201);
    const firstText = await first.text();
    const another = await freshBody();
    // jsmith loses the facility: a new order would be a 403 now.
    const membership = await env.DB.prepare("SELECT user_id, facility_id FROM user_facilities WHERE user_id = ?1 AND facility_id = ?2")
      .bind(JSMITH.userId, JSMITH.facilityId)
      .first<{ user_id: number; facility_id: number }>();
    expect(membership).not.toBeNull();
    await env.DB.prepare("DELETE FROM user_facilities WHERE user_id = ?1 AND facility_id = ?2")
      .bind(JSMITH.userId, JSMITH.facilityId)
      .run();
    try {
      await eventually(
        () => placeOrder(body, { key }),
        (res) => res.headers.get(CACHED) === "true",
      ).then(async (replay) => {
        expect(replay.status).toBe(201);
        expect(await replay.text()).toBe(firstText);
      });
      const refused = await placeOrder(another, { key: crypto.randomUUID() });
      expect(refused.status).toBe(403);
    } finally {
      await env.DB.prepare("INSERT INTO user_facilities (user_id, facility_id) VALUES (?1, ?2)")
        .bind(JSMITH.userId, JSMITH.facilityId)
        .run();
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
    expect((await storedEntry(TENANT_A, key)).entry).toBeUndefined();
    // The same failing request runs again (no replay header) ...
    const again = await placeOrder(spoil(body), { key });
    expect(String(again.status)).toBe(status);
    expect(again.headers.get(CACHED)).toBeNull();
    // ... and the corrected one goes through with the same key.
    const fixed = await placeOrder(body, { key });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get(CACHED)).toBeNull();
  });

  it("rule 6: a 5xx is cached for 24 hours and replayed (failure injected into the D1 batch, which rolls back whole)", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    await env.DB.prepare(
      "CREATE TRIGGER inject_outbox_failure BEFORE INSERT ON outbox_events BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    ).run();
    const attempt = await rowsWrittenBy(() => placeOrder(body, { key })).finally(() =>
      env.DB.prepare("DROP TRIGGER inject_outbox_failure").run(),
    );
    expect(attempt.written).toEqual(NOTHING_WRITTEN);
    const failed = attempt.result;
    const problem = await expectProblem(failed, 500);
    expect(JSON.stringify(problem)).not.toContain("injected failure");

    const { entry, alarm } = await storedEntry(TENANT_A, key);
    expect(entry).toMatchObject({ state: "completed", response: { status: 500 } });
    expect(alarm).toBe(entry!.state === "completed" ? entry!.completedAt + RESULT_TTL_MS : -1);

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
      const decision = await storeOf(TENANT_A, key).begin(fingerprint);
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

      await age(TENANT_A, key, PROCESSING_TIMEOUT_MS - 1000);
      await expectConflict(await placeOrder(body, { key }), PROCESSING_MESSAGE);
      await age(TENANT_A, key, 1000);
      const retried = await placeOrder(body, { key });
      expect(retried.status).toBe(201);
      expect(retried.headers.get(CACHED)).toBeNull();

      // The abandoned attempt cannot overwrite the result of the one that took over.
      expect(await storeOf(TENANT_A, key).complete(staleAttempt, { status: 500, headers: {}, body: "late" })).toBe(false);
      const replay = await placeOrder(body, { key });
      expect(replay.status).toBe(201);
      expect(replay.headers.get(CACHED)).toBe("true");
    });

    it("is purged by its alarm after 5 minutes", async () => {
      const key = crypto.randomUUID();
      await startedElsewhere(await freshBody(), key);
      const { entry, alarm } = await storedEntry(TENANT_A, key);
      expect(entry?.state).toBe("processing");
      expect(alarm).toBe(entry!.state === "processing" ? entry!.startedAt + PROCESSING_TIMEOUT_MS : -1);

      await age(TENANT_A, key, PROCESSING_TIMEOUT_MS);
      expect(await runDurableObjectAlarm(storeOf(TENANT_A, key))).toBe(true);
      expect(await storedEntry(TENANT_A, key)).toEqual({ entry: undefined, alarm: null });
    });
  });

  describe("rule 6: 24-hour result cache", () => {
    it("replays until 24 hours have passed, then treats the key as new", async () => {
      const key = crypto.randomUUID();
      const body = await freshBody();
      expect((await placeOrder(body, { key })).status).toBe(201);
      // The 201 is recorded in the object after the answer: age the recorded result, not the marker before it.
      await eventually(
        () => storedEntry(TENANT_A, key),
        (e) => e.entry?.state === "completed",
      );

      await age(TENANT_A, key, RESULT_TTL_MS - 60_000);
      expect((await placeOrder(body, { key })).headers.get(CACHED)).toBe("true");
      await expectConflict(await placeOrder(await freshBody(), { key }), MISMATCH_MESSAGE);

      await age(TENANT_A, key, 60_000);
      const another = await placeOrder(await freshBody(), { key });
      expect(another.status).toBe(201);
      expect(another.headers.get(CACHED)).toBeNull();
    });

    it("an early alarm keeps a live entry and re-arms; once expired, the alarm purges it", async () => {
      const key = crypto.randomUUID();
      const body = await freshBody();
      expect((await placeOrder(body, { key })).status).toBe(201);
      // The 201 is recorded in the object in the background, after the answer.
      const before = await eventually(
        () => storedEntry(TENANT_A, key),
        (e) => e.entry?.state === "completed",
      );
      expect(before.entry?.state).toBe("completed");
      expect(before.alarm).toBe(before.entry!.state === "completed" ? before.entry!.completedAt + RESULT_TTL_MS : -1);

      expect(await runDurableObjectAlarm(storeOf(TENANT_A, key))).toBe(true);
      expect(await storedEntry(TENANT_A, key)).toEqual(before);

      await age(TENANT_A, key, RESULT_TTL_MS);
      expect(await runDurableObjectAlarm(storeOf(TENANT_A, key))).toBe(true);
      expect(await storedEntry(TENANT_A, key)).toEqual({ entry: undefined, alarm: null });
    });
  });

  it("an unavailable idempotency store is 503 with Retry-After, writing nothing and recording nothing", async () => {
    const key = crypto.randomUUID();
    const body = await freshBody();
    const { result: res, written } = await rowsWrittenBy(() => placeOrder(body, { key, headers: testFault("do-unavailable") }));
    expect(written).toEqual(NOTHING_WRITTEN);
    const problem = await expectProblem(res, 503);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get(CACHED)).toBeNull();
    expect(JSON.stringify(problem)).not.toMatch(/Network connection lost/);

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
