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
