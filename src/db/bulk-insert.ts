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

/** The largest JSON parameter a bulk write binds (bytes of UTF-8), well under D1's 2 MB per string. */
export const MAX_PARAMETER_BYTES = 1_000_000;

/** The rows as JSON arrays, in order, each at most `maxBytes` (a single larger row stands alone). */
export function jsonGroups(rows: readonly unknown[], maxBytes: number): string[] {
  const encoder = new TextEncoder();
  const groups: string[][] = [[]];
  let size = 2;
  for (const row of rows) {
    const json = JSON.stringify(row);
    const bytes = encoder.encode(json).length + 1;
    if (groups.at(-1)!.length > 0 && size + bytes > maxBytes) {
      groups.push([]);
      size = 2;
    }
    groups.at(-1)!.push(json);
    size += bytes;
  }
  return groups.map((group) => `[${group.join(",")}]`);
}
