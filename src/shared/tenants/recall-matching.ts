import type { Scope } from "../recalls/code-info";
import { type DeliveredUnit, matchUnit } from "../recalls/match";
import {
  keysOfScope,
  openRecallsNaming,
  RECALL_COLUMNS,
  type StoredRecallRow,
  sandboxOwner,
  unitKeys,
  visibleTo,
} from "../recalls/records";

/**
 * Matching in a tenant store (docs/recalls.md, "Matching in the stores"), run by the store itself: the main database
 * holds the recalls, the store its delivered units, and no unit leaves the store. Two ways in:
 * - a recall changed (an import, a vendor's notice): the store asks the main database for the recalls changed since the
 *   revision it matched up to that name any of its units' keys (or that it already knows), and matches them against
 *   the units of those keys;
 * - a unit shipped: a trigger queues it (tenant-migrations/0011); the store gives it its keys, then matches it against
 *   the open recalls naming them.
 * The keys are written before the main database is read, so a recall written meanwhile is found by the first way if
 * the second missed it. Applying a match twice changes nothing and writes no second event.
 */

export interface MatchingStore {
  sql: SqlStorage;
  transaction<T>(work: () => T): T;
  /** The main database, where the recalls are. */
  recalls: D1Database;
  /** The store's tenant (negative for a sandbox twin). */
  tenantId: number;
}

export type RecallEventType = "recall.affects_you" | "recall.updated" | "recall.closed";

/** A delivered unit as a recall event and the buyer's routes name it. */
export interface RecallUnitView {
  unitId: number;
  deviceId: string;
  agency: string;
  lot: string | null;
  serial: string | null;
  expiry: string | null;
  units: number;
  orderNumber: string;
  lineId: number;
  partNumber: string;
  facilityId: number;
  outcome: "affected" | "needs_review" | "cleared";
  reason: string;
}

export const RECALL_PAGE = 200;
/** Units a recall event lists; the rest are read with GET /customer/api/recalls/{id}. */
export const UNITS_PER_EVENT = 100;
const CHECKS_PER_RUN = 500;

const sourceOf = (owner: string) => (owner === "fda" ? "fda" : owner.startsWith("vendor:") ? "vendor" : "sandbox");

type UnitRow = RecallUnitView & { vendorId: number };

/** A delivered unit's columns as RecallUnitView names them (an event's units are these, in this order), and their tables. */
const UNIT_COLUMNS =
  "su.id AS unitId, su.device_id AS deviceId, su.agency, su.lot, su.serial, su.expiry, su.units, o.order_number AS orderNumber, " +
  "l.id AS lineId, l.part_number AS partNumber, o.facility_id AS facilityId";
const UNITS = "shipped_units su JOIN order_lines l ON l.id = su.line_id JOIN orders o ON o.id = su.order_id";
const UNIT_SELECT = `SELECT ${UNIT_COLUMNS}, l.vendor_id AS vendorId FROM ${UNITS}`;

const deliveredUnit = (unit: UnitRow): DeliveredUnit => ({
  di: unit.deviceId,
  lot: unit.lot ?? undefined,
  serial: unit.serial ?? undefined,
  expiry: unit.expiry ?? undefined,
  catalog: unit.partNumber,
});

export interface MatchSummary {
  recalls: number;
  events: number;
}

const emptySummary = (): MatchSummary => ({ recalls: 0, events: 0 });

/** The store's units of the given keys (each once). */
function unitsOfKeys(sql: SqlStorage, keys: readonly string[]): UnitRow[] {
  return sql
    .exec<UnitRow & Record<string, SqlStorageValue>>(
      `${UNIT_SELECT} WHERE su.id IN (SELECT unit_id FROM recall_unit_keys WHERE key IN (SELECT value FROM json_each(?1)))`,
      JSON.stringify(keys),
    )
    .toArray() as UnitRow[];
}

function unitsByIds(sql: SqlStorage, ids: readonly number[]): UnitRow[] {
  return sql
    .exec<UnitRow & Record<string, SqlStorageValue>>(`${UNIT_SELECT} WHERE su.id IN (SELECT value FROM json_each(?1))`, JSON.stringify(ids))
    .toArray() as UnitRow[];
}

/**
 * Applies one recall's matches to `units` in the store (inside the caller's transaction), with its event when the
 * tenant learns something: `recall.affects_you` the first time the recall touches a unit, `recall.closed` when it is
 * terminated, `recall.updated` when its record changed or more units are touched. `complete` says `units` are all the
 * store's units of the recall (the recall changed), so one it touched before and not now is cleared.
 */
function applyRecall(
  store: MatchingStore,
  recall: StoredRecallRow,
  scope: Scope,
  units: UnitRow[],
  complete: boolean,
  now: string,
): RecallEventType | null {
  const { sql } = store;
  // A vendor's notice speaks for the units that vendor delivered, never for another vendor's.
  const own = recall.vendor_id === null ? units : units.filter((unit) => unit.vendorId === recall.vendor_id);
  const matches = own.map((unit) => ({ unit, match: matchUnit(scope, deliveredUnit(unit)) }));
  const touching = matches.filter(({ match }) => match.outcome !== "not_affected");
  const before = sql
    .exec<{ revision: number; status: string }>("SELECT revision, status FROM tenant_recalls WHERE recall_id = ?1", recall.id)
    .toArray()[0];
  if (!before && touching.length === 0) return null;
  // A run that read the recall before a newer revision was applied here (two runs of one store overlapping) is stale.
  if (before && recall.revision < before.revision) return null;
  const previous = new Map(
    sql
      .exec<{ unit_id: number; outcome: string }>("SELECT unit_id, outcome FROM recall_units WHERE recall_id = ?1", recall.id)
      .toArray()
      .map((row) => [row.unit_id, row.outcome]),
  );
  const fields = [
    recall.product_number,
    recall.classification,
    recall.status,
    recall.firm,
    recall.product_description,
    recall.reason,
    recall.code_info,
    recall.initiated_on,
    recall.classified_on,
    recall.terminated_on,
    recall.revision,
    now,
  ];
  sql.exec(
    "INSERT INTO tenant_recalls (recall_id, source, vendor_id, product_number, classification, status, firm, product_description, reason, " +
      "code_info, initiated_on, classified_on, terminated_on, revision, matched_at, updated_at) " +
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15) " +
      "ON CONFLICT (recall_id) DO UPDATE SET product_number = excluded.product_number, classification = excluded.classification, " +
      "status = excluded.status, firm = excluded.firm, product_description = excluded.product_description, reason = excluded.reason, " +
      "code_info = excluded.code_info, initiated_on = excluded.initiated_on, classified_on = excluded.classified_on, " +
      "terminated_on = excluded.terminated_on, revision = excluded.revision",
    recall.id,
    sourceOf(recall.owner),
    recall.vendor_id,
    ...fields,
  );
  let newlyTouched = 0;
  for (const { unit, match } of touching) {
    const was = previous.get(unit.unitId);
    if (was !== match.outcome) newlyTouched++;
    sql.exec(
      "INSERT INTO recall_units (recall_id, unit_id, outcome, reason, matched_at) VALUES (?1, ?2, ?3, ?4, ?5) " +
        "ON CONFLICT (recall_id, unit_id) DO UPDATE SET outcome = excluded.outcome, reason = excluded.reason",
      recall.id,
      unit.unitId,
      match.outcome,
      match.reason,
      now,
    );
  }
  if (complete) {
    const still = new Set(touching.map(({ unit }) => unit.unitId));
    for (const [unitId, outcome] of previous) {
      if (still.has(unitId) || outcome === "cleared") continue;
      const reason = `the recall was revised (revision ${recall.revision}): the unit is no longer within it`;
      sql.exec("UPDATE recall_units SET outcome = 'cleared', reason = ?3 WHERE recall_id = ?1 AND unit_id = ?2", recall.id, unitId, reason);
      newlyTouched++;
    }
  }
  sql.exec(
    "UPDATE tenant_recalls SET affected_units = (SELECT count(*) FROM recall_units WHERE recall_id = ?1 AND outcome = 'affected'), " +
      "review_units = (SELECT count(*) FROM recall_units WHERE recall_id = ?1 AND outcome = 'needs_review') WHERE recall_id = ?1",
    recall.id,
  );
  sql.exec("INSERT OR IGNORE INTO recall_exposure_pending (recall_id) VALUES (?1)", recall.id);
  // A recall already terminated when it first touches the tenant is recorded without an event (an import of history).
  const type: RecallEventType | null = !before
    ? recall.status === "terminated"
      ? null
      : "recall.affects_you"
    : before.status !== "terminated" && recall.status === "terminated"
      ? "recall.closed"
      : before.revision !== recall.revision || newlyTouched > 0
        ? "recall.updated"
        : null;
  if (type) {
    sql.exec("UPDATE tenant_recalls SET updated_at = ?2 WHERE recall_id = ?1", recall.id, now);
    writeRecallEvent(store, type, recall.id, now);
  }
  return type;
}

/** The recall as the tenant sees it, with its units (the first `unitLimit`). */
function recallView(sql: SqlStorage, recallId: number, unitLimit: number) {
  const row = sql.exec<Record<string, SqlStorageValue>>("SELECT * FROM tenant_recalls WHERE recall_id = ?1", recallId).one();
  const units = sql
    .exec<Record<string, SqlStorageValue>>(
      `SELECT ${UNIT_COLUMNS}, ru.outcome, ru.reason FROM ${UNITS} JOIN recall_units ru ON ru.unit_id = su.id ` +
        "WHERE ru.recall_id = ?1 AND ru.outcome != 'cleared' ORDER BY ru.outcome, su.id LIMIT ?2",
      recallId,
      unitLimit,
    )
    .toArray() as unknown as RecallUnitView[];
  return { row, units };
}

/** A recall event in the store's outbox: the recall as the tenant sees it now, with the first units it touches. */
function writeRecallEvent(store: MatchingStore, type: RecallEventType, recallId: number, now: string): void {
  const view = recallView(store.sql, recallId, UNITS_PER_EVENT);
  const r = view.row;
  const payload = {
    recallId,
    productNumber: r.product_number,
    source: r.source,
    classification: r.classification,
    status: r.status,
    firm: r.firm,
    productDescription: r.product_description,
    reason: r.reason,
    initiatedOn: r.initiated_on,
    terminatedOn: r.terminated_on,
    affectedUnits: r.affected_units,
    reviewUnits: r.review_units,
    units: view.units,
  };
  store.sql.exec(
    "INSERT INTO outbox_events (id, type, tenant_id, aggregate_id, payload, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    crypto.randomUUID(),
    type,
    store.tenantId,
    String(recallId),
    JSON.stringify(payload),
    now,
  );
}

/** The recalls changed since the store's revision that name its units' keys or that it knows, a page at a time. */
export async function matchChangedRecalls(store: MatchingStore, now = new Date()): Promise<MatchSummary> {
  const summary = emptySummary();
  // The store's keys and the recalls it knows, read once: a run is the store's only one (TenantStore.matchRecalls), and
  // the recalls its pages add have revisions below the next page's.
  const keys = JSON.stringify(
    store.sql
      .exec<{ key: string }>("SELECT DISTINCT key FROM recall_unit_keys")
      .toArray()
      .map((row) => row.key),
  );
  const known = JSON.stringify(
    store.sql
      .exec<{ id: number }>("SELECT recall_id AS id FROM tenant_recalls")
      .toArray()
      .map((row) => row.id),
  );
  for (;;) {
    const { revision } = store.sql.exec<{ revision: number }>("SELECT revision FROM recall_progress").one();
    const [page, top] = await store.recalls.batch([
      store.recalls
        .prepare(
          `SELECT ${RECALL_COLUMNS} FROM recalls r WHERE r.revision > ?1 AND ${visibleTo("?2")} AND r.id IN (` +
            "SELECT k.recall_id FROM json_each(?3) j JOIN recall_keys k ON k.key = j.value UNION SELECT value FROM json_each(?4)) " +
            "ORDER BY r.revision LIMIT ?5",
        )
        .bind(revision, sandboxOwner(store.tenantId), keys, known, RECALL_PAGE),
      store.recalls.prepare("SELECT coalesce(max(revision), 0) AS top FROM recalls"),
    ]);
    const recalls = page!.results as StoredRecallRow[];
    const reached = recalls.length === RECALL_PAGE ? recalls.at(-1)!.revision : (top!.results[0] as { top: number }).top;
    const at = now.toISOString();
    store.transaction(() => {
      for (const recall of recalls) {
        const scope = JSON.parse(recall.scope) as Scope;
        const type = applyRecall(store, recall, scope, unitsOfKeys(store.sql, keysOfScope(scope)), true, at);
        summary.recalls++;
        if (type) summary.events++;
      }
      store.sql.exec("UPDATE recall_progress SET revision = max(revision, ?1)", reached);
    });
    if (recalls.length < RECALL_PAGE) return summary;
  }
}

/**
 * The units shipped since the last run (recall_unit_checks), up to CHECKS_PER_RUN: their keys written, then matched
 * against the open recalls that name them. Whether more wait.
 */
export async function matchNewUnits(store: MatchingStore, now = new Date()): Promise<MatchSummary & { more: boolean }> {
  const summary = emptySummary();
  const ids = store.sql
    .exec<{ unit_id: number }>("SELECT unit_id FROM recall_unit_checks ORDER BY unit_id LIMIT ?1", CHECKS_PER_RUN + 1)
    .toArray()
    .map((row) => row.unit_id);
  if (ids.length === 0) return { ...summary, more: false };
  const batch = ids.slice(0, CHECKS_PER_RUN);
  const units = unitsByIds(store.sql, batch).map((unit) => ({ ...unit, keys: unitKeys(unit.deviceId, unit.partNumber) }));
  store.transaction(() => {
    for (const unit of units) {
      for (const key of unit.keys)
        store.sql.exec("INSERT OR IGNORE INTO recall_unit_keys (key, unit_id) VALUES (?1, ?2)", key, unit.unitId);
    }
  });
  const keys = [...new Set(units.flatMap((unit) => unit.keys))];
  const results = await openRecallsNaming(store.recalls, keys, store.tenantId, { vendorNotices: true });
  const at = now.toISOString();
  store.transaction(() => {
    for (const recall of results) {
      const scope = JSON.parse(recall.scope) as Scope;
      const named = new Set(keysOfScope(scope));
      const candidates = units.filter((unit) => unit.keys.some((key) => named.has(key)));
      const type = applyRecall(store, recall, scope, candidates, false, at);
      summary.recalls++;
      if (type) summary.events++;
    }
    store.sql.exec("DELETE FROM recall_unit_checks WHERE unit_id IN (SELECT value FROM json_each(?1))", JSON.stringify(batch));
  });
  return { ...summary, more: ids.length > CHECKS_PER_RUN };
}

/**
 * The store's counts per vendor of the units (affected, to review) of the recalls whose counts changed here
 * (recall_exposure_pending), written to the main database (recall_exposure): what a vendor's GET /vendor/api/recalls
 * sums. Absolute counts, so writing them again is harmless; a recall leaves the pending list only once published.
 */
export async function publishExposure(store: MatchingStore, now = new Date()): Promise<void> {
  for (;;) {
    const recallIds = store.sql
      .exec<{ recall_id: number }>("SELECT recall_id FROM recall_exposure_pending ORDER BY recall_id LIMIT 500")
      .toArray()
      .map((row) => row.recall_id);
    if (recallIds.length === 0) return;
    const ids = JSON.stringify(recallIds);
    const counts = store.sql
      .exec<{ recallId: number; vendorId: number; affected: number; review: number }>(
        "SELECT ru.recall_id AS recallId, l.vendor_id AS vendorId, sum(ru.outcome = 'affected') AS affected, " +
          "sum(ru.outcome = 'needs_review') AS review FROM recall_units ru JOIN shipped_units su ON su.id = ru.unit_id " +
          "JOIN order_lines l ON l.id = su.line_id WHERE ru.recall_id IN (SELECT value FROM json_each(?1)) GROUP BY ru.recall_id, l.vendor_id",
        ids,
      )
      .toArray();
    await store.recalls.batch([
      store.recalls
        .prepare("DELETE FROM recall_exposure WHERE store_tenant_id = ?1 AND recall_id IN (SELECT value FROM json_each(?2))")
        .bind(store.tenantId, ids),
      store.recalls
        .prepare(
          "INSERT INTO recall_exposure (recall_id, store_tenant_id, vendor_id, affected_units, review_units, updated_at) " +
            "SELECT value ->> '$.recallId', ?1, value ->> '$.vendorId', value ->> '$.affected', value ->> '$.review', ?3 " +
            "FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
        )
        .bind(store.tenantId, JSON.stringify(counts), now.toISOString()),
    ]);
    store.sql.exec("DELETE FROM recall_exposure_pending WHERE recall_id IN (SELECT value FROM json_each(?1))", ids);
  }
}
