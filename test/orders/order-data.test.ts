import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseOrderIncludes, searchOrders } from "../../src/api/orders/search";
import { database } from "../../src/db/client";
import { demoOrders } from "../../src/dev/seed/orders";
import { seedDemoData } from "../../src/dev/seed/seed";

const DEMO = demoOrders(600);

async function counts() {
  const row = await env.DB.prepare(
    `select (select count(*) from orders) as orders, (select count(*) from order_lines) as lines,
            (select count(*) from shipping_documents) as documents, (select count(*) from shipping_document_lines) as documentLines,
            (select count(*) from quotes where used_by_order_id is not null) as usedQuotes`,
  ).first();
  return row;
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
    await seedDemoData({ db: env.DB, catalog: env.CATALOG }, { products: 600 });
    expect(await counts()).toEqual(expected);
    const { results: violations } = await env.DB.prepare("pragma foreign_key_check").all();
    expect(violations).toEqual([]);
  });

  it("refer only to products of the catalog database (no foreign key crosses the two databases)", async () => {
    const referenced = async (sql: string) => (await env.DB.prepare(sql).all<{ id: string }>()).results.map((r) => r.id);
    const ids = new Set([
      ...(await referenced("SELECT DISTINCT product_id AS id FROM vendor_offers")),
      ...(await referenced("SELECT DISTINCT product_id AS id FROM quotes")),
      ...(await referenced("SELECT DISTINCT product_id AS id FROM order_lines")),
    ]);
    expect(ids.size).toBeGreaterThan(100);
    const { results } = await env.CATALOG.prepare("SELECT COUNT(*) AS n FROM products WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify([...ids]))
      .all<{ n: number }>();
    expect(results[0]!.n).toBe(ids.size);
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
  /** The real D1 binding, counting the SQL statements prepared through it. */
  function countingD1() {
    const counter = { statements: 0 };
    const d1 = new Proxy(env.DB, {
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
      const { db, counter } = countingD1();
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
