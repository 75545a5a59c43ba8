import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrationKey, type TenantMigrations } from "../../src/shared/tenants/migration-files";
import { TENANT_MIGRATIONS } from "../../src/shared/tenants/migrations.generated";
import type { TenantStore } from "../../src/shared/tenants/store";
import { tenantStore, tenantStoreName } from "../../src/shared/tenants/stub";

const LATEST = TENANT_MIGRATIONS.journal.entries.length;

/** The first `count` migrations, as an object at that schema version had them. */
function firstMigrations(count: number): TenantMigrations {
  const entries = TENANT_MIGRATIONS.journal.entries.slice(0, count);
  return {
    journal: { entries },
    migrations: Object.fromEntries(
      entries.map((entry) => [migrationKey(entry.idx), TENANT_MIGRATIONS.migrations[migrationKey(entry.idx)]!]),
    ),
  };
}

/** A store of its own for one test (stores outlive test files: the names must not meet). */
const freshStore = () => tenantStore(env, 1_000_000 + Math.floor(Math.random() * 1_000_000_000));

function schemaOf(storage: DurableObjectStorage): { type: string; name: string; sql: string }[] {
  return storage.sql
    .exec<{ type: string; name: string; sql: string }>(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name",
    )
    .toArray();
}

const inStore = <T>(stub: DurableObjectStub<TenantStore>, run: (store: TenantStore, state: DurableObjectState) => T) =>
  runInDurableObject(stub as unknown as DurableObjectStub, (store, state) => run(store as unknown as TenantStore, state));

describe("tenant stores", () => {
  it("are named by tenant, a sandbox twin apart from its tenant", () => {
    expect(tenantStoreName(42)).toBe("tenant:42");
    expect(tenantStoreName(-42)).toBe("tenant:-42");
    expect(env.TENANT_STORE.idFromName(tenantStoreName(42)).equals(env.TENANT_STORE.idFromName(tenantStoreName(-42)))).toBe(false);
  });

  it("migrate themselves when they start: a new store is at the latest schema version", async () => {
    expect(LATEST).toBeGreaterThan(0);
    expect(await freshStore().schemaVersion()).toBe(LATEST);
  });

  it.each(Array.from({ length: LATEST }, (_, version) => version))(
    "a store left at schema version %i migrates to the latest, keeping its rows, with the schema of a new store",
    async (version) => {
      const latestSchema = await inStore(freshStore(), (_, state) => schemaOf(state.storage));
      const stub = freshStore();
      await inStore(stub, async (store, state) => {
        await state.storage.deleteAll();
        await store.migrate(firstMigrations(version));
        expect(store.schemaVersion()).toBe(version);
        if (version > 0) state.storage.sql.exec("INSERT INTO companies (id, tenant_id, name) VALUES (7, 3, 'Kept')");
        await store.migrate();
        expect(store.schemaVersion()).toBe(LATEST);
        expect(schemaOf(state.storage)).toEqual(latestSchema);
        if (version > 0) expect(state.storage.sql.exec("SELECT name FROM companies WHERE id = 7").one()).toEqual({ name: "Kept" });
      });
    },
  );

  it("a failing migration leaves the store at the version it had, nothing of the migration applied", async () => {
    const stub = freshStore();
    const broken: TenantMigrations = {
      journal: {
        entries: [...TENANT_MIGRATIONS.journal.entries, { idx: LATEST, when: LATEST + 1, tag: "9999_broken", breakpoints: true }],
      },
      migrations: {
        ...TENANT_MIGRATIONS.migrations,
        [migrationKey(LATEST)]: "CREATE TABLE half_done (id INTEGER);\n--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);",
      },
    };
    await inStore(stub, async (store, state) => {
      await expect(store.migrate(broken)).rejects.toThrow(/9999_broken failed: .*no such table: no_such_table/);
      expect(store.schemaVersion()).toBe(LATEST);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").one()).toEqual({ n: 0 });
    });
  });

  it("have the control database's columns in each of their tables, so that a tenant's rows copy one for one", async () => {
    const tables = await inStore(freshStore(), (_, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name")
        .toArray()
        .map((row) => row.name),
    );
    expect(tables.length).toBeGreaterThan(15);
    for (const table of tables) {
      const storeColumns = await inStore(freshStore(), (_, state) =>
        state.storage.sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`).toArray(),
      );
      const { results } = await env.DB.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid").bind(table).all<{ name: string }>();
      expect(
        storeColumns.map((column) => column.name),
        table,
      ).toEqual(results.map((column) => column.name));
    }
  });
});
