import { env } from "cloudflare:test";
import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { manufacturerSearch } from "../../src/api/manufacturers/search-fields";
import { orderSearch } from "../../src/api/orders/search-fields";
import { manufacturers } from "../../src/db/catalog-schema";
import { database } from "../../src/db/client";
import { orders, users } from "../../src/db/schema";
import type { SearchResource } from "../../src/query/fields";
import { planSearch } from "../../src/query/search";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { userSearch } from "../../src/shared/users/search-fields";

/** Where a search runs: the catalog database, or tenant 1's store (its orders, and its copy of the directory). */
type Home = "store" | "CATALOG";
const databaseOf = (home: Home): D1Database => (home === "store" ? tenantStoreDatabase(env, 1) : env.CATALOG);

/** Each resource with its table, its tenant column (null: global) and the database it is searched in. */
const cases: [SearchResource, SQLiteTable, SQLiteColumn | null, Home][] = [
  [orderSearch, orders, orders.tenantId, "store"],
  [userSearch, users, users.tenantId, "store"],
  [manufacturerSearch, manufacturers, null, "CATALOG"],
];

async function queryPlan(
  resource: SearchResource,
  table: SQLiteTable,
  tenantColumn: SQLiteColumn | null,
  binding: Home,
  sortBy: string,
  sortDir: "Asc" | "Desc",
  q = "",
) {
  const plan = planSearch(resource, { q, sortBy, sortDir });
  const where: SQL | undefined = tenantColumn ? and(eq(tenantColumn, 1), plan.filter) : plan.filter;
  const query = database(databaseOf(binding))
    .select()
    .from(table)
    .where(where)
    .orderBy(...plan.orderBy)
    .limit(50)
    .offset(0)
    .toSQL();
  const { results } = await databaseOf(binding)
    .prepare(`explain query plan ${query.sql}`)
    .bind(...query.params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

describe("search query plans (migration 0005)", () => {
  // The global manufacturer list has no tenant filter, so walking an index (or the rowid) in order is the plan.
  it("reads every sortable field in index order: nothing needs a sort step, and a tenant's rows are read as a range", async () => {
    for (const [resource, table, tenantColumn, binding] of cases) {
      for (const field of resource.fields.filter((f) => f.sortable)) {
        for (const direction of ["Asc", "Desc"] as const) {
          const details = await queryPlan(resource, table, tenantColumn, binding, field.name, direction);
          const label = `${resource.name} sortBy=${field.name} ${direction}: ${details.join(" / ")}`;
          // In the control database a tenant-scoped search reads its tenant's range of an index, never the table. A
          // store holds one tenant's rows (a twin's store, the twin's), so walking its table in order is that range.
          if (tenantColumn && binding !== "store")
            expect(
              details.some((d) => /^SCAN /.test(d)),
              label,
            ).toBe(false);
          expect(
            details.some((d) => d.includes("TEMP B-TREE")),
            label,
          ).toBe(false);
        }
      }
    }
  });

  it("filters on related rows through their indexes", async () => {
    const details = await queryPlan(userSearch, users, users.tenantId, "store", "lastName", "Asc", 'companyName~"mary" AND customerId:101');
    expect(
      details.filter((d) => d.includes("user_companies")).every((d) => d.startsWith("SEARCH")),
      details.join(" / "),
    ).toBe(true);
    const orderDetails = await queryPlan(orderSearch, orders, orders.tenantId, "store", "orderDate", "Desc", 'partNumber:"SH305894B"');
    expect(
      orderDetails.some((d) => /^SCAN order_lines/.test(d)),
      orderDetails.join(" / "),
    ).toBe(false);
  });
});
