import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { rangeFloor, storeOfId } from "../../src/shared/tenants/id-ranges";
import { migrationKey, type TenantMigrations } from "../../src/shared/tenants/migration-files";
import { TENANT_MIGRATIONS } from "../../src/shared/tenants/migrations.generated";
import { tenantStoreName } from "../../src/shared/tenants/names";
import type { TenantStore } from "../../src/shared/tenants/store";
import { tenantStore } from "../../src/shared/tenants/stub";
import { DIRECTORY_TABLES, STORE_ONLY_TABLES, STORE_TABLES } from "../../src/shared/tenants/tables";

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

/** A row in every table, each referring to the others as real data does: what a migration must keep. */
const FIXTURE = [
  "INSERT INTO companies (id, tenant_id, name) VALUES (7, 3, 'Kept')",
  "INSERT INTO addresses (id, company_id, kind, line1, city, state, zip) VALUES (1, 7, 'shipping', 'l', 'c', 's', 'z')",
  "INSERT INTO facilities (id, company_id, name) VALUES (1, 7, 'F')",
  "INSERT INTO users (id, tenant_id, contact_id, login_user_id, first_name, last_name, created_at) VALUES (1, 3, 1, 'u', 'f', 'l', 'now')",
  "INSERT INTO user_companies (user_id, company_id) VALUES (1, 7)",
  "INSERT INTO user_facilities (user_id, facility_id) VALUES (1, 1)",
  "INSERT INTO scim_groups (id, tenant_id, display_name, facility_id, created_at, updated_at) VALUES (1, 3, 'G', 1, 'now', 'now')",
  "INSERT INTO scim_group_members (group_id, user_id) VALUES (1, 1)",
  "INSERT INTO quotes (id, tenant_id, requester_contact_id, facility_id, product_id, offer_id, vendor_id, price_cents, condition, warranty, purchase_choice, lead_time_days, return_policy, custom_fields, created_at, expires_at) VALUES ('q', 3, 1, 1, 'p', 1, 1, 1, 'n', 'w', 'b', 1, 'r', '[]', 'now', 'later')",
  "INSERT INTO orders (id, order_number, tenant_id, company_id, facility_id, requester_contact_id, user_id, requester_name, payment_method, shipping_method, shipping_address_id, billing_address_id, status, total_cents, event_id, created_at, updated_at) VALUES (70, 'O-70', 3, 7, 1, 1, 1, 'n', 'p', 's', 1, 1, 'Ordered', 1, 'e', 'now', 'now')",
  "INSERT INTO order_lines (id, order_id, line_number, quote_id, product_id, vendor_id, part_number, requested_part_number, description, quantity, price_cents, extended_price_cents, status_name) VALUES (90, 70, 1, 'q', 'p', 1, 'pn', 'pn', 'd', 1, 1, 1, 'Ordered')",
  "INSERT INTO shipping_documents (id, order_id, address1, city, state, zip, country, carrier_name, service_level) VALUES (50, 70, 'a', 'c', 's', 'z', 'US', 'c', 's')",
  "INSERT INTO shipping_document_lines (shipping_document_id, line_id) VALUES (50, 90)",
  "INSERT INTO shipped_units (id, order_id, line_id, shipping_document_id, agency, device_id, units) VALUES (30, 70, 90, 50, 'GS1', 'd', 1)",
  "INSERT INTO sandbox_manual_orders (order_id, at) VALUES (70, 'now')",
  "INSERT INTO outbox_events (id, type, tenant_id, aggregate_id, payload, created_at, sequence, dispatched_at) VALUES ('e', 'order.created', 3, 'O-70', '{}', 'now', 1, 'now')",
  "INSERT INTO idempotency_results (tenant_id, idempotency_key, fingerprint, response, created_at, expires_at) VALUES (3, 'k', 'f', '{}', 'now', 'later')",
  "INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, secret_salt, created_at) VALUES ('we', 3, 'https://x.example', '[]', 's', 'now')",
  "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, attempt, outcome, latency_ms, created_at) VALUES (20, 'we', 'e', 1, 'succeeded', 1, 'now')",
  "INSERT INTO webhook_deliveries_owed (event_id, endpoint_id, due_at) VALUES ('e', 'we', 'later')",
];

/** Rows per table of the store's tables that its schema version has (a later migration adds the others, empty). */
function rowCounts(storage: DurableObjectStorage, tables = STORE_TABLES.map((table) => table.name)): Record<string, number> {
  const present = new Set(
    storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map((t) => t.name),
  );
  return Object.fromEntries(
    tables
      .filter((name) => present.has(name))
      .map((name) => [name, storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${name}`).one().n]),
  );
}

/** A store of its own for one test (stores outlive test files: the names must not meet). */
const freshStore = () => tenantStore(env, 100_000 + Math.floor(Math.random() * 900_000));

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
        if (version > 0) for (const statement of FIXTURE) state.storage.sql.exec(statement);
        const before = version > 0 ? rowCounts(state.storage) : {};
        await store.migrate();
        expect(store.schemaVersion()).toBe(LATEST);
        expect(schemaOf(state.storage)).toEqual(latestSchema);
        if (version > 0) {
          expect(rowCounts(state.storage, Object.keys(before))).toEqual(before);
          expect(state.storage.sql.exec("SELECT name FROM companies WHERE id = 7").one()).toEqual({ name: "Kept" });
          expect(state.storage.sql.exec("PRAGMA foreign_key_check").toArray()).toEqual([]);
        }
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

  it("hold the directory with the control database's columns (a pushed row is written one for one), the tenant's own data and their bookkeeping", async () => {
    const tables = await inStore(freshStore(), (_, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name")
        .toArray()
        .map((row) => row.name),
    );
    const expected = [...STORE_TABLES.map((table) => table.name), ...STORE_ONLY_TABLES];
    expect(tables.filter((name) => !name.startsWith("sqlite_")).sort()).toEqual([...expected].sort());
    for (const { name } of DIRECTORY_TABLES) {
      const storeColumns = await inStore(freshStore(), (_, state) =>
        state.storage.sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('${name}') ORDER BY cid`).toArray(),
      );
      const { results } = await env.DB.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid").bind(name).all<{ name: string }>();
      expect(
        storeColumns.map((column) => column.name),
        name,
      ).toEqual(results.map((column) => column.name));
    }
  });

  it("give new orders, lines, shipments, units and deliveries ids of the store's own range, copied ids kept", async () => {
    const tenantId = 3_000 + Math.floor(Math.random() * 1_000_000);
    for (const storeTenantId of [tenantId, -tenantId]) {
      await inStore(tenantStore(env, storeTenantId), (_, state) => {
        for (const statement of FIXTURE) state.storage.sql.exec(statement);
        state.storage.sql.exec(
          "INSERT INTO orders (order_number, tenant_id, company_id, facility_id, requester_contact_id, user_id, requester_name, payment_method, shipping_method, shipping_address_id, billing_address_id, status, total_cents, event_id, created_at, updated_at) VALUES ('O-NEW', 3, 7, 1, 1, 1, 'n', 'p', 's', 1, 1, 'Ordered', 1, 'e2', 'now', 'now')",
        );
        const ids = state.storage.sql
          .exec<{ id: number }>("SELECT id FROM orders ORDER BY id")
          .toArray()
          .map((row) => row.id);
        expect(ids).toEqual([70, rangeFloor(storeTenantId) + 1]);
        expect(storeOfId(ids[1]!)).toBe(storeTenantId);
        expect(storeOfId(70)).toBeNull();
      });
    }
    expect(rangeFloor(tenantId) + 2 ** 32).toBe(rangeFloor(-tenantId));
    expect(() => rangeFloor(2 ** 21)).toThrow(RangeError);
    // The last range ends below 2^53; ids past it name no store.
    expect(Number.isSafeInteger(rangeFloor(-(2 ** 20 - 2)) + 2 ** 32 - 1)).toBe(true);
    expect(storeOfId(rangeFloor(-(2 ** 20 - 2)) + 5)).toBe(-(2 ** 20 - 2));
    expect(storeOfId(Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(storeOfId(2 ** 33 - 1)).toBeNull();
  });
});
