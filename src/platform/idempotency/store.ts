import { DurableObject } from "cloudflare:workers";
import type { StoredResponse } from "../../db/schema";
import type { Bindings } from "../../env";
import type { BeginOutcome, KeyLock } from "./key-lock";
import { RESULT_TTL_MS } from "./results";

/**
 * One instance per (tenant, Idempotency-Key): the state machine of spec section 8 for that key.
 * A Durable Object handles one call at a time and every decision below reads and writes storage
 * synchronously, so two requests with the same key can never both be told to proceed.
 */

export const PROCESSING_TIMEOUT_MS = 5 * 60 * 1000;
export { RESULT_TTL_MS };
/** Storage key of the single entry an instance holds (exported for tests that age it). */
export const IDEMPOTENCY_ENTRY_KEY = "entry";

export type { StoredResponse };

export type IdempotencyEntry =
  | { state: "processing"; fingerprint: string; attemptId: string; startedAt: number }
  | { state: "completed"; fingerprint: string; completedAt: number; response: StoredResponse };

export type { BeginOutcome, KeyLock };

export function entryExpiresAt(entry: IdempotencyEntry): number {
  return entry.state === "processing" ? entry.startedAt + PROCESSING_TIMEOUT_MS : entry.completedAt + RESULT_TTL_MS;
}

export class IdempotencyStore extends DurableObject<Bindings> {
  /** Decides what a request carrying this key does; `proceed` marks the key as processing. */
  async begin(fingerprint: string): Promise<BeginOutcome> {
    const now = Date.now();
    const entry = this.liveEntry(now);
    if (entry) {
      // A different body is reported even while processing: retrying it could never succeed.
      if (entry.fingerprint !== fingerprint) return { outcome: "mismatch" };
      return entry.state === "completed" ? { outcome: "replay", response: entry.response } : { outcome: "processing" };
    }
    const attemptId = crypto.randomUUID();
    this.write({ state: "processing", fingerprint, attemptId, startedAt: now });
    await this.ctx.storage.setAlarm(now + PROCESSING_TIMEOUT_MS);
    return { outcome: "proceed", attemptId };
  }

  /**
   * Caches the result of the attempt for 24 hours. Ignored (false) when the attempt is no longer the
   * current one, i.e. its marker timed out and a later attempt took over.
   */
  async complete(attemptId: string, response: StoredResponse): Promise<boolean> {
    const entry = this.read();
    if (entry?.state !== "processing" || entry.attemptId !== attemptId) return false;
    const completedAt = Date.now();
    this.write({ state: "completed", fingerprint: entry.fingerprint, completedAt, response });
    await this.ctx.storage.setAlarm(completedAt + RESULT_TTL_MS);
    return true;
  }

  /**
   * Records a result that committed in D1 with the request's writes, whichever attempt holds the key (e.g. the
   * marker of an attempt whose Worker died after its commit). Refused (false) for another request's fingerprint.
   */
  async settle(fingerprint: string, response: StoredResponse): Promise<boolean> {
    const entry = this.read();
    if (entry && entry.fingerprint !== fingerprint) return false;
    const completedAt = Date.now();
    this.write({ state: "completed", fingerprint, completedAt, response });
    await this.ctx.storage.setAlarm(completedAt + RESULT_TTL_MS);
    return true;
  }

  /** Forgets the key after a 4xx, so the client may reuse it with a corrected request. */
  async release(attemptId: string): Promise<boolean> {
    const entry = this.read();
    if (entry?.state !== "processing" || entry.attemptId !== attemptId) return false;
    await this.purge();
    return true;
  }

  /** Purges an expired entry; an alarm that fires early (or for a replaced entry) is re-armed. */
  override async alarm(): Promise<void> {
    const entry = this.liveEntry(Date.now());
    if (entry) await this.ctx.storage.setAlarm(entryExpiresAt(entry));
    else await this.purge();
  }

  private liveEntry(now: number): IdempotencyEntry | undefined {
    const entry = this.read();
    return entry && now < entryExpiresAt(entry) ? entry : undefined;
  }

  private read(): IdempotencyEntry | undefined {
    return this.ctx.storage.kv.get<IdempotencyEntry>(IDEMPOTENCY_ENTRY_KEY);
  }

  private write(entry: IdempotencyEntry): void {
    this.ctx.storage.kv.put(IDEMPOTENCY_ENTRY_KEY, entry);
  }

  private async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}
