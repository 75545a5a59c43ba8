/** What a tenant store and its D1-style callers (store-database.ts) exchange. */

export type StoreValue = string | number | null | ArrayBuffer;

export interface StoreStatementData {
  sql: string;
  params: StoreValue[];
}

/** One statement's answer, in D1's shape. */
export interface StoreResult {
  results: Record<string, StoreValue>[];
  /** The rows as arrays and the column names, for raw(). */
  columns: string[];
  rows: StoreValue[][];
  meta: { changes: number; last_row_id: number; rows_read: number; rows_written: number };
}

/** What a vendor's projection should hold of one store (TenantStore.publishedLines): compared by the reconciliation sweep. */
export interface PublishedLines {
  vendorId: number;
  lines: number;
  /** The sum of the lines' ids, each modulo ID_CHECKSUM_MODULUS. */
  ids: number;
  /** The sum of the lines' latest revisions. */
  revisions: number;
  /** Changes of the vendor's lines still to publish. */
  pending: boolean;
}

/** Line ids are summed modulo this, so that a vendor's millions of lines cannot overflow SQLite's integers. */
export const ID_CHECKSUM_MODULUS = 1_000_003;

/**
 * A row of a tenant's directory as the control database holds it now, `row` null when it is gone: what the operator
 * plane pushes to the tenant's stores (TenantStore.applyDirectory; docs/tenant-stores.md, "The directory").
 */
export interface DirectoryChange {
  table: string;
  /** The row's primary key as a JSON array, in the order of the table's key columns. */
  key: string;
  /** The write's version (migrations/0030): a store skips a change older than the one it applied. */
  version: number;
  row: Record<string, StoreValue> | null;
}

/** Runs one D1-style statement on a SQLite Durable Object's storage, answered in D1's shape (StoreResult). */
export function executeStatement(storage: SqlStorage, { sql, params }: StoreStatementData): StoreResult {
  const cursor = storage.exec(sql, ...params);
  const rows = [...cursor.raw()] as StoreValue[][];
  const columns = cursor.columnNames;
  const results = rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i] ?? null])));
  // What a write changed, asked only after a write: most statements of a request are reads.
  const { changes, id } =
    cursor.rowsWritten > 0
      ? storage.exec<{ changes: number; id: number }>("SELECT changes() AS changes, last_insert_rowid() AS id").one()
      : { changes: 0, id: 0 };
  return { results, columns, rows, meta: { changes, last_row_id: id, rows_read: cursor.rowsRead, rows_written: cursor.rowsWritten } };
}
