import type { StoredResponse } from "../../src/db/schema";
import { storeRows } from "./stores";

/**
 * The idempotency lock of a tenant's keys inside its store (src/shared/tenants/idempotency-lock.ts; docs/tenant-stores.md,
 * "Idempotency"), as tests read and age it: the key's attempt (`idempotency_attempts`) and the result committed with the
 * tenant's write (`idempotency_results`), in the store of `tenantId` (its sandbox twin's when negative).
 */

/** A key's attempt: processing while it has no response (`attemptId` then names it), else its cached answer. */
export interface LockedAttempt {
  fingerprint: string;
  attemptId: string | null;
  response: StoredResponse | null;
  /** Epoch ms: the end of the processing marker (5 minutes), or of the cached answer (24 hours). */
  expiresAt: number;
}

/** The key's attempt under its store's lock, or undefined. */
export async function lockedAttempt(tenantId: number, key: string): Promise<LockedAttempt | undefined> {
  const [row] = await storeRows(
    tenantId,
    "SELECT fingerprint, attempt_id AS attemptId, response, expires_at AS expiresAt FROM idempotency_attempts WHERE idempotency_key = ?",
    key.toLowerCase(),
  );
  if (!row) return undefined;
  return { ...row, response: row.response === null ? null : JSON.parse(row.response as string) } as LockedAttempt;
}

/** How many results of the key committed with a write of the tenant (0 or 1). */
export async function committedResults(tenantId: number, key: string): Promise<number> {
  const [row] = await storeRows(
    tenantId,
    "SELECT count(*) AS n FROM idempotency_results WHERE tenant_id = ? AND idempotency_key = ?",
    tenantId,
    key.toLowerCase(),
  );
  return row!.n as number;
}

/** Moves the key's attempt and its committed result `ms` into the past, as if that much time had gone by. */
export async function ageKey(tenantId: number, key: string, ms: number): Promise<void> {
  await storeRows(tenantId, "UPDATE idempotency_attempts SET expires_at = expires_at - ? WHERE idempotency_key = ?", ms, key.toLowerCase());
  await storeRows(
    tenantId,
    "UPDATE idempotency_results SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?3), expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', expires_at, ?3) WHERE tenant_id = ?1 AND idempotency_key = ?2",
    tenantId,
    key.toLowerCase(),
    `-${ms / 1000} seconds`,
  );
}
