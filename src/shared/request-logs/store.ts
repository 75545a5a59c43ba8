import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../../env";
import { executeStatement, type StoreResult, type StoreStatementData } from "../tenants/statements";
import type { RequestLogEntry } from "./table";

/**
 * The log's table (./table.ts is its drizzle twin, for the searches), made by the object when it starts: a log has one
 * schema, no migrations yet. Here rather than beside the drizzle table: the Worker's start loads this class, not drizzle.
 */
const REQUEST_LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS request_logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  client_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  query TEXT,
  status INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL,
  correlation_id TEXT NOT NULL,
  idempotency_key TEXT,
  api_version TEXT,
  error_type TEXT,
  problem TEXT,
  request_body TEXT,
  response_body TEXT,
  truncated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS request_logs_at ON request_logs (at);
`;

/** Rows a log keeps at most, newest first, whatever their age (docs/architecture.md, "Request logs"). */
export const MAX_LOGGED_REQUESTS = 100_000;
/** Rows deleted per statement by a purge, and statements per purge: one purge never holds the object long. */
const PURGE_BATCH = 1_000;
const PURGE_MAX_BATCHES = 50;

const INSERT = `INSERT INTO request_logs (at, client_id, mode, method, path, query, status, latency_ms, correlation_id,
  idempotency_key, api_version, error_type, problem, request_body, response_body, truncated)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * The request log of one owner: a buyer tenant's live data or its sandbox twin, or a vendor (./owners.ts). A SQLite
 * Durable Object of its own, not the tenant store: every API request writes a row, which would double the writes on
 * the store's single thread that places orders, and a vendor has no store. Its rows are diagnostics for the owner's
 * integrators: a lost row loses no business data.
 */
export class RequestLog extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.storage.sql.exec(REQUEST_LOG_SCHEMA);
  }

  record(entry: RequestLogEntry): void {
    this.ctx.storage.sql.exec(
      INSERT,
      entry.at,
      entry.clientId,
      entry.mode,
      entry.method,
      entry.path,
      entry.query,
      entry.status,
      entry.latencyMs,
      entry.correlationId,
      entry.idempotencyKey,
      entry.apiVersion,
      entry.errorType,
      entry.problem,
      entry.requestBody,
      entry.responseBody,
      entry.truncated ? 1 : 0,
    );
  }

  /** Reads of the log's searches (D1-style statements, src/shared/tenants/store-database.ts), in one transaction. */
  execute(statements: StoreStatementData[]): StoreResult[] {
    return this.ctx.storage.transactionSync(() => statements.map((statement) => executeStatement(this.ctx.storage.sql, statement)));
  }

  /**
   * The housekeeping cron's purge: rows older than `retentionDays` at `now`, then the oldest beyond MAX_LOGGED_REQUESTS,
   * in bounded batches (what one run leaves, the next takes). Returns how many rows went.
   */
  purge(now: number, retentionDays: number): number {
    const cutoff = new Date(now - retentionDays * 86_400_000).toISOString();
    const sql = this.ctx.storage.sql;
    const newest = sql.exec<{ newest: number | null }>("SELECT max(id) AS newest FROM request_logs").one().newest ?? 0;
    const keepFrom = newest - MAX_LOGGED_REQUESTS;
    let purged = 0;
    for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
      sql.exec(
        "DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE at < ? OR id <= ? ORDER BY id LIMIT ?)",
        cutoff,
        keepFrom,
        PURGE_BATCH,
      );
      const deleted = sql.exec<{ deleted: number }>("SELECT changes() AS deleted").one().deleted;
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
    }
    return purged;
  }
}
