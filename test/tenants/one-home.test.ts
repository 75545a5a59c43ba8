import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoOrders } from "../../src/dev/seed/orders";
import { DEFAULT_PRODUCT_COUNT, seedDemoData } from "../../src/dev/seed/seed";
import { seedDemoStores } from "../../src/dev/seed/stores";
import { rangeFloor, storeOfId } from "../../src/shared/tenants/id-ranges";
import { TENANT_DATA_TABLES } from "../../src/shared/tenants/tables";
import { storeRows } from "../helpers/stores";

/** Each table's rows in a tenant's store, by name. */
async function storeCounts(tenantId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { name } of TENANT_DATA_TABLES)
    counts[name] = (await storeRows(tenantId, `SELECT count(*) AS n FROM ${name}`))[0]!.n as number;
  return counts;
}

describe("one home for a tenant's data (issue 66)", () => {
  it("the control database has no table of a tenant's own data: orders, lines, events, deliveries, invoices, returns live in the stores", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    const tables = results.map((row) => row.name);
    for (const { name } of TENANT_DATA_TABLES) expect(tables, name).not.toContain(name);
    // What stays: the control plane, the directory's master copy and the registry of stores.
    expect(tables).toEqual(
      expect.arrayContaining(["tenants", "vendors", "api_clients", "users", "companies", "tenant_stores", "audit_log"]),
    );
  });

  it("every tenant is in the registry of stores; the demo orders are in their tenant's store, with ids of its range", async () => {
    const { results } = await env.DB.prepare(
      "SELECT t.id, s.state FROM tenants t LEFT JOIN tenant_stores s ON s.tenant_id = t.id WHERE t.id > 0 ORDER BY t.id",
    ).all<{ id: number; state: string | null }>();
    expect(results.length).toBeGreaterThan(0);
    for (const row of results) expect(row.state, `tenant ${row.id}`).toBe("store");
    const demo = demoOrders(DEFAULT_PRODUCT_COUNT);
    for (const tenantId of new Set(demo.map((order) => order.tenantId))) {
      const own = demo.filter((order) => order.tenantId === tenantId);
      const stored = await storeRows(tenantId, "SELECT id, order_number AS orderNumber FROM orders ORDER BY id");
      expect(stored).toEqual(own.map((order) => ({ id: order.id, orderNumber: order.orderNumber })));
      for (const order of own) {
        expect(storeOfId(order.id)).toBe(tenantId);
        expect(order.id).toBeGreaterThan(rangeFloor(tenantId));
      }
      // A tenant's sandbox twin has its directory, none of its orders.
      expect(await storeRows(-tenantId, "SELECT count(*) AS n FROM orders")).toEqual([{ n: 0 }]);
      expect((await storeRows(-tenantId, "SELECT count(*) AS n FROM users"))[0]!.n).toBeGreaterThan(0);
    }
  });

  it("seeding again (the control database, then the stores) writes nothing new anywhere and fails nowhere", async () => {
    const before = await Promise.all([1, 2, 3].map(storeCounts));
    const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first("n");
    await seedDemoData({ db: env.DB, catalog: env.CATALOG }, { products: DEFAULT_PRODUCT_COUNT });
    await seedDemoStores(env);
    await seedDemoStores(env);
    expect(await Promise.all([1, 2, 3].map(storeCounts))).toEqual(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n")).toBe(users);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM directory_changes").first("n")).toBe(0);
  });
});
