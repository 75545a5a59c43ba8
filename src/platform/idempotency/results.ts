import { and, eq, gt, lte } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idempotencyResults, type StoredResponse } from "../../db/schema";
import { deleteOldest } from "../housekeeping";

/**
 * The D1 side of idempotency: the result of a completed request, committed in the same batch as what the request
 * wrote (docs/architecture.md, "Crash-safe idempotency"). A committed result is the answer to every later attempt
 * of its key, whatever the Durable Object remembers.
 */

/** Spec 8: 2xx and 5xx results are replayed for 24 hours. */
export const RESULT_TTL_MS = 24 * 60 * 60 * 1000;

/** Which request an attempt is: the tenant's key (lower-cased) and the fingerprint of method, path and body. */
export interface IdempotentRequest {
  tenantId: number;
  key: string;
  fingerprint: string;
}

export interface CommittedResult {
  fingerprint: string;
  response: StoredResponse;
}

/**
 * The statements that record `response` as the result of `request`; the caller puts them in its own write batch.
 * An expired result of the key (24 hours, not yet purged) makes way; a live one makes the insert, and so the whole
 * batch, fail: two attempts of one key can never both commit.
 */
export function committedResultStatements(db: Database, request: IdempotentRequest, response: StoredResponse, now = new Date()) {
  const key = request.key.toLowerCase();
  const clearExpired = db
    .delete(idempotencyResults)
    .where(
      and(
        eq(idempotencyResults.tenantId, request.tenantId),
        eq(idempotencyResults.idempotencyKey, key),
        lte(idempotencyResults.expiresAt, now.toISOString()),
      ),
    );
  const insert = db.insert(idempotencyResults).values({
    tenantId: request.tenantId,
    idempotencyKey: key,
    fingerprint: request.fingerprint,
    response,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + RESULT_TTL_MS).toISOString(),
  });
  return [clearExpired, insert] as const;
}

/** The live committed result of the tenant's key, if any. */
export async function loadCommittedResult(db: Database, tenantId: number, key: string, now = new Date()): Promise<CommittedResult | null> {
  const [row] = await db
    .select({ fingerprint: idempotencyResults.fingerprint, response: idempotencyResults.response })
    .from(idempotencyResults)
    .where(
      and(
        eq(idempotencyResults.tenantId, tenantId),
        eq(idempotencyResults.idempotencyKey, key.toLowerCase()),
        gt(idempotencyResults.expiresAt, now.toISOString()),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Deletes up to `limit` expired results; returns how many went (the scheduled purge calls it in rounds). */
export async function purgeExpiredResults(db: Database, now: Date, limit: number): Promise<number> {
  const expired = lte(idempotencyResults.expiresAt, now.toISOString());
  return deleteOldest(db, idempotencyResults, idempotencyResults.idempotencyKey, expired, idempotencyResults.expiresAt, limit);
}
