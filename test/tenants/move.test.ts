import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { tenantStore } from "../../src/shared/tenants/stub";
import { STORE_TABLES } from "../../src/shared/tenants/tables";
import { call, expectProblem, json, operatorTokenFor, TENANT_A, TENANT_B } from "../helpers/api";
import { freshOrder, KJOHNSON } from "../helpers/orders";
import { moveEnded, moveTenant, storeEntry } from "../helpers/stores";

const ADMIN = "/admin/api";

async function move(tenantId: number): Promise<Response> {
  return call(await operatorTokenFor(), `${ADMIN}/tenants/${tenantId}/store-move`, { method: "POST" });
}

const inStore = <T>(tenantId: number, run: (state: DurableObjectState) => T) =>
  runInDurableObject(tenantStore(env, tenantId) as unknown as DurableObjectStub, (_, state) => run(state));

/** The tenant's rows per store table in the control database, as a store of `storeTenantId` gets them. */
async function databaseCounts(storeTenantId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of STORE_TABLES) {
    const owner = table.directory ? Math.abs(storeTenantId) : storeTenantId;
    counts[table.name] = (await env.DB.prepare(`SELECT count(*) AS n FROM ${table.name} t WHERE ${table.owner} = ?1`)
      .bind(owner)
      .first<number>("n"))!;
  }
  return counts;
}

const storeCounts = (storeTenantId: number) =>
  inStore(storeTenantId, (state) =>
    Object.fromEntries(
      STORE_TABLES.map((table) => [table.name, state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table.name}`).one().n]),
    ),
  );

afterEach(() => env.DB.prepare("DELETE FROM tenant_stores").run());

describe("moving a tenant into its stores (POST /admin/api/tenants/{id}/store-move)", () => {
  it("copies every table of the tenant and of its sandbox twin, verified by counts and digests, and ends the window", async () => {
    const { orderNumber } = await freshOrder(2);
    const before = await databaseCounts(TENANT_A);
    expect(before.orders).toBeGreaterThan(0);
    expect(before.order_lines).toBeGreaterThan(1);
    expect(before.users).toBeGreaterThan(0);

    const done = await moveTenant(TENANT_A);
    expect(done.state).toBe("copied");
    expect(done.verification.equal).toBe(true);
    expect(done.copiedRows).toBe(done.totalRows);
    const own = done.verification.stores.find((store: { tenantId: number }) => store.tenantId === TENANT_A);
    for (const check of own.tables) {
      expect(check.database.rows, check.table).toBe(before[check.table]);
      expect(check.store, check.table).toEqual(check.database);
    }
    expect(await storeCounts(TENANT_A)).toEqual(before);
    // The rows themselves, column for column.
    const inDatabase = await env.DB.prepare("SELECT * FROM orders WHERE order_number = ?1").bind(orderNumber).first();
    expect(
      await inStore(TENANT_A, (state) => state.storage.sql.exec("SELECT * FROM orders WHERE order_number = ?", orderNumber).one()),
    ).toEqual(inDatabase);
    // Nothing of another tenant.
    expect(
      await inStore(TENANT_A, (state) => state.storage.sql.exec("SELECT count(*) AS n FROM orders WHERE tenant_id <> ?", TENANT_A).one().n),
    ).toBe(0);
    // The twin's store holds the twin's orders and a copy of the tenant's directory, whether or not the twin exists yet.
    expect(done.verification.stores.map((store: { tenantId: number }) => store.tenantId)).toEqual([TENANT_A, -TENANT_A]);
    expect(await storeCounts(-TENANT_A)).toEqual(await databaseCounts(-TENANT_A));
    expect((await storeCounts(-TENANT_A)).users).toBe(before.users);
    // The window is closed: the tenant writes again.
    await expect(freshOrder(1)).resolves.toMatchObject({ orderNumber: expect.any(String) });
  });

  it("a second move copies again from nothing: changes since are in, rows only the store had are gone", async () => {
    const { orderNumber } = await freshOrder(1, { who: KJOHNSON });
    const first = await moveTenant(TENANT_B);
    expect(first.verification.equal).toBe(true);
    await env.DB.prepare("UPDATE orders SET notes = 'changed since' WHERE order_number = ?1").bind(orderNumber).run();
    await inStore(TENANT_B, (state) =>
      state.storage.sql.exec("INSERT INTO companies (id, tenant_id, name) VALUES (987654, ?, 'Only here')", TENANT_B),
    );
    const second = await moveTenant(TENANT_B);
    expect(second.state).toBe("copied");
    expect(second.moveId).not.toBe(first.moveId);
    const tables = (result: typeof first) => result.verification.stores[0].tables as { table: string; store: { digest: string } }[];
    const digestOf = (result: typeof first, name: string) => tables(result).find((t) => t.table === name)!.store.digest;
    expect(digestOf(second, "orders")).not.toBe(digestOf(first, "orders"));
    expect(digestOf(second, "companies")).toBe(digestOf(first, "companies"));
    expect(
      await inStore(TENANT_B, (state) => state.storage.sql.exec("SELECT count(*) AS n FROM companies WHERE id = 987654").one().n),
    ).toBe(0);
    expect(
      await inStore(
        TENANT_B,
        (state) => state.storage.sql.exec("SELECT notes FROM orders WHERE order_number = ?", orderNumber).one().notes,
      ),
    ).toBe("changed since");
  });

  it("a copy that does not read back equal is not used: the tenant goes back to the database, the table named", async () => {
    await freshOrder(1);
    // A fault in the store: every order copied in is changed on the way.
    await inStore(TENANT_A, (state) =>
      state.storage.sql.exec(
        "CREATE TRIGGER corrupt_on_copy AFTER INSERT ON orders BEGIN UPDATE orders SET notes = 'corrupted' WHERE id = NEW.id; END",
      ),
    );
    try {
      const done = await moveTenant(TENANT_A);
      expect(done.state).toBe("database");
      expect(done.verification.equal).toBe(false);
      const unequal = done.verification.stores.flatMap((store: { tables: { table: string; equal: boolean }[] }) =>
        store.tables.filter((t) => !t.equal),
      );
      expect(unequal.map((t: { table: string }) => t.table)).toEqual(["orders"]);
      await expect(freshOrder(1)).resolves.toMatchObject({ orderNumber: expect.any(String) });
    } finally {
      await inStore(TENANT_A, (state) => state.storage.sql.exec("DROP TRIGGER corrupt_on_copy"));
    }
  });

  it("one move at a time: asked again while one is under way, it resumes that one (its Workflow missing: created)", async () => {
    expect((await storeEntry(TENANT_B)).state).toBe("database");
    // A window opened whose Workflow never started (the Worker died between the two).
    await env.DB.prepare("INSERT INTO tenant_stores (tenant_id, state, move_id) VALUES (?1, 'copying', 'move_orphaned')")
      .bind(TENANT_B)
      .run();
    const again = await move(TENANT_B);
    expect(again.status).toBe(202);
    expect((await json(again)).data.moveId).toBe("move_orphaned");
    const done = await moveEnded(TENANT_B);
    expect(done).toMatchObject({ state: "copied", moveId: "move_orphaned", verification: { equal: true } });
  });

  it("an unknown tenant is a 404", async () => {
    await expectProblem(await move(987_654), 404);
    await expectProblem(await call(await operatorTokenFor(), `${ADMIN}/tenants/987654/store`), 404);
  });

  it("needs an operator token with clients:manage", async () => {
    const res = await call(await operatorTokenFor(["catalog:import"]), `${ADMIN}/tenants/${TENANT_A}/store-move`, { method: "POST" });
    await expectProblem(res, 403);
    expect((await storeEntry(TENANT_A)).state).toBe("database");
  });
});
