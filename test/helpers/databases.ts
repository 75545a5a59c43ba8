import { applyD1Migrations, type D1Migration, env } from "cloudflare:test";
import { quotedIdentifier as quoted } from "../../src/db/identifiers";
import { DEFAULT_PRODUCT_COUNT, seedDemoData } from "../../src/dev/seed/seed";
import { seedDemoStores } from "../../src/dev/seed/stores";

/** Drops every view, then every table of a D1 database (foreign keys deferred, so the tables' order does not matter). */
export async function dropEverything(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type = 'table'",
    )
    .all<{ type: "table" | "view"; name: string }>();
  if (results.length === 0) return;
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...results.map(({ type, name }) => db.prepare(`DROP ${type.toUpperCase()} IF EXISTS ${quoted(name)}`)),
  ]);
}

/**
 * Everything that makes two databases' schemas the same: every object's definition (tables, indexes, triggers,
 * views, and sqlite_stat1 once ANALYZE ran) and the migrations recorded as applied.
 */
const SCHEMA_FINGERPRINT =
  "SELECT (SELECT group_concat(type || ' ' || name || ' ' || coalesce(sql, ''), char(10)) FROM (SELECT * FROM sqlite_master ORDER BY type, name))" +
  " || char(10) || (SELECT group_concat(name, ',') FROM (SELECT name FROM d1_migrations ORDER BY id)) AS fingerprint";

async function schemaFingerprint(db: D1Database): Promise<string | null> {
  try {
    return (await db.prepare(SCHEMA_FINGERPRINT).first<{ fingerprint: string | null }>())?.fingerprint ?? null;
  } catch {
    return null; // no d1_migrations table: never migrated
  }
}

interface Migrated {
  fingerprint: string;
  /** Statements that empty every table but d1_migrations, keeping the schema. */
  emptying: string[];
  /** The rows the migrations themselves wrote (a catalog version, reference data), written again after emptying. */
  migrationRows: { sql: string; values: unknown[] }[];
}

/** What this vitest worker's fresh migration left, per database: its later files empty the tables instead of migrating again. */
const migrated = new Map<D1Database, Migrated>();
let migrationsFromScratch = 0;
/** How many times this vitest worker has migrated a database from scratch. */
export const fromScratchCount = () => migrationsFromScratch;

/** What a fresh migration left: how to empty the database again, and the rows to put back. */
async function afterMigration(db: D1Database, fingerprint: string): Promise<Migrated> {
  const { results } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'")
    .all<{ name: string; sql: string | null }>();
  const virtual = results.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? ""));
  // An FTS5 table's shadow tables (_data, _idx, _content, _docsize, _config) belong to it and are emptied through it.
  const isShadow = (name: string) => virtual.some((v) => name.startsWith(`${v.name}_`));
  const plain = results.filter((t) => !isShadow(t.name) && !virtual.includes(t) && !t.name.startsWith("sqlite_")).map((t) => t.name);
  // The tenant registry first: while it names a tenant copying or switched, DB's triggers refuse to delete its rows.
  const registryFirst = [...plain].sort((a, b) => Number(b === "tenant_stores") - Number(a === "tenant_stores"));
  const statements = registryFirst.map((name) => `DELETE FROM ${quoted(name)}`);
  const virtualStatements = virtual.map((v) =>
    // Contentless and external-content FTS5 tables refuse DELETE; 'delete-all' empties them.
    /content\s*=/i.test(v.sql ?? "")
      ? `INSERT INTO ${quoted(v.name)}(${quoted(v.name)}) VALUES ('delete-all')`
      : `DELETE FROM ${quoted(v.name)}`,
  );
  const sequences = results.some((t) => t.name === "sqlite_sequence") ? ["DELETE FROM sqlite_sequence WHERE name != 'd1_migrations'"] : [];
  const migrationRows = (
    await Promise.all(
      plain.map(async (name) =>
        (
          await db.prepare(`SELECT * FROM ${quoted(name)}`).all<Record<string, unknown>>()
        ).results.map((row) => ({
          sql: `INSERT INTO ${quoted(name)} (${Object.keys(row).map(quoted).join(", ")}) VALUES (${Object.keys(row)
            .map(() => "?")
            .join(", ")})`,
          values: Object.values(row),
        })),
      ),
    )
  ).flat();
  // Twice: triggers of the first pass (counters, search documents) may write rows into tables already emptied.
  return { fingerprint, emptying: [...statements, ...statements, ...virtualStatements, ...sequences], migrationRows };
}

/**
 * One database as a test file starts with: migrated and seeded. The first file of a vitest worker drops everything and
 * migrates from scratch; a later file whose schema is still the one migrated (the fingerprint) only empties the tables,
 * which gives the same rows and ids (rowids restart, sqlite_sequence is reset) at a fraction of the cost. A file that
 * changed the schema (a migration test, an injected trigger) leaves a different fingerprint, and the next file
 * migrates from scratch again.
 */
async function resetDatabase(db: D1Database, migrations: D1Migration[]): Promise<void> {
  const known = migrated.get(db);
  if (known && (await schemaFingerprint(db)) === known.fingerprint) {
    await db.batch([
      db.prepare("PRAGMA defer_foreign_keys = on"),
      ...known.emptying.map((sql) => db.prepare(sql)),
      ...known.migrationRows.map(({ sql, values }) => db.prepare(sql).bind(...values)),
    ]);
    return;
  }
  await dropEverything(db);
  await applyD1Migrations(db, migrations);
  migrationsFromScratch++;
  const fingerprint = await schemaFingerprint(db);
  if (fingerprint === null) throw new Error("a migrated database has no d1_migrations table");
  migrated.set(db, await afterMigration(db, fingerprint));
}

/**
 * Both databases as every test file starts with: emptied, migrated from migrations/ (DB) and catalog-migrations/
 * (CATALOG), and seeded with the deterministic demo data; then the demo tenants' stores (emptied by the file before:
 * test/helpers/stores.ts) seeded with their directory and orders.
 */
export async function resetDatabases(): Promise<void> {
  await Promise.all([resetDatabase(env.DB, env.TEST_MIGRATIONS), resetDatabase(env.CATALOG, env.TEST_CATALOG_MIGRATIONS)]);
  await seedDemoData({ db: env.DB, catalog: env.CATALOG }, { products: DEFAULT_PRODUCT_COUNT });
  await seedDemoStores(env);
}

/** Deletes the X12 files of the IMPORTS bucket (edi/): they name partners by ids a reset database gives again. */
export async function emptyEdiFiles(): Promise<void> {
  for (;;) {
    const { objects } = await env.IMPORTS.list({ prefix: "edi/", limit: 1000 });
    if (objects.length === 0) return;
    await env.IMPORTS.delete(objects.map((object) => object.key));
  }
}
