import { DurableObject } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { type DrizzleSqliteDODatabase, drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { quotedIdentifier as quoted } from "../../db/identifiers";
import type { StoredResponse } from "../../db/schema";
import type { Bindings } from "../../env";
import { transferableError } from "../../platform/errors";
import type { BeginOutcome, StoreRun } from "../../platform/idempotency/key-lock";
import type { IdempotentRequest } from "../../platform/idempotency/results";
import { RANGED_TABLES, rangeFloor } from "./id-ranges";
import { beginAttempt, committedOutcome, completeAttempt, releaseAttempt, settleAttempt } from "./idempotency-lock";
import { migrationKey, STATEMENT_BREAKPOINT, type TenantMigrations } from "./migration-files";
import { TENANT_MIGRATIONS } from "./migrations.generated";
import { tenantOfStoreName } from "./names";
import { type MatchingStore, matchChangedRecalls, matchNewUnits, publishExposure } from "./recall-matching";
import {
  type DirectoryChange,
  executeStatement,
  ID_CHECKSUM_MODULUS,
  type PublishedLines,
  type StoreResult,
  type StoreStatementData,
} from "./statements";
import { DIRECTORY_TABLES, keyCondition, type StoreTable, upsertStatement } from "./tables";

/**
 * A tenant store: the SQLite Durable Object that holds one tenant's own data (docs/architecture.md, "Tenant stores").
 * One object per tenant and one per sandbox twin, addressed by name (`tenantStoreName`). Its schema is
 * tenant-migrations/, applied by drizzle's durable-sqlite migrator when the object starts: after a deploy, an
 * object's first request waits for its migration, and no request ever sees an older schema.
 */
/** How long a published change may take through the queue to its projection before the sweep counts it as lost. */
const IN_FLIGHT_MS = 60_000;

/**
 * The statuses of a closed line (CLOSED_LINE_STATUSES, src/api/orders/lifecycle.ts; the same list as
 * tenant-migrations/0009's trigger, test/vendors/projection-retention.test.ts holds them together), as SQL.
 */
const CLOSED_STATUSES_SQL = "'Delivered', 'Cancelled', 'Rejected'";

/** A row of `vendor_line_changes` its vendor's projection keeps, with `?1` the sweep's cutoff: open, or changed since. */
const KEPT = "(closed = 0 OR changed_at >= ?1)";

export class TenantStore extends DurableObject<Bindings> {
  protected readonly db: DrizzleSqliteDODatabase;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.db = drizzle(ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      await this.migrate();
      this.raiseIdFloor();
    });
  }

  /**
   * New rows of the ranged tables take ids in this store's range (src/shared/tenants/id-ranges.ts): SQLite's
   * AUTOINCREMENT gives max(sqlite_sequence, max(id)) + 1, so the high-water mark is raised to the range's floor. A
   * store not named after a tenant (none is) keeps SQLite's own numbering.
   */
  private raiseIdFloor(): void {
    const tenantId = tenantOfStoreName(this.ctx.id.name);
    if (tenantId === null) return;
    const floor = rangeFloor(tenantId);
    this.ctx.storage.transactionSync(() => {
      for (const table of RANGED_TABLES) {
        this.ctx.storage.sql.exec(
          "INSERT INTO sqlite_sequence (name, seq) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)",
          table,
          floor,
        );
        this.ctx.storage.sql.exec("UPDATE sqlite_sequence SET seq = ?2 WHERE name = ?1 AND seq < ?2", table, floor);
      }
    });
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
   * `outbox: false` (a write that must not dispatch, as a test's emptying of a store) leaves the outbox unarmed.
   */
  execute(statements: StoreStatementData[], { outbox = true }: { outbox?: boolean } = {}): StoreResult[] {
    const run = () => statements.map((statement) => this.executeOne(statement));
    const results = statements.length === 1 ? run() : this.ctx.storage.transactionSync(run);
    if (outbox && results.some((result) => result.meta.rows_written > 0)) this.armOutbox();
    return results;
  }

  /**
   * The store's outbox (docs/tenant-stores.md): a write that leaves an event undispatched arms the alarm at once, in the
   * same output as the write, so no committed event waits for anything but the alarm (the API Worker's subclass
   * dispatches in `alarm()`, src/api/stores/tenant-store.ts).
   */
  private armOutbox(): void {
    if (this.outboxPending()) void this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * Whether an event waits for dispatch, a shipped unit for its recall check (src/shared/tenants/recall-matching.ts), or
   * (once publishing) a line change for its vendors.
   */
  protected outboxPending(): boolean {
    return (
      this.ctx.storage.sql
        .exec(
          "SELECT 1 FROM outbox_events WHERE dispatched_at IS NULL UNION ALL SELECT 1 FROM recall_unit_checks UNION ALL " +
            "SELECT 1 FROM vendor_line_changes WHERE revision > published_revision AND (SELECT publishing FROM vendor_projection) = 1 LIMIT 1",
        )
        .toArray().length > 0
    );
  }

  /** This store as recall matching reads and writes it, with the main database where the recalls are. */
  private matchingStore(): MatchingStore {
    return {
      sql: this.ctx.storage.sql,
      // Each page's events are dispatched as soon as it commits, whatever happens to the pages after it.
      transaction: (work) => {
        const result = this.ctx.storage.transactionSync(work);
        this.armOutbox();
        return result;
      },
      recalls: this.env.DB,
      tenantId: this.ownTenant(),
    };
  }

  /**
   * The units shipped since the last check matched against the open recalls (the alarm, after a shipment), then the
   * recalls changed since this store last matched (`changed`: a recall import's offer, the housekeeping cron): what
   * touches the tenant is written here with its events, and the counts per vendor published (docs/recalls.md).
   */
  async matchRecalls(options: { changed?: boolean } = {}): Promise<{ recalls: number; events: number }> {
    // One run at a time (the alarm, an import's offer, the cron): a run's D1 reads would otherwise interleave another's.
    const run = this.recallRun.then(() => this.matchRecallsNow(options));
    this.recallRun = run.catch(() => undefined);
    return run;
  }

  private recallRun: Promise<unknown> = Promise.resolve();

  private async matchRecallsNow({ changed = true }: { changed?: boolean }): Promise<{ recalls: number; events: number }> {
    const store = this.matchingStore();
    let events = 0;
    let recalls = 0;
    for (let more = true; more; ) {
      const run = await matchNewUnits(store);
      events += run.events;
      recalls += run.recalls;
      more = run.more;
    }
    if (changed) {
      const run = await matchChangedRecalls(store);
      events += run.events;
      recalls += run.recalls;
    }
    await publishExposure(store);
    return { recalls, events };
  }

  /** Whether shipped units wait for their recall check. */
  protected unitsToCheck(): boolean {
    return this.ctx.storage.sql.exec("SELECT 1 FROM recall_unit_checks LIMIT 1").toArray().length > 0;
  }

  /**
   * Starts publishing this store's lines to the vendors' projections (when its tenant is created; again from the
   * reconciliation sweep, which makes a creation whose call failed converge): every line of a live order is marked
   * changed once, then each write marks what it changes (tenant-migrations/0002). A second call changes nothing.
   */
  startPublishing(): { started: boolean } {
    const started = this.ctx.storage.transactionSync(() => {
      const { publishing } = this.ctx.storage.sql.exec<{ publishing: number }>("SELECT publishing FROM vendor_projection").one();
      if (publishing === 1) return false;
      this.ctx.storage.sql.exec("UPDATE vendor_projection SET publishing = 1, revision = revision + 1");
      this.ctx.storage.sql.exec(
        "INSERT INTO vendor_line_changes (line_id, vendor_id, revision, changed_at, closed) " +
          "SELECT l.id, l.vendor_id, (SELECT revision FROM vendor_projection), CAST(unixepoch('subsec') * 1000 AS INTEGER), " +
          `l.status_name IN (${CLOSED_STATUSES_SQL}) FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.tenant_id > 0 ` +
          "ON CONFLICT (line_id) DO UPDATE SET revision = excluded.revision, changed_at = excluded.changed_at, closed = excluded.closed",
      );
      return true;
    });
    this.armOutbox();
    return { started };
  }

  /**
   * Per vendor, what its projection should hold of this store once every change is published (the reconciliation
   * sweep compares it with the projection's own, VendorLines.held): the number of lines, the sum of their ids and of
   * their revisions, leaving out the closed lines last changed before `cutoff` (epoch ms, the sweep's: a projection
   * forgets them, src/api/vendors/projection/retention.ts). A vendor whose lines are all left out is still listed, with
   * none. A vendor with changes still to publish, or published within IN_FLIGHT_MS (maybe still in the queue), is marked
   * pending: it is left to the alarm and the queue.
   */
  publishedLines(cutoff: number): PublishedLines[] {
    return this.ctx.storage.sql
      .exec<{ vendorId: number; lines: number; ids: number; revisions: number; pending: number }>(
        `SELECT vendor_id AS vendorId, sum(${KEPT}) AS lines, sum(iif(${KEPT}, line_id % ${ID_CHECKSUM_MODULUS}, 0)) AS ids, ` +
          `sum(iif(${KEPT}, revision, 0)) AS revisions, max(revision > published_revision OR published_at > ?2) AS pending ` +
          "FROM vendor_line_changes GROUP BY vendor_id ORDER BY vendor_id",
        cutoff,
        Date.now() - IN_FLIGHT_MS,
      )
      .toArray()
      .map((row) => ({ ...row, pending: row.pending === 1 }));
  }

  /**
   * The ids of the vendor's lines this store has published or will, but the closed ones last changed before `cutoff`
   * (the sweep: what a projection may keep of it, as publishedLines counts them).
   */
  publishedLineIds(vendorId: number, cutoff: number): number[] {
    return this.ctx.storage.sql
      .exec<{ id: number }>(
        `SELECT line_id AS id FROM vendor_line_changes WHERE vendor_id = ?2 AND ${KEPT} ORDER BY line_id`,
        cutoff,
        vendorId,
      )
      .toArray()
      .map((row) => row.id);
  }

  /**
   * Sends the vendor's lines to its projection again (the sweep found the projection differs), but the closed ones last
   * changed before `cutoff`, which the projection no longer keeps.
   */
  republish(vendorId: number, cutoff: number): { lines: number } {
    this.ctx.storage.sql.exec(`UPDATE vendor_line_changes SET published_revision = 0 WHERE vendor_id = ?2 AND ${KEPT}`, cutoff, vendorId);
    const lines = this.ctx.storage.sql.exec<{ lines: number }>("SELECT changes() AS lines").one().lines;
    this.armOutbox();
    return { lines };
  }

  private executeOne(statement: StoreStatementData): StoreResult {
    return executeStatement(this.ctx.storage.sql, statement);
  }

  /** The idempotency lock of this store's keys (src/shared/tenants/idempotency-lock.ts): what an attempt does. */
  beginIdempotent(key: string, fingerprint: string): BeginOutcome {
    return this.ctx.storage.transactionSync(() => beginAttempt(this.ctx.storage.sql, this.ownTenant(), key, fingerprint));
  }

  /** The tenant this store belongs to (the negative id for a sandbox twin's), by its name. */
  protected ownTenant(): number {
    const tenantId = tenantOfStoreName(this.ctx.id.name);
    if (tenantId === null) throw new Error(`a tenant store's id has no tenant name (${this.ctx.id.name ?? "none"})`);
    return tenantId;
  }

  completeIdempotent(key: string, attemptId: string, response: StoredResponse): boolean {
    return completeAttempt(this.ctx.storage.sql, key, attemptId, response);
  }

  settleIdempotent(key: string, fingerprint: string, response: StoredResponse): boolean {
    return this.ctx.storage.transactionSync(() => settleAttempt(this.ctx.storage.sql, key, fingerprint, response));
  }

  releaseIdempotent(key: string, attemptId: string): boolean {
    return releaseAttempt(this.ctx.storage.sql, key, attemptId);
  }

  /**
   * A whole idempotent request in this one call (docs/tenant-stores.md, "Order creation"): the key's lock decides; if it
   * says proceed, `operation` runs (its write commits `response` as the key's result, as a D1 batch does); then the
   * attempt is completed with `response`, or released after a request error (4xx: nothing was written). Between the
   * decision and the record nothing but this store's own SQL runs, so no other request of the object comes between. An
   * unexpected error keeps the key marked processing: the Worker records the 5xx it answers.
   */
  protected async runLocked(request: IdempotentRequest, response: StoredResponse, operation: () => Promise<unknown>): Promise<StoreRun> {
    const key = request.key.toLowerCase();
    const decision = this.beginIdempotent(key, request.fingerprint);
    if (decision.outcome !== "proceed") return { decision };
    try {
      const value = await operation();
      completeAttempt(this.ctx.storage.sql, key, decision.attemptId, response);
      return { decision, ran: { value }, recorded: true };
    } catch (error) {
      const failure = transferableError(error);
      if (failure.kind === "unexpected" || (failure.kind === "problem" && failure.status >= 500)) {
        return { decision, ran: { failure }, recorded: false };
      }
      releaseAttempt(this.ctx.storage.sql, key, decision.attemptId);
      // Refused while another attempt of the key committed (one that ran beside it, its lock having lost its attempts):
      // the committed result is the answer, never the refusal (spec 8).
      const committed = committedOutcome(this.ctx.storage.sql, this.ownTenant(), key, request.fingerprint);
      if (committed) return { decision: committed };
      return { decision, ran: { failure }, recorded: true };
    }
  }

  /**
   * The directory rows the control database changed (its one writer; docs/tenant-stores.md, "The directory"), as it
   * holds them now, in one transaction: a change older than the version this store applied of its row is skipped (two
   * pushes that overlap); rows gone are deleted (children first), the others inserted or updated in place (parents
   * first), their unique text columns set aside first so that values two rows swapped never collide on the way. Changes
   * that reach lines a vendor sees (a ship-to address) are published as any write's.
   */
  applyDirectory(tenantId: number, changes: DirectoryChange[]): { applied: number; newestVersion: number } {
    this.requireDirectoryOf(tenantId);
    const unknown = changes.find((change) => !DIRECTORY_TABLES.some((table) => table.name === change.table));
    if (unknown) throw new Error(`not a directory table: ${unknown.table}`);
    const sql = this.ctx.storage.sql;
    const applied = this.ctx.storage.transactionSync(() => {
      const newer = changes.filter(
        (change) =>
          sql
            .exec(
              "SELECT 1 FROM directory_versions WHERE table_name = ? AND row_key = ? AND version >= ?",
              change.table,
              change.key,
              change.version,
            )
            .toArray().length === 0,
      );
      const of = (table: StoreTable, gone: boolean) =>
        newer.filter((change) => change.table === table.name && (change.row === null) === gone);
      for (const table of [...DIRECTORY_TABLES].reverse()) {
        for (const change of of(table, true))
          sql.exec(`DELETE FROM ${quoted(table.name)} WHERE ${keyCondition(table)}`, ...JSON.parse(change.key));
      }
      for (const table of DIRECTORY_TABLES) {
        const written = of(table, false);
        if (written.length === 0) continue;
        const columns = new Set(
          sql
            .exec<{ name: string }>("SELECT name FROM pragma_table_info(?)", table.name)
            .toArray()
            .map((c) => c.name),
        );
        for (const column of this.uniqueTextColumns(table.name)) {
          for (const change of written) {
            sql.exec(
              `UPDATE ${quoted(table.name)} SET ${quoted(column)} = char(1) || rowid WHERE ${keyCondition(table)}`,
              ...JSON.parse(change.key),
            );
          }
        }
        for (const change of written) {
          const row = change.row!;
          const names = Object.keys(row).filter((column) => columns.has(column));
          sql.exec(upsertStatement(table, names), ...names.map((column) => row[column] ?? null));
        }
      }
      for (const change of newer) {
        sql.exec(
          "INSERT INTO directory_versions (table_name, row_key, version) VALUES (?, ?, ?) " +
            "ON CONFLICT (table_name, row_key) DO UPDATE SET version = excluded.version",
          change.table,
          change.key,
          change.version,
        );
      }
      return newer.length;
    });
    this.armOutbox();
    const { newest } = this.ctx.storage.sql.exec<{ newest: number | null }>("SELECT max(version) AS newest FROM directory_versions").one();
    return { applied, newestVersion: newest ?? 0 };
  }

  /**
   * Forgets the versions of the directory rows this store applied: the control database's sequence is behind them (it
   * was restored from a backup), so its changes would all look older. The next push applies what it sends.
   */
  forgetDirectoryVersions(tenantId: number): void {
    this.requireDirectoryOf(tenantId);
    this.ctx.storage.sql.exec("DELETE FROM directory_versions");
  }

  /** Defence in depth: only tenant `tenantId`'s directory reaches its store and its twin's. */
  private requireDirectoryOf(tenantId: number): void {
    if (Math.abs(this.ownTenant()) !== tenantId) throw new Error(`directory changes of tenant ${tenantId} sent to another tenant's store`);
  }

  /** The text columns of a table that a unique index covers. */
  private uniqueTextColumns(table: string): string[] {
    return this.ctx.storage.sql
      .exec<{ name: string }>(
        "SELECT DISTINCT c.name FROM pragma_index_list(?1) i JOIN pragma_index_info(i.name) ii JOIN pragma_table_info(?1) c ON c.name = ii.name " +
          "WHERE i.[unique] = 1 AND i.origin != 'pk' AND upper(c.type) = 'TEXT'",
        table,
      )
      .toArray()
      .map((row) => row.name);
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
