import type { StoredResponse } from "../../db/schema";

/** What a request carrying an Idempotency-Key does (spec 8); `proceed` marks the key as processing. */
export type BeginOutcome =
  | { outcome: "proceed"; attemptId: string }
  | { outcome: "replay"; response: StoredResponse }
  | { outcome: "mismatch" }
  | { outcome: "processing" };

/**
 * The decisions spec 8 needs about one key, wherever they are kept: the key's own Durable Object
 * (src/platform/idempotency/store.ts), or the store of a tenant that lives in one (src/shared/tenants/idempotency-lock.ts).
 */
export interface KeyLock {
  begin(fingerprint: string): Promise<BeginOutcome>;
  complete(attemptId: string, response: StoredResponse): Promise<boolean>;
  settle(fingerprint: string, response: StoredResponse): Promise<boolean>;
  release(attemptId: string): Promise<boolean>;
}
