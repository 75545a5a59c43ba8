import { env } from "cloudflare:test";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as catalogSchema from "../../src/db/catalog-schema";
import * as schema from "../../src/db/schema";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";
import { STORE_ONLY_TABLES, TENANT_DATA_TABLES } from "../../src/shared/tenants/tables";

/**
 * src/db/schema.ts (drizzle) mirrors migrations/ (the control database) and tenant-migrations/ (a tenant's own data, in
 * its stores only) by hand. After the migrations, every drizzle table must match its SQLite table column for column:
 * name, declared type, NOT NULL and primary key.
 */

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

const tablesOf = (module: Record<string, unknown>): SQLiteTable[] =>
  Object.values(module).filter((value): value is SQLiteTable => value instanceof SQLiteTable);
const tables = tablesOf(schema);
const catalogTables = tablesOf(catalogSchema);
const inStores = new Set<string>([...TENANT_DATA_TABLES.map((table) => table.name), ...STORE_ONLY_TABLES]);
/** Each drizzle table with the database its migrations create it in: a tenant's store, DB or CATALOG. */
const placed: [SQLiteTable, D1Database][] = [
  ...tables.map((table): [SQLiteTable, D1Database] => [
    table,
    inStores.has(getTableConfig(table).name) ? tenantStoreDatabase(env, 1) : env.DB,
  ]),
  ...catalogTables.map((table): [SQLiteTable, D1Database] => [table, env.CATALOG]),
];

const normalizedType = (type: string) => type.toLowerCase().replace(/\(.*\)$/, "");

describe("drizzle schema vs the migrated database", () => {
  it("covers the tables of both schema modules", () => {
    expect(tables.length).toBeGreaterThanOrEqual(16);
    expect(catalogTables.length).toBeGreaterThanOrEqual(6);
  });

  it("each table lives in one database only: the catalog's are gone from the transactional one, and back", async () => {
    const names = async (d1: D1Database) =>
      new Set((await d1.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>()).results.map((r) => r.name));
    const [inDb, inCatalog] = await Promise.all([names(env.DB), names(env.CATALOG)]);
    for (const table of catalogTables) expect(inDb.has(getTableConfig(table).name), getTableConfig(table).name).toBe(false);
    for (const table of tables) expect(inCatalog.has(getTableConfig(table).name), getTableConfig(table).name).toBe(false);
    expect(inDb.has("products_fts")).toBe(false);
    expect(inCatalog.has("products_fts")).toBe(true);
  });

  for (const [table, d1] of placed) {
    const config = getTableConfig(table);
    it(`${config.name}: the same columns, types, NOT NULL and primary key`, async () => {
      const { results } = await d1.prepare("SELECT * FROM pragma_table_info(?1)").bind(config.name).all<ColumnInfo>();
      expect(results.length, `table ${config.name} exists`).toBeGreaterThan(0);
      const compositeKey = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
      // A primary key column counts as NOT NULL on both sides (SQLite reports notnull = 0 for INTEGER PRIMARY KEY).
      const declared = config.columns
        .map((c) => {
          const primaryKey = c.primary || compositeKey.has(c.name);
          return { name: c.name, type: normalizedType(c.getSQLType()), notNull: c.notNull || primaryKey, primaryKey };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      const actual = results
        .map((c) => ({ name: c.name, type: normalizedType(c.type), notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(declared).toEqual(actual);
    });
  }
});
