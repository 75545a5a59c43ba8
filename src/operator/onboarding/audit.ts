/**
 * The audit log (migrations/0018; docs/api.md "Onboarding"): every change made through the operator's admin API, with
 * who made it (the client id), what (an action on a target), when, and the target before and after. An entry commits
 * in the same D1 batch as its change, right after it, and only when the change wrote a row (`changes()`): nothing is
 * audited that did not happen, and nothing happens unaudited. Entries are kept AUDIT_RETENTION_DAYS days.
 */

export const AUDIT_RETENTION_DAYS = 400;

export interface AuditEntry {
  actor: string;
  action: string;
  targetType: string;
  /** The target's id; `null` for a row the change just inserted (its rowid, last_insert_rowid()). */
  targetId: string | null;
  before: unknown;
  after: unknown;
}

/** The entry's insert, to follow its change in one batch: written only when that change wrote a row. */
export function auditStatement(db: D1Database, entry: AuditEntry, at: string): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO audit_log (at, actor, action, target_type, target_id, before, after) " +
        "SELECT ?1, ?2, ?3, ?4, coalesce(?5, CAST(last_insert_rowid() AS TEXT)), ?6, ?7 WHERE changes() > 0",
    )
    .bind(
      at,
      entry.actor,
      entry.action,
      entry.targetType,
      entry.targetId,
      entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === null ? null : JSON.stringify(entry.after),
    );
}

interface AuditRow {
  id: number;
  at: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
}

/** A page of entries, newest first; `before` is the id of the last entry of the previous page. */
export async function auditPage(db: D1Database, limit: number, beforeId: number | undefined, targetId: string | undefined) {
  const { results } = await db
    .prepare("SELECT * FROM audit_log WHERE (?1 IS NULL OR id < ?1) AND (?2 IS NULL OR target_id = ?2) ORDER BY id DESC LIMIT ?3")
    .bind(beforeId ?? null, targetId ?? null, limit + 1)
    .all<AuditRow>();
  const entries = results.slice(0, limit).map((row) => ({
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  }));
  return { entries, nextBefore: results.length > limit ? entries.at(-1)!.id : null };
}

/** Removes entries past the retention (housekeeping), a bounded slice per run; returns how many went. */
export async function purgeAudit(db: D1Database, now: Date, limit = 5000): Promise<number> {
  const cutoff = new Date(now.getTime() - AUDIT_RETENTION_DAYS * 86_400_000).toISOString();
  const result = await db
    .prepare("DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? ORDER BY at LIMIT ?)")
    .bind(cutoff, limit)
    .run();
  return result.meta.changes;
}
