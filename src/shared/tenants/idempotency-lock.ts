import type { StoredResponse } from "../../db/schema";
import { type BeginOutcome, PROCESSING_TIMEOUT_MS } from "../../platform/idempotency/key-lock";
import { RESULT_TTL_MS } from "../../platform/idempotency/results";

/**
 * The per-key lock of spec 8 inside a tenant store (tenant-migrations/0003; docs/tenant-stores.md, "Idempotency"): the
 * decisions of src/platform/idempotency/key-lock.ts, made in the store that also holds the results committed with the
 * tenant's writes, so a committed result answers first. Every function runs in one
 * synchronous transaction of the store: two attempts of a key can never both proceed.
 */

/** Expired rows each call clears, so the store needs no sweep of its own for them. */
const PURGE_PER_CALL = 20;

interface AttemptRow extends Record<string, SqlStorageValue> {
  fingerprint: string;
  attemptId: string | null;
  response: string | null;
}

function purgeExpired(sql: SqlStorage, now: number): void {
  sql.exec(
    "DELETE FROM idempotency_attempts WHERE idempotency_key IN (SELECT idempotency_key FROM idempotency_attempts WHERE expires_at <= ? LIMIT ?)",
    now,
    PURGE_PER_CALL,
  );
  sql.exec(
    "DELETE FROM idempotency_results WHERE (tenant_id, idempotency_key) IN (SELECT tenant_id, idempotency_key FROM idempotency_results WHERE expires_at <= ? LIMIT ?)",
    new Date(now).toISOString(),
    PURGE_PER_CALL,
  );
}

const liveAttempt = (sql: SqlStorage, key: string, now: number) =>
  sql
    .exec<AttemptRow>(
      "SELECT fingerprint, attempt_id AS attemptId, response FROM idempotency_attempts WHERE idempotency_key = ? AND expires_at > ?",
      key,
      now,
    )
    .toArray()[0];

/** The result of `key` committed with the tenant's writes, if any, looked up by its primary key. */
const committedResult = (sql: SqlStorage, tenantId: number, key: string, now: number) =>
  sql
    .exec<{ fingerprint: string; response: string }>(
      "SELECT fingerprint, response FROM idempotency_results WHERE tenant_id = ? AND idempotency_key = ? AND expires_at > ?",
      tenantId,
      key,
      new Date(now).toISOString(),
    )
    .toArray()[0];

/**
 * What a committed result of `key` answers an attempt with this fingerprint: its replay, or a mismatch for another
 * body; undefined when none committed.
 */
export function committedOutcome(sql: SqlStorage, tenantId: number, key: string, fingerprint: string, now = Date.now()) {
  const committed = committedResult(sql, tenantId, key, now);
  if (!committed) return undefined;
  return committed.fingerprint === fingerprint
    ? ({ outcome: "replay", response: JSON.parse(committed.response) as StoredResponse } as const)
    : ({ outcome: "mismatch" } as const);
}

/**
 * What an attempt of `key` of tenant `tenantId` (the store's; its twin's keys are the twin store's) with this
 * fingerprint does; `proceed` marks the key as processing. The committed result is looked up by its primary key.
 */
export function beginAttempt(sql: SqlStorage, tenantId: number, key: string, fingerprint: string, now = Date.now()): BeginOutcome {
  purgeExpired(sql, now);
  const entry = committedResult(sql, tenantId, key, now) ?? liveAttempt(sql, key, now);
  if (entry) {
    // A different body is reported even while processing: retrying it could never succeed.
    if (entry.fingerprint !== fingerprint) return { outcome: "mismatch" };
    return entry.response === null
      ? { outcome: "processing" }
      : { outcome: "replay", response: JSON.parse(entry.response) as StoredResponse };
  }
  const attemptId = crypto.randomUUID();
  sql.exec(
    "INSERT OR REPLACE INTO idempotency_attempts (idempotency_key, fingerprint, attempt_id, response, expires_at) VALUES (?, ?, ?, NULL, ?)",
    key,
    fingerprint,
    attemptId,
    now + PROCESSING_TIMEOUT_MS,
  );
  return { outcome: "proceed", attemptId };
}

const changes = (sql: SqlStorage) => sql.exec<{ n: number }>("SELECT changes() AS n").one().n > 0;

/** Caches the attempt's answer for 24 hours; false when another attempt took the key over after this one's marker timed out. */
export function completeAttempt(sql: SqlStorage, key: string, attemptId: string, response: StoredResponse, now = Date.now()): boolean {
  sql.exec(
    "UPDATE idempotency_attempts SET attempt_id = NULL, response = ?, expires_at = ? WHERE idempotency_key = ? AND attempt_id = ?",
    JSON.stringify(response),
    now + RESULT_TTL_MS,
    key,
    attemptId,
  );
  return changes(sql);
}

/** Records a committed result whichever attempt holds the key; false for another request's fingerprint. */
export function settleAttempt(sql: SqlStorage, key: string, fingerprint: string, response: StoredResponse, now = Date.now()): boolean {
  const entry = liveAttempt(sql, key, now);
  if (entry && entry.fingerprint !== fingerprint) return false;
  sql.exec(
    "INSERT OR REPLACE INTO idempotency_attempts (idempotency_key, fingerprint, attempt_id, response, expires_at) VALUES (?, ?, NULL, ?, ?)",
    key,
    fingerprint,
    JSON.stringify(response),
    now + RESULT_TTL_MS,
  );
  return true;
}

/** Forgets the key after a 4xx, so the client may reuse it with a corrected request. */
export function releaseAttempt(sql: SqlStorage, key: string, attemptId: string): boolean {
  sql.exec("DELETE FROM idempotency_attempts WHERE idempotency_key = ? AND attempt_id = ?", key, attemptId);
  return changes(sql);
}
