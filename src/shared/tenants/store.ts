import { DurableObject } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { type DrizzleSqliteDODatabase, drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import type { Bindings } from "../../env";
import { migrationKey, STATEMENT_BREAKPOINT, type TenantMigrations } from "./migration-files";
import { TENANT_MIGRATIONS } from "./migrations.generated";
import type { StoreResult, StoreStatementData, StoreValue } from "./statements";
import { STORE_TABLES, type StoreTable } from "./tables";

/**
 * A tenant store: the SQLite Durable Object that holds one tenant's own data (docs/architecture.md, "Tenant stores").
 * One object per tenant and one per sandbox twin, addressed by name (`tenantStoreName`). Its schema is
 * tenant-migrations/, applied by drizzle's durable-sqlite migrator when the object starts: after a deploy, an
 * object's first request waits for its migration, and no request ever sees an older schema.
 */
export class TenantStore extends DurableObject<Bindings> {
  protected readonly db: DrizzleSqliteDODatabase;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.db = drizzle(ctx.storage);
    void ctx.blockConcurrencyWhile(() => this.migrate());
  }

  /**
   * Applies the migrations this object has not applied yet, all of them in one transaction (drizzle's migrator): a
   * failing migration leaves the object at the version it had, and its requests fail until a fixed deploy.
   */
  async migrate(migrations: TenantMigrations = TENANT_MIGRATIONS): Promise<void> {
    try {
      await migrate(this.db, migrations);
    } catch (error) {
      // drizzle's migrator rolls back and throws "Rollback", which names neither the migration nor the cause.
      throw this.failedMigration(migrations) ?? error;
    }
  }

  /** Replays the pending migrations in a transaction that is always rolled back, to name the one that fails and why. */
  private failedMigration(migrations: TenantMigrations): Error | undefined {
    const applied = this.schemaVersion();
    let failure: Error | undefined;
    try {
      this.ctx.storage.transactionSync(() => {
        for (const entry of migrations.journal.entries.slice(applied)) {
          for (const statement of migrations.migrations[migrationKey(entry.idx)]?.split(STATEMENT_BREAKPOINT) ?? []) {
            try {
              this.ctx.storage.sql.exec(statement);
            } catch (cause) {
              failure = new Error(`tenant store migration ${entry.tag} failed: ${String(cause)}`, { cause });
              throw failure;
            }
          }
        }
        throw new Error("rolled back on purpose");
      });
    } catch {
      // Always: the replay must leave nothing behind.
    }
    return failure;
  }

  /**
   * Runs D1-style statements on this store (src/shared/tenants/store-database.ts): several statements are one
   * transaction, as a D1 batch is; an error rolls every one of them back and is thrown with SQLite's message.
   */
  execute(statements: StoreStatementData[]): StoreResult[] {
    const run = () => statements.map((statement) => this.executeOne(statement));
    const results = statements.length === 1 ? run() : this.ctx.storage.transactionSync(run);
    if (results.some((result) => result.meta.rows_written > 0)) this.armOutbox();
    return results;
  }

  /**
   * The store's outbox (docs/tenant-stores.md): a write that leaves an event undispatched arms the alarm at once, in the
   * same output as the write, so no committed event waits for anything but the alarm (the API Worker's subclass
   * dispatches in `alarm()`, src/api/stores/tenant-store.ts).
   */
  private armOutbox(): void {
    const pending = this.ctx.storage.sql.exec("SELECT 1 FROM outbox_events WHERE dispatched_at IS NULL LIMIT 1").toArray().length > 0;
    if (pending) void this.ctx.storage.setAlarm(Date.now());
  }

  private executeOne({ sql, params }: StoreStatementData): StoreResult {
    const cursor = this.ctx.storage.sql.exec(sql, ...params);
    const rows = [...cursor.raw()] as StoreValue[][];
    const columns = cursor.columnNames;
    const results = rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i] ?? null])));
    const { changes, id } = this.ctx.storage.sql
      .exec<{ changes: number; id: number }>("SELECT changes() AS changes, last_insert_rowid() AS id")
      .one();
    return {
      results,
      columns,
      rows,
      meta: {
        changes: cursor.rowsWritten > 0 ? changes : 0,
        last_row_id: id,
        rows_read: cursor.rowsRead,
        rows_written: cursor.rowsWritten,
      },
    };
  }

  /**
   * Writes rows of a store table as the control database has them (the move of a deployment, src/operator/tenant-stores):
   * a row already here is overwritten in place, so copying a page twice leaves what copying it once does.
   */
  copyRows(tableName: string, columns: string[], rows: SqlStorageValue[][]): number {
    const table = storeTable(tableName);
    const names = this.columnsOf(table, columns);
    const statement =
      `INSERT INTO ${quoted(table.name)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ` +
      `ON CONFLICT (${table.key.map(quoted).join(", ")}) DO UPDATE SET ${names.map((name) => `${name} = excluded.${name}`).join(", ")}`;
    this.ctx.storage.transactionSync(() => {
      for (const row of rows) this.ctx.storage.sql.exec(statement, ...row);
    });
    return rows.length;
  }

  /** Up to `limit` rows of a store table after the key `after` (from the start when null), in key order. */
  readRows(tableName: string, columns: string[], after: SqlStorageValue[] | null, limit: number): SqlStorageValue[][] {
    const table = storeTable(tableName);
    const names = this.columnsOf(table, columns);
    const key = table.key.map(quoted).join(", ");
    const from = after ? `WHERE (${key}) > (${table.key.map(() => "?").join(", ")}) ` : "";
    return [
      ...this.ctx.storage.sql
        .exec(`SELECT ${names.join(", ")} FROM ${quoted(table.name)} ${from}ORDER BY ${key} LIMIT ?`, ...(after ?? []), limit)
        .raw(),
    ];
  }

  /** Empties every store table, children first: a move starts from nothing, so that a second move ends as the first. */
  clearTenantData(): void {
    this.ctx.storage.transactionSync(() => {
      for (const table of [...STORE_TABLES].reverse()) this.ctx.storage.sql.exec(`DELETE FROM ${quoted(table.name)}`);
    });
  }

  /** The columns asked for, quoted, each checked to be one of the table's: no other text reaches the SQL. */
  private columnsOf(table: StoreTable, columns: string[]): string[] {
    const known = new Set(
      this.ctx.storage.sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info(?)", table.name)
        .toArray()
        .map((c) => c.name),
    );
    const unknown = columns.filter((column) => !known.has(column));
    if (unknown.length > 0 || columns.length === 0)
      throw new Error(`${table.name} has no column(s) ${unknown.join(", ") || "(none asked)"}`);
    return columns.map(quoted);
  }

  /** The bytes this store's SQLite database takes (what counts against its 10 GB). */
  databaseBytes(): number {
    return this.ctx.storage.sql.databaseSize;
  }

  /** How many of tenant-migrations/ this object has applied. */
  schemaVersion(): number {
    const [row] = this.db.all<{ applied: number }>(sql`SELECT count(*) AS applied FROM __drizzle_migrations`);
    return row?.applied ?? 0;
  }
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function storeTable(name: string): StoreTable {
  const table = STORE_TABLES.find((candidate) => candidate.name === name);
  if (!table) throw new Error(`no store table ${name}`);
  return table;
}
