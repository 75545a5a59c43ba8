import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { cancelOrder } from "../../src/api/orders/cancel";
import { database } from "../../src/db/client";
import { violatesConstraint } from "../../src/operator/scim/errors";
import { StoreDatabase } from "../../src/shared/tenants/store-database";
import { tenantStore } from "../../src/shared/tenants/stub";
import { lookupUserProfile } from "../../src/shared/users/lookup";
import { TENANT_A } from "../helpers/api";
import { freshOrder, JSMITH } from "../helpers/orders";

/** A store of its own, empty but for what a test writes. */
const scratch = () => new StoreDatabase(tenantStore(env, 100_000 + Math.floor(Math.random() * 900_000)));

/** Tenant A's store, where the tenant lives from its start. */
const storeOfA = () => new StoreDatabase(tenantStore(env, TENANT_A));

describe("D1's statement API over a tenant store: code written for DB runs on a store unchanged", () => {
  it("the user lookup reads the same profile from the store's copy of the directory as from DB's master", async () => {
    const fromStore = await lookupUserProfile(database(storeOfA().asD1()), TENANT_A, { userId: JSMITH.userId });
    expect(fromStore).toEqual(await lookupUserProfile(database(env.DB), TENANT_A, { userId: JSMITH.userId }));
    expect(fromStore.companies.length).toBeGreaterThan(0);
  });

  it("an order change commits on a store through D1's API: the cancel's batch, its precondition and its event", async () => {
    const { orderNumber: other } = await freshOrder(1);
    const store = storeOfA();
    const outcome = await cancelOrder(database(store.asD1()), TENANT_A, other, { reason: "store" });
    expect(outcome).toMatchObject({ orderNumber: other, status: "Cancelled", eventId: expect.any(String) });
    expect(outcome.cancelledLineIds).toHaveLength(1);
    const row = await store
      .prepare("SELECT status, version FROM orders WHERE order_number = ?1")
      .bind(other)
      .first<{ status: string; version: number }>();
    expect(row).toEqual({ status: "Cancelled", version: 2 });
    const event = await store
      .prepare("SELECT type FROM outbox_events WHERE aggregate_id = ?1 ORDER BY sequence DESC")
      .bind(other)
      .first("type");
    expect(event).toMatch(/cancel/);
  });

  it("answers as D1 does: first, first(column), raw with column names, run's changes and last row id", async () => {
    const db = scratch();
    const insert = await db
      .prepare("INSERT INTO companies (tenant_id, name, external_id) VALUES (?1, ?2, ?3)")
      .bind(9, "Acme", "A-1")
      .run();
    expect(insert.success).toBe(true);
    expect(insert.meta.changes).toBe(1);
    expect(insert.meta.last_row_id).toBeGreaterThan(0);
    expect(await db.prepare("SELECT name FROM companies WHERE id = ?").bind(insert.meta.last_row_id).first()).toEqual({ name: "Acme" });
    expect(await db.prepare("SELECT name FROM companies WHERE id = ?").bind(insert.meta.last_row_id).first("name")).toBe("Acme");
    expect(await db.prepare("SELECT name FROM companies WHERE id = -1").first("name")).toBeNull();
    expect(await db.prepare("SELECT id, name FROM companies").raw({ columnNames: true })).toEqual([
      ["id", "name"],
      [insert.meta.last_row_id, "Acme"],
    ]);
    expect((await db.prepare("SELECT name FROM companies").run()).meta.changes).toBe(0);
    // D1 binds booleans as 1 and 0 and refuses undefined.
    await db.prepare("INSERT INTO companies (tenant_id, name, created_at) VALUES (?1, ?2, ?3)").bind(9, "Bool", null).run();
    expect(await db.prepare("SELECT count(*) AS n FROM companies WHERE ?1 = 1").bind(true).first("n")).toBe(2);
    expect(() => db.prepare("SELECT ?1").bind(undefined)).toThrow(/undefined/);
  });

  it("a batch is one transaction: a failing statement leaves none of them, with SQLite's message", async () => {
    const db = scratch();
    await db.prepare("INSERT INTO companies (id, tenant_id, name, external_id) VALUES (1, 9, 'First', 'X')").run();
    const failing = db.batch([
      db.prepare("INSERT INTO companies (id, tenant_id, name) VALUES (2, 9, 'Second')"),
      db.prepare("INSERT INTO companies (id, tenant_id, name, external_id) VALUES (3, 9, 'Third', 'X')"),
    ]);
    await expect(failing).rejects.toThrow(/UNIQUE constraint failed: companies.external_id/);
    expect(violatesConstraint(await failing.catch((error) => error), "UNIQUE")).toBe(true);
    expect(await db.prepare("SELECT count(*) AS n FROM companies").first("n")).toBe(1);
    const [second, third] = await db.batch([
      db.prepare("INSERT INTO companies (id, tenant_id, name) VALUES (2, 9, 'Second')"),
      db.prepare("SELECT name FROM companies ORDER BY id"),
    ]);
    expect(second?.meta.changes).toBe(1);
    expect(third?.results).toEqual([{ name: "First" }, { name: "Second" }]);
  });
});
