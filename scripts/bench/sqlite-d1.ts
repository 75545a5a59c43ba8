import { readFileSync } from "node:fs";
import type { DatabaseSync, SQLInputValue } from "node:sqlite";

/**
 * D1's statement API over a plain SQLite file (node:sqlite), for measuring our SQL without D1
 * (`npm run bench:import-floor`): prepare, bind, first, all, run, raw and batch (one transaction), as the import's
 * code calls them. The time of each unit D1 runs at once (a statement, or a batch with its commit, where FTS5 writes
 * its segment) goes to `timing` under the label `label()` gives when it starts: what a query on the same database
 * waits for behind it.
 */
export interface StatementTimes {
  label: () => string;
  byLabel: Map<string, number[]>;
  /** The process's peak resident memory (VmHWM, MiB) after the label's last unit. */
  peakMiB: Map<string, number>;
}

/** This process's peak resident memory so far (MiB), from /proc (Linux). */
export const peakResidentMiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;

export function sqliteAsD1(db: DatabaseSync, timing: StatementTimes): D1Database {
  const changes = db.prepare("SELECT changes() AS changes, last_insert_rowid() AS id");
  const timed = <T>(unit: () => T): T => {
    const label = timing.label();
    const started = performance.now();
    const result = unit();
    const times = timing.byLabel.get(label) ?? [];
    times.push(performance.now() - started);
    timing.byLabel.set(label, times);
    timing.peakMiB.set(label, peakResidentMiB());
    return result;
  };
  const execute = (sql: string, values: unknown[]) => {
    const statement = db.prepare(sql);
    const rows = statement.all(...values.map(asSqlite)) as Record<string, unknown>[];
    const written = changes.get() as { changes: number; id: number };
    const columns = statement.columns().map((column) => column.name);
    return { rows, columns, changes: written.changes, lastRowId: written.id };
  };
  const result = (run: ReturnType<typeof execute>) => ({
    results: run.rows,
    success: true,
    meta: { changes: run.changes, last_row_id: run.lastRowId, duration: 0, rows_read: 0, rows_written: run.changes },
  });

  class Statement {
    constructor(
      readonly sql: string,
      readonly values: unknown[] = [],
    ) {}
    bind(...values: unknown[]) {
      return new Statement(this.sql, values);
    }
    async first(column?: string) {
      const row = timed(() => execute(this.sql, this.values)).rows[0] ?? null;
      return column && row ? row[column] : row;
    }
    async all() {
      return result(timed(() => execute(this.sql, this.values)));
    }
    async run() {
      return result(timed(() => execute(this.sql, this.values)));
    }
    async raw() {
      const run = timed(() => execute(this.sql, this.values));
      return run.rows.map((row) => run.columns.map((name) => row[name]));
    }
  }

  return {
    prepare: (sql: string) => new Statement(sql),
    async batch(statements: Statement[]) {
      return timed(() => {
        db.exec("BEGIN");
        try {
          const results = statements.map((s) => result(execute(s.sql, s.values)));
          db.exec("COMMIT");
          return results;
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
      });
    },
  } as unknown as D1Database;
}

function asSqlite(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value as SQLInputValue;
}
