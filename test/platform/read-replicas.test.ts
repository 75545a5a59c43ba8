import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { productId } from "../../src/dev/seed/catalog";
import { BOOKMARK_HEADER } from "../../src/platform/read-replicas";
import { API, call, expectProblem, json, TENANT_A, tokenFor, vendorTokenFor } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";
import { findQuote, JSMITH, lineFor, orderBody, withoutFields } from "../helpers/orders";

/** The real D1 binding, with every withSession() constraint the app asks for written down. */
function recordingSessions(db: D1Database, constraints: string[]): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "withSession") {
        return (constraint: string) => {
          constraints.push(constraint);
          return value.call(target, constraint);
        };
      }
      return value.bind(target);
    },
  });
}

/** Runs the production app in this test with the recording D1 (the plumbing locally: the replica is the primary). */
async function sessionsOf(path: string, init: RequestInit & { token: string }): Promise<{ res: Response; constraints: string[] }> {
  const constraints: string[] = [];
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${init.token}`);
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`${API}${path}`, { ...init, headers }),
    { ...env, DB: recordingSessions(env.DB, constraints) },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { res, constraints };
}

/**
 * A quote (POST /catalog/detail) as tenant A's client asks for it: it reads the offers in DB, so its answer carries the
 * session's bookmark. (The tenant's own data, orders, events, users, is read in its store, which has none to give:
 * docs/tenant-stores.md.)
 */
const quoteRequest = (token: string, init: { headers?: Record<string, string> } = {}) =>
  call(token, "/catalog/detail", {
    method: "POST",
    json: { productId: productId(9), requesterId: JSMITH.requesterContactId, facilityId: JSMITH.facilityId },
    ...init,
  });

describe("D1 read replication: sessions and X-Session-Bookmark", () => {
  it("a customer API answer that read DB carries the session's bookmark, as documented; a store's read keeps the one sent", async () => {
    const token = await tokenFor(TENANT_A);
    const quoted = await quoteRequest(token);
    expect(quoted.status).toBe(200);
    const bookmark = quoted.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(/\S/);
    await expectMatchesContract(quoted, "POST", "/catalog/detail");
    for (const path of ["/users/lookup?userId=1", "/orders/search", "/events"]) {
      const res = await call(token, path, { headers: { [BOOKMARK_HEADER]: bookmark! } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get(BOOKMARK_HEADER), path).toMatch(/\S/);
      await expectMatchesContract(res, "GET", path);
    }
  });

  it("a catalog-only read (manufacturers) never touches DB: it hands back the bookmark it was sent, if any", async () => {
    const token = await tokenFor(TENANT_A);
    const bookmark = (await quoteRequest(token)).headers.get(BOOKMARK_HEADER)!;
    expect(bookmark).toMatch(/\S/);
    const plain = await call(token, "/manufacturers/search");
    expect(plain.status).toBe(200);
    expect(plain.headers.get(BOOKMARK_HEADER)).toBeNull();
    const chained = await call(token, "/manufacturers/search", { headers: { [BOOKMARK_HEADER]: bookmark } });
    expect(chained.status).toBe(200);
    expect(chained.headers.get(BOOKMARK_HEADER)).toBe(bookmark);
  });

  it("reads start on any replica, writes on the primary, and a bookmark sent back is the session's constraint", async () => {
    const token = await tokenFor(TENANT_A);
    const read = await sessionsOf("/orders/search", { token });
    expect(read.res.status).toBe(200);
    expect(read.constraints).toEqual(["first-unconstrained"]);

    const quote = await findQuote(withoutFields);
    const write = await sessionsOf("/orders", {
      token,
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify(orderBody([lineFor(quote)])),
    });
    expect(write.res.status).toBe(201);
    expect(write.constraints).toEqual(["first-primary"]);

    const { orderNumber } = (await json(write.res)).data;
    const q = encodeURIComponent(`orderNumber:"${orderNumber}"`);
    // The order is in the tenant's store, the one copy: found by the next read without a bookmark.
    const right = await sessionsOf(`/orders/search?q=${q}`, { token });
    expect((await json(right.res)).data.orders.map((o: { orderNumber: string }) => o.orderNumber)).toEqual([orderNumber]);
    const bookmark = (await quoteRequest(token)).headers.get(BOOKMARK_HEADER)!;
    expect(bookmark).toMatch(/\S/);
    const after = await sessionsOf(`/orders/search?q=${q}`, { token, headers: { [BOOKMARK_HEADER]: bookmark } });
    expect(after.constraints).toEqual([bookmark]);
    expect((await json(after.res)).data.orders.map((o: { orderNumber: string }) => o.orderNumber)).toEqual([orderNumber]);
  });

  it("a bookmark that is not one is a 400 naming the header, before anything is read", async () => {
    const token = await tokenFor(TENANT_A);
    const { res, constraints } = await sessionsOf("/orders/search", { token, headers: { [BOOKMARK_HEADER]: "not a bookmark!" } });
    const body = await expectProblem(res, 400);
    expect(Object.keys(body.errors)).toEqual([BOOKMARK_HEADER]);
    expect(constraints).toEqual([]);
  });

  it("the vendor API's publishing (offers, agreements, price files; the operator plane's Worker) refuses a bad bookmark and answers one, as documented", async () => {
    const token = await vendorTokenFor(5);
    for (const path of ["/vendor/api/offers", "/vendor/api/agreements", "/vendor/api/offer-imports"]) {
      const refused = await call(token, path, { headers: { [BOOKMARK_HEADER]: "bad value!" } });
      const body = await expectProblem(refused, 400);
      expect(Object.keys(body.errors), path).toEqual([BOOKMARK_HEADER]);
      await expectMatchesContract(refused, "GET", path);
      const read = await call(token, path);
      expect(read.status, path).toBe(200);
      await expectMatchesContract(read, "GET", path);
    }
    // A write's bookmark, sent with the read after it: the offer is there, and the bookmark goes on.
    const sku = `BM-${crypto.randomUUID().slice(0, 8)}`;
    const offer = {
      productId: productId(60),
      condition: "New OEM",
      purchaseChoice: "Buy",
      warranty: "12 months",
      price: 10,
      leadTimeDays: 2,
    };
    const written = await call(token, `/vendor/api/offers/${sku}`, { method: "PUT", json: offer });
    expect(written.status, await written.clone().text()).toBeLessThan(300);
    const bookmark = written.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toMatch(/\S/);
    const after = await call(token, `/vendor/api/offers/${sku}`, { headers: { [BOOKMARK_HEADER]: bookmark! } });
    expect(after.status).toBe(200);
    expect(after.headers.get(BOOKMARK_HEADER)).toMatch(/\S/);
  });
});
