import { quotedIdentifier as quoted } from "../../db/identifiers";
import { hexOf } from "../../platform/sha256";
import type { StoreResult } from "../../shared/tenants/statements";
import type { TenantStore } from "../../shared/tenants/store";
import { ownerInStore, STORE_ONLY_TABLES, STORE_TABLES, type StoreTable, upsertStatement } from "../../shared/tenants/tables";

/**
 * Copying a tenant's rows from the control database into its stores, and reading both sides back into the same digest
 * (docs/tenant-stores.md). A table is read in its key's order, a page at a time after the last key read, so a copy
 * can stop anywhere and go on from the last page it finished.
 */

type Value = SqlStorageValue;

/** Statements on a store for the move: the control database's rows as they are, so its outbox stays unarmed. */
const onStore = async (store: DurableObjectStub<TenantStore>, statements: { sql: string; params: Value[] }[]) =>
  (await store.execute(statements, { outbox: false })) as StoreResult[];

/** Empties every store table, children first: a move starts from nothing, so that a second move ends as the first. */
export const clearStore = (store: DurableObjectStub<TenantStore>) =>
  onStore(store, [
    // A store emptied for a new copy publishes nothing until its tenant's switch (tenant-migrations/0002).
    { sql: "UPDATE vendor_projection SET publishing = 0", params: [] },
    ...[...STORE_TABLES].reverse().map((table) => ({ sql: `DELETE FROM ${quoted(table.name)}`, params: [] })),
    // The store's own bookkeeping, but the one row of vendor_projection (above): it starts again with the switch.
    ...STORE_ONLY_TABLES.filter((table) => table !== "vendor_projection").map((table) => ({
      sql: `DELETE FROM ${quoted(table)}`,
      params: [],
    })),
  ]).then(() => undefined);

/** Rows per page: one D1 read, one store call. */
export const PAGE_ROWS = 500;
/** Pages per Workflow step: each step copies or checks up to this many pages, then records where it stopped. */
export const PAGES_PER_STEP = 20;

/** Where a copy (or a check) of one table of one store stands: rows so far, their digest, the last key read. */
export interface TableProgress {
  rows: number;
  /** SHA-256, hex, chained over the pages read so far ("" before the first page). */
  digest: string;
  after: Value[] | null;
  done: boolean;
}

export const NOT_STARTED: TableProgress = { rows: 0, digest: "", after: null, done: false };

/** The table's columns in the control database, in their order (the store has the same: test/tenants/store.test.ts). */
export async function columnsIn(db: D1Database, table: StoreTable): Promise<string[]> {
  const { results } = await db.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid").bind(table.name).all<{ name: string }>();
  return results.map((column) => column.name);
}

/** How many rows of the control database a store of `storeTenantId` gets of `table`. */
export async function rowsToCopy(db: D1Database, table: StoreTable, storeTenantId: number): Promise<number> {
  const count = await db
    .prepare(`SELECT count(*) AS n FROM ${quoted(table.name)} t WHERE ${table.owner} = ?1`)
    .bind(ownerInStore(table, storeTenantId))
    .first<number>("n");
  return count ?? 0;
}

async function databasePage(db: D1Database, table: StoreTable, columns: string[], storeTenantId: number, after: Value[] | null) {
  const key = table.key.map((column) => `t.${quoted(column)}`).join(", ");
  const from = after ? ` AND (${key}) > (${table.key.map((_, i) => `?${i + 2}`).join(", ")})` : "";
  const sql =
    `SELECT ${columns.map((column) => `t.${quoted(column)}`).join(", ")} FROM ${quoted(table.name)} t ` +
    `WHERE ${table.ownerKeyIndex ? table.owner : `+${table.owner}`} = ?1${from} ORDER BY ${key} LIMIT ${PAGE_ROWS}`;
  return db
    .prepare(sql)
    .bind(ownerInStore(table, storeTenantId), ...(after ?? []))
    .raw<Value[]>();
}

/** Up to PAGE_ROWS rows of the store's table after the key `after` (from the start when null), in key order. */
function storePage(table: StoreTable, columns: string[], after: Value[] | null) {
  const key = table.key.map(quoted).join(", ");
  const from = after ? `WHERE (${key}) > (${table.key.map(() => "?").join(", ")}) ` : "";
  return {
    sql: `SELECT ${columns.map(quoted).join(", ")} FROM ${quoted(table.name)} ${from}ORDER BY ${key} LIMIT ${PAGE_ROWS}`,
    params: after ?? [],
  };
}

async function chained(previous: string, rows: Value[][]): Promise<string> {
  const bytes = new TextEncoder().encode(previous + JSON.stringify(rows));
  return hexOf(await crypto.subtle.digest("SHA-256", bytes));
}

async function advance(progress: TableProgress, rows: Value[][], table: StoreTable, columns: string[]): Promise<TableProgress> {
  if (rows.length === 0) return { ...progress, done: true };
  const last = rows[rows.length - 1]!;
  return {
    rows: progress.rows + rows.length,
    digest: await chained(progress.digest, rows),
    after: table.key.map((column) => last[columns.indexOf(column)] ?? null),
    done: rows.length < PAGE_ROWS,
  };
}

/** Copies up to PAGES_PER_STEP pages of the table into the store; the digest is of the rows as the database had them. */
export async function copyPages(
  db: D1Database,
  store: DurableObjectStub<TenantStore>,
  table: StoreTable,
  columns: string[],
  storeTenantId: number,
  progress: TableProgress,
): Promise<TableProgress> {
  let current = progress;
  for (let page = 0; page < PAGES_PER_STEP && !current.done; page++) {
    const rows = await databasePage(db, table, columns, storeTenantId, current.after);
    if (rows.length > 0)
      await onStore(
        store,
        rows.map((row) => ({ sql: upsertStatement(table, columns), params: row })),
      );
    current = await advance(current, rows, table, columns);
  }
  return current;
}

/** Reads up to PAGES_PER_STEP pages of the table back from the store into the same kind of digest. */
export async function checkPages(
  store: DurableObjectStub<TenantStore>,
  table: StoreTable,
  columns: string[],
  progress: TableProgress,
): Promise<TableProgress> {
  let current = progress;
  for (let page = 0; page < PAGES_PER_STEP && !current.done; page++) {
    const [page] = await onStore(store, [storePage(table, columns, current.after)]);
    const rows = page!.rows;
    current = await advance(current, rows, table, columns);
  }
  return current;
}
