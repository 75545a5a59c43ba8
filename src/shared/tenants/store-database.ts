import type { Bindings } from "../../env";
import type { StoreResult, StoreStatementData, StoreValue } from "./statements";
import type { TenantStore } from "./store";
import { tenantStore } from "./stub";

/**
 * D1's statement API (prepare, bind, first, all, raw, run, batch) over a tenant's store, so that code written for `DB`
 * reads and writes a store unchanged while the request path moves (docs/tenant-stores.md). Each call is one call to
 * the store, as it was one round trip to D1; a batch is one call and one transaction, as in D1. The SQL runs on the
 * store's own tables (src/shared/tenants/tables.ts), parameterized as written.
 */

/** D1 binds booleans as 1 and 0 and refuses undefined; the store takes only SQL values. */
function storeValue(value: unknown): StoreValue {
  if (value === undefined) throw new TypeError("D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined'");
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return Number(value);
  if (value === null || typeof value === "string" || typeof value === "number" || value instanceof ArrayBuffer) return value;
  if (ArrayBuffer.isView(value)) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) as ArrayBuffer;
  throw new TypeError(`D1_TYPE_ERROR: Type '${typeof value}' not supported`);
}

const d1Result = (result: StoreResult) => ({
  results: result.results,
  success: true as const,
  meta: { ...result.meta, duration: 0, size_after: 0, changed_db: result.meta.changes > 0, served_by: "tenant-store" },
});

export class StoreStatement {
  constructor(
    private readonly store: StoreDatabase,
    readonly data: StoreStatementData,
  ) {}

  bind(...values: unknown[]): StoreStatement {
    return new StoreStatement(this.store, { sql: this.data.sql, params: values.map(storeValue) });
  }

  async first<T = Record<string, StoreValue>>(column?: string): Promise<T | null> {
    const [result] = await this.store.execute([this.data]);
    const row = result?.results[0];
    if (!row) return null;
    if (column === undefined) return row as T;
    if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
    return row[column] as T;
  }

  async all<T = Record<string, StoreValue>>() {
    const [result] = await this.store.execute([this.data]);
    return d1Result(result!) as ReturnType<typeof d1Result> & { results: T[] };
  }

  async run() {
    return this.all();
  }

  async raw<T = StoreValue[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    const [result] = await this.store.execute([this.data]);
    const rows = result!.rows as T[];
    return options?.columnNames ? ([result!.columns as T, ...rows] as T[]) : rows;
  }
}

/** Runs statements on a store: over its stub from a Worker, or directly inside the store itself (its alarm). */
export type StoreExecutor = (statements: StoreStatementData[]) => Promise<StoreResult[]>;

export class StoreDatabase {
  private readonly executor: StoreExecutor;

  constructor(store: DurableObjectStub<TenantStore> | StoreExecutor) {
    this.executor = typeof store === "function" ? store : async (statements) => (await store.execute(statements)) as StoreResult[];
  }

  prepare(sql: string): StoreStatement {
    return new StoreStatement(this, { sql, params: [] });
  }

  /** All of them in one call and one transaction: every statement's effect, or none. */
  async batch(statements: StoreStatement[]) {
    const results = await this.execute(statements.map((statement) => statement.data));
    return results.map(d1Result);
  }

  /** A session is the store itself: a store is always current, so there is nothing to bookmark. */
  withSession(): StoreDatabase {
    return this;
  }

  getBookmark(): null {
    return null;
  }

  execute(statements: StoreStatementData[]): Promise<StoreResult[]> {
    return this.executor(statements);
  }

  /** For code typed against D1: the same calls, answered by the store. */
  asD1(): D1Database {
    return this as unknown as D1Database;
  }
}

/** Tenant `tenantId`'s store (its sandbox twin's when negative) as a D1 database. */
export const tenantStoreDatabase = (env: Pick<Bindings, "TENANT_STORE">, tenantId: number): D1Database =>
  new StoreDatabase(tenantStore(env, tenantId)).asD1();
