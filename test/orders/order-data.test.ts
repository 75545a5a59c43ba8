import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseOrderIncludes, searchOrders } from "../../src/api/orders/search";
import { database } from "../../src/db/client";
import { demoOrders } from "../../src/dev/seed/orders";
import { DEFAULT_PRODUCT_COUNT, seedDemoData } from "../../src/dev/seed/seed";
import { seedDemoStores } from "../../src/dev/seed/stores";
import { rangeFloor, storeOfId } from "../../src/shared/tenants/id-ranges";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { everyStore, rowsOfEveryStore, storeRows } from "../helpers/stores";

const DEMO = demoOrders(DEFAULT_PRODUCT_COUNT);

const COUNTS =
  "select (select count(*) from orders) as orders, (select count(*) from order_lines) as lines," +
  " (select count(*) from shipping_documents) as documents, (select count(*) from shipping_document_lines) as documentLines," +
  " (select count(*) from quotes where used_by_order_id is not null) as usedQuotes";

/** The demo tables' rows in every tenant's stores, added up. */
async function counts() {
  const perStore = (await rowsOfEveryStore(COUNTS)) as Record<string, number>[];
  return Object.fromEntries(Object.keys(perStore[0]!).map((name) => [name, perStore.reduce((sum, row) => sum + row[name]!, 0)])) as Record<
    string,
    number
  >;
}

describe("demo orders in the seed", () => {
  it("are seeded once, consistently, and re-seeding changes nothing", async () => {
    const expected = {
      orders: DEMO.length,
      lines: DEMO.flatMap((o) => o.lines).length,
      documents: DEMO.flatMap((o) => o.shippingDocuments).length,
      documentLines: DEMO.flatMap((o) => o.shippingDocuments.flatMap((d) => d.lineIds)).length,
      usedQuotes: DEMO.flatMap((o) => o.lines).length,
    };
    expect(await counts()).toEqual(expected);
    await seedDemoData({ db: env.DB, catalog: env.CATALOG }, { products: DEFAULT_PRODUCT_COUNT });
    await seedDemoStores(env);
    expect(await counts()).toEqual(expected);
    const { results: violations } = await env.DB.prepare("pragma foreign_key_check").all();
    expect(violations).toEqual([]);
    for (const storeTenantId of await everyStore()) expect(await storeRows(storeTenantId, "pragma foreign_key_check")).toEqual([]);
  });

  it("live in their tenant's store, with ids of its range", async () => {
    for (const tenantId of new Set(DEMO.map((o) => o.tenantId))) {
      const own = DEMO.filter((o) => o.tenantId === tenantId);
      const stored = await storeRows(tenantId, "SELECT id, order_number AS orderNumber, tenant_id AS tenantId FROM orders ORDER BY id");
      expect(stored).toEqual(own.map((o) => ({ id: o.id, orderNumber: o.orderNumber, tenantId })).sort((a, b) => a.id - b.id));
      const ids = [...own.map((o) => o.id), ...own.flatMap((o) => o.lines.map((l) => l.id))];
      expect(ids.every((id) => storeOfId(id) === tenantId && id > rangeFloor(tenantId))).toBe(true);
    }
  });

  it("refer only to products of the catalog database (no foreign key crosses the two databases)", async () => {
    const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id as string);
    const offered = ids((await env.DB.prepare("SELECT DISTINCT product_id AS id FROM vendor_offers").all()).results);
    const quoted = ids(await rowsOfEveryStore("SELECT DISTINCT product_id AS id FROM quotes"));
    const ordered = ids(await rowsOfEveryStore("SELECT DISTINCT product_id AS id FROM order_lines"));
    expect(offered.length).toBeGreaterThan(100);
    expect(quoted.length).toBeGreaterThan(0);
    expect(ordered.length).toBeGreaterThan(0);
    const referenced = new Set([...offered, ...quoted, ...ordered]);
    const { results } = await env.CATALOG.prepare("SELECT COUNT(*) AS n FROM products WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify([...referenced]))
      .all<{ n: number }>();
    expect(results[0]!.n).toBe(referenced.size);
  });

  it("cover tenants 1 and 2 with several users, statuses, shipping methods and totals", () => {
    for (const tenantId of [1, 2]) {
      const orders = DEMO.filter((o) => o.tenantId === tenantId);
      expect(new Set(orders.map((o) => o.userId)).size).toBeGreaterThanOrEqual(4);
      expect(new Set(orders.map((o) => o.status)).size).toBe(5);
      expect(new Set(orders.map((o) => o.shippingMethod)).size).toBe(5);
      expect(orders.some((o) => o.poNumber === null)).toBe(true);
      for (const order of orders) expect(order.totalCents).toBe(order.lines.reduce((sum, l) => sum + l.quantity * l.priceCents, 0));
    }
  });
});

describe("order search query count", () => {
  /** Tenant 1's real store, counting the SQL statements prepared through it. */
  function countingStore() {
    const counter = { statements: 0 };
    const d1 = new Proxy(tenantStoreDatabase(env, 1), {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === "prepare") {
          return (query: string) => {
            counter.statements++;
            return target.prepare(query);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return { db: database(d1), counter };
  }

  it("loads included relations with one query each for the whole page, never per order", async () => {
    const run = async (limit: number, include: string) => {
      const { db, counter } = countingStore();
      const result = await searchOrders(db, 1, {}, { limit, offset: 0 }, parseOrderIncludes(include));
      return { statements: counter.statements, orders: result.orders.length };
    };
    expect(await run(1, "")).toEqual({ statements: 2, orders: 1 });
    expect(await run(100, "")).toEqual({ statements: 2, orders: 16 });
    expect(await run(1, "lineItems")).toEqual({ statements: 3, orders: 1 });
    expect(await run(100, "lineItems")).toEqual({ statements: 3, orders: 16 });
    expect(await run(100, "shippingInfo")).toEqual({ statements: 3, orders: 16 });
    expect(await run(100, "lineItems,shippingInfo")).toEqual({ statements: 4, orders: 16 });
  });
});
