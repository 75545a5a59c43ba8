import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dropEverything, fromScratchCount, resetDatabases } from "../helpers/databases";

/**
 * Every test file starts from resetDatabases(). The first file of a vitest worker migrates from scratch; later ones only
 * empty the tables when the schema is unchanged. Both must leave the same database: every row of every table (rowids
 * included), every sequence, and what the full-text index finds.
 */
async function contents(db: D1Database): Promise<Record<string, unknown[]>> {
  const { results } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name")
    .all<{ name: string; sql: string | null }>();
  const dump: Record<string, unknown[]> = {};
  for (const { name, sql } of results) {
    // A virtual table is read through what it finds; its shadow tables hold the same thing in segment form.
    const select = /^CREATE VIRTUAL TABLE/i.test(sql ?? "")
      ? `SELECT rowid FROM "${name}" ORDER BY rowid`
      : /WITHOUT ROWID\s*;?\s*$/i.test(sql ?? "")
        ? `SELECT * FROM "${name}"` // in primary key order
        : `SELECT rowid AS _rowid, * FROM "${name}" ORDER BY 1`;
    dump[name] = (await db.prepare(select).all()).results;
  }
  return dump;
}

const FTS_PROBE = "SELECT rowid FROM products_fts WHERE products_fts MATCH 'sensor*' ORDER BY rowid";

/** Both databases' rows, but for the catalog version: random by design (a new one at every catalog change). */
const snapshot = async () => {
  const catalog = await contents(env.CATALOG);
  expect(catalog.catalog_version).toHaveLength(1);
  catalog.catalog_version = [];
  return { db: await contents(env.DB), catalog, matches: (await env.CATALOG.prepare(FTS_PROBE).all()).results };
};

describe("the per-file database reset", () => {
  it("emptying an unchanged schema leaves what a migration from scratch leaves, after writes of every kind", async () => {
    await dropEverything(env.DB);
    await dropEverything(env.CATALOG);
    await resetDatabases(); // from scratch: nothing to compare a fingerprint with
    const fresh = await snapshot();
    expect(fresh.catalog.products!.length).toBeGreaterThan(0);
    expect(fresh.matches.length).toBeGreaterThan(0);
    expect(Object.keys(fresh.catalog)).toEqual(expect.arrayContaining(["operator_events", "sqlite_sequence"]));

    // Writes that move rowids, sequences, counters and the index on, as tests do.
    await env.CATALOG.prepare(
      "UPDATE products SET title = 'Probe' WHERE rowid IN (SELECT rowid FROM products ORDER BY rowid LIMIT 3)",
    ).run();
    // A directory write (its change recorded, the directory's sequence moved on) and its audit entry, as the operator
    // plane makes them: tenant data lives in the tenants' stores, which the file's end empties (test/helpers/stores.ts).
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET first_name = 'Probe' WHERE id = 1"),
      env.DB.prepare(
        "INSERT INTO audit_log (at, actor, action, target_type, target_id) VALUES ('2026-11-28T00:00:00.000Z', 'reset-probe', 'probe', 'user', '1')",
      ),
    ]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM directory_changes").first("n")).toBeGreaterThan(0);
    await env.CATALOG.prepare(
      "INSERT INTO operator_events (id, type, created_at, data) VALUES ('reset-probe', 'probe', '2026-11-28T00:00:00.000Z', '{}')",
    ).run(); // moves the AUTOINCREMENT sequence on
    const migrations = fromScratchCount();
    await resetDatabases(); // same schema: emptied and seeded again
    expect(fromScratchCount()).toBe(migrations);
    const again = await snapshot();
    for (const part of ["db", "catalog"] as const)
      for (const table of Object.keys(fresh[part]))
        expect(JSON.stringify(again[part][table]), table).toBe(JSON.stringify(fresh[part][table]));
    expect(again).toEqual(fresh);
  });

  it("a changed schema is migrated from scratch again", async () => {
    await env.DB.prepare("CREATE TRIGGER reset_probe BEFORE INSERT ON audit_log BEGIN SELECT 1; END").run();
    const migrations = fromScratchCount();
    await resetDatabases();
    expect(fromScratchCount()).toBe(migrations + 1);
    const triggers = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'reset_probe'").all();
    expect(triggers.results).toEqual([]);
  });
});
