import { env } from "cloudflare:test";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";

/**
 * src/db/schema.ts (drizzle) mirrors migrations/ by hand. After the migrations, every drizzle table must match
 * its SQLite table column for column: name, declared type, NOT NULL and primary key.
 */

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

const tables: SQLiteTable[] = Object.values(schema as Record<string, unknown>).filter(
  (value): value is SQLiteTable => value instanceof SQLiteTable,
);

const normalizedType = (type: string) => type.toLowerCase().replace(/\(.*\)$/, "");

describe("drizzle schema vs the migrated database", () => {
  it("covers the tables of the schema module", () => {
    expect(tables.length).toBeGreaterThanOrEqual(20);
  });

  for (const table of tables) {
    const config = getTableConfig(table);
    it(`${config.name}: the same columns, types, NOT NULL and primary key`, async () => {
      const { results } = await env.DB.prepare(`PRAGMA table_info("${config.name}")`).all<ColumnInfo>();
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
