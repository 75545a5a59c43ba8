/**
 * Inserts many rows with one bound parameter per statement: the rows travel as a JSON array and
 * SQLite unpacks them with json_each. Table and column names come from code, never from input.
 * Existing rows (same primary key) are left alone, so seeding can be re-run.
 */
/** The slice of D1Database the seed needs; satisfied by the Worker binding and by wrangler's platform proxy. */
export interface SeedDatabase<S = unknown> {
  prepare(query: string): { bind(...values: unknown[]): S };
  batch(statements: S[]): Promise<unknown>;
}

export function bulkInsertStatement<S>(
  d1: SeedDatabase<S>,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
): S {
  const extract = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
  const sql = `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) SELECT ${extract} FROM json_each(?1)`;
  return d1.prepare(sql).bind(JSON.stringify(rows));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
