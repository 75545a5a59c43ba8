import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import type { Bindings } from "../../../env";
import { percentile } from "../../../platform/percentile";
import { ID_CHECKSUM_MODULUS } from "../../../shared/tenants/statements";
import type { HeldLines, LineChange, ListQuery, ProjectionPage, ProjectionQuery } from "./messages";
import { CLOSED_ROW, closesLine, removalCutoff, removalDelayMs } from "./retention";
import { ATTENTION_COLUMNS, VENDOR_PROJECTION_MIGRATIONS } from "./schema";

/** Applies the migrations the projection lacks (schema.ts): when the object starts. */
export const migrateVendorLines = (storage: DurableObjectStorage) => migrate(drizzle(storage), VENDOR_PROJECTION_MIGRATIONS);

/** A statement and its bindings, as `sql.exec` takes them. */
type Statement = [sql: string, ...bindings: SqlStorageValue[]];

/** Closed lines past the list's retention deleted per transaction: one per alarm, the next alarm armed at once. */
export const PURGE_LIMIT = 500;
/**
 * The shortest wait between two purges that find nothing more to delete: closed lines leave the list within this
 * after they are due (retention.ts), in batches rather than one alarm per line.
 */
export const PURGE_INTERVAL_MS = 3_600_000;

const KEY_COLUMNS = "line_id AS lineId, order_date AS orderDate";
const IN_STATUSES = "status_name IN (SELECT value FROM json_each(?1))";
const LIST_ORDER = "ORDER BY order_date, line_id";

/**
 * A page's two statements (`query`), each in time independent of the shard's size: a page of given statuses walks
 * `vendor_lines_listed` and its total sums `vendor_line_counts` (at most a row per status); a page of one order finds
 * its lines by `vendor_lines_order` (`+status_name` only checks the status: SQLite never takes the status index for it)
 * and counts them.
 */
export function pageStatements(query: ListQuery, columns: string = KEY_COLUMNS): { lines: Statement; total: Statement } {
  if (query.attention !== undefined) {
    // Its partial index (schema.ts) walks the list; its total is one row of vendor_attention_counts.
    const column = ATTENTION_COLUMNS.find(([attention]) => attention === query.attention)![1];
    return {
      lines: [
        `SELECT ${columns} FROM vendor_lines WHERE deleted = 0 AND ${column} > 0 ${LIST_ORDER} LIMIT ?1 OFFSET ?2`,
        query.limit,
        query.offset,
      ],
      total: ["SELECT coalesce(sum(lines), 0) AS total FROM vendor_attention_counts WHERE attention = ?1", query.attention],
    };
  }
  const statuses = JSON.stringify(query.statuses);
  if (query.where) {
    // A q query: its condition beside the statuses (and order), with anonymous placeholders as the compiler writes
    // them; its total counts the matching lines (the shard's lines of those statuses, walked once).
    const ofOrder = query.orderNumber === undefined ? "" : "AND order_number = ?";
    const from = `FROM vendor_lines WHERE deleted = 0 AND status_name IN (SELECT value FROM json_each(?)) ${ofOrder} AND (${query.where.sql})`;
    const bindings = [statuses, ...(query.orderNumber === undefined ? [] : [query.orderNumber]), ...query.where.params];
    return {
      lines: [`SELECT ${columns} ${from} ${LIST_ORDER} LIMIT ? OFFSET ?`, ...bindings, query.limit, query.offset],
      total: [`SELECT count(*) AS total ${from}`, ...bindings],
    };
  }
  if (query.orderNumber === undefined) {
    return {
      lines: [
        `SELECT ${columns} FROM vendor_lines WHERE deleted = 0 AND ${IN_STATUSES} ${LIST_ORDER} LIMIT ?2 OFFSET ?3`,
        statuses,
        query.limit,
        query.offset,
      ],
      total: [`SELECT coalesce(sum(lines), 0) AS total FROM vendor_line_counts WHERE ${IN_STATUSES}`, statuses],
    };
  }
  const ofOrder = `WHERE deleted = 0 AND order_number = ?2 AND +${IN_STATUSES}`;
  return {
    lines: [
      `SELECT ${columns} FROM vendor_lines ${ofOrder} ${LIST_ORDER} LIMIT ?3 OFFSET ?4`,
      statuses,
      query.orderNumber,
      query.limit,
      query.offset,
    ],
    total: [`SELECT count(*) AS total FROM vendor_lines ${ofOrder}`, statuses, query.orderNumber],
  };
}

/**
 * A shard of a vendor's projection (docs/tenant-stores.md, "Vendors' lines"): the order lines that this vendor fulfils
 * for the tenants of this shard (stub.ts), as the vendor reads them, one SQLite Durable Object per vendor and shard. The
 * tenant stores are the single writers of their lines; this object only keeps the newest revision of each that reached
 * it, through the queue or again at the reconciliation sweep's request.
 */
export class VendorLines extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(() => migrateVendorLines(ctx.storage));
  }

  /**
   * Keeps each change newer than (or as new as) what the projection holds: repeats and late messages change nothing. A
   * change that closes its line and is older than the retention's removal cutoff (retention.ts) is not kept, and takes
   * an older revision of its line with it: a late message, or a store sending its lines again, cannot bring back a
   * line the purge removed. A write arms the purge's alarm when none is set.
   */
  async apply(tenantId: number, changes: readonly LineChange[]): Promise<{ applied: number }> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const removedBefore = removalCutoff(this.env, now);
    let applied = 0;
    this.ctx.storage.transactionSync(() => {
      for (const change of changes) {
        const { lineId, revision, changedAt, line } = change;
        if (changedAt < removedBefore && closesLine(change)) {
          sql.exec("DELETE FROM vendor_lines WHERE line_id = ? AND revision <= ?", lineId, revision);
          continue;
        }
        sql.exec(
          "INSERT INTO vendor_lines (line_id, tenant_id, revision, deleted, changed_at, applied_at, order_date, order_number, status_name, line, " +
            "returns_to_receive, invoices_in_exception) " +
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (line_id) DO UPDATE SET tenant_id = excluded.tenant_id, " +
            "revision = excluded.revision, deleted = excluded.deleted, changed_at = excluded.changed_at, applied_at = excluded.applied_at, " +
            "order_date = excluded.order_date, order_number = excluded.order_number, status_name = excluded.status_name, line = excluded.line, " +
            "returns_to_receive = excluded.returns_to_receive, invoices_in_exception = excluded.invoices_in_exception " +
            "WHERE excluded.revision >= vendor_lines.revision",
          lineId,
          tenantId,
          revision,
          line === null ? 1 : 0,
          changedAt,
          now,
          line?.orderDate ?? "",
          line?.orderNumber ?? "",
          line?.statusName ?? "",
          line === null ? "null" : JSON.stringify(line),
          // A line published before the counts existed has none: nothing waits on it that the counts know of.
          line?.returnsToReceive ?? 0,
          line?.invoicesInException ?? 0,
        );
        applied += sql.exec<{ changed: number }>("SELECT changes() AS changed").one().changed;
      }
    });
    if (applied > 0 && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + PURGE_INTERVAL_MS);
    return { applied };
  }

  /**
   * The purge (docs/tenant-stores.md, "Vendors' lines"): deletes up to PURGE_LIMIT closed lines and tombstones older
   * than the removal cutoff, in one transaction (the counts' triggers uncount the live ones), then arms the next alarm:
   * at once while more remain, else when the oldest closed line left is due (PURGE_INTERVAL_MS at the soonest), else
   * none (the next write arms it).
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const { more, oldest } = this.purgeClosed(removalCutoff(this.env, now));
    if (more) return void (await this.ctx.storage.setAlarm(now));
    if (oldest !== null) await this.ctx.storage.setAlarm(Math.max(oldest + removalDelayMs(this.env), now + PURGE_INTERVAL_MS));
  }

  /** Deletes up to PURGE_LIMIT closed lines last changed before `cutoff`: whether more remain, and the oldest change left. */
  private purgeClosed(cutoff: number): { more: boolean; oldest: number | null } {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() =>
      sql.exec(
        `DELETE FROM vendor_lines WHERE line_id IN (SELECT line_id FROM vendor_lines WHERE ${CLOSED_ROW} AND changed_at < ? LIMIT ?)`,
        cutoff,
        PURGE_LIMIT,
      ),
    );
    const { oldest } = sql.exec<{ oldest: number | null }>(`SELECT min(changed_at) AS oldest FROM vendor_lines WHERE ${CLOSED_ROW}`).one();
    return { more: oldest !== null && oldest < cutoff, oldest };
  }

  /** A page of this shard's lines (or only their keys, or the given lines), sorted as the vendor's list is. */
  query(query: ProjectionQuery): ProjectionPage {
    const sql = this.ctx.storage.sql;
    if ("lineIds" in query) {
      const rows = sql
        .exec<{ lineId: number; orderDate: string; line: string }>(
          "SELECT line_id AS lineId, order_date AS orderDate, line FROM vendor_lines " +
            "WHERE deleted = 0 AND line_id IN (SELECT value FROM json_each(?)) ORDER BY order_date, line_id",
          JSON.stringify(query.lineIds),
        )
        .toArray();
      return { rows, total: 0 };
    }
    const statements = pageStatements(query, query.keysOnly ? KEY_COLUMNS : `${KEY_COLUMNS}, line`);
    const rows = sql.exec<{ lineId: number; orderDate: string; line?: string }>(...statements.lines).toArray();
    const { total } = sql.exec<{ total: number }>(...statements.total).one();
    return { rows, total };
  }

  /**
   * What the projection holds of one tenant's store, as TenantStore.publishedLines counts it with the same `cutoff`
   * (the sweep's, retention.ts): every line but the closed ones last changed before it.
   */
  held(tenantId: number, cutoff: number): HeldLines {
    return this.ctx.storage.sql
      .exec<{ lines: number; ids: number | null; revisions: number | null }>(
        `SELECT count(*) AS lines, sum(line_id % ${ID_CHECKSUM_MODULUS}) AS ids, sum(revision) AS revisions FROM vendor_lines ` +
          `WHERE tenant_id = ? AND NOT (${CLOSED_ROW} AND changed_at < ?)`,
        tenantId,
        cutoff,
      )
      .toArray()
      .map(({ lines, ids, revisions }) => ({ lines, ids: ids ?? 0, revisions: revisions ?? 0 }))[0]!;
  }

  /** Forgets the lines of the tenant's store that it no longer has (the sweep found more here than the store publishes). */
  retain(tenantId: number, lineIds: readonly number[]): { removed: number } {
    this.ctx.storage.sql.exec(
      "DELETE FROM vendor_lines WHERE tenant_id = ? AND line_id NOT IN (SELECT value FROM json_each(?))",
      tenantId,
      JSON.stringify(lineIds),
    );
    return { removed: this.ctx.storage.sql.exec<{ removed: number }>("SELECT changes() AS removed").one().removed };
  }

  /** How long the last changes took from their store's write to this projection (ms): p50, p99 and the worst. */
  lag(last = 1000): { samples: number; p50: number; p99: number; max: number } {
    const lags = this.ctx.storage.sql
      .exec<{ lag: number }>(
        "SELECT lag FROM (SELECT applied_at - changed_at AS lag FROM vendor_lines ORDER BY applied_at DESC LIMIT ?) ORDER BY lag",
        last,
      )
      .toArray()
      .map((row) => row.lag);
    return { samples: lags.length, p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags.at(-1) ?? 0 };
  }
}
