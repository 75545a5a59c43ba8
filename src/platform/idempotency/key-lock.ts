import type { StoredResponse } from "../../db/schema";
import type { TransferableError } from "../errors";

/** How long a key stays processing after an attempt began that neither completed nor released it (spec 8, rule 5). */
export const PROCESSING_TIMEOUT_MS = 5 * 60 * 1000;

/** What a request carrying an Idempotency-Key does (spec 8); `proceed` marks the key as processing. */
export type BeginOutcome =
  | { outcome: "proceed"; attemptId: string }
  | { outcome: "replay"; response: StoredResponse }
  | { outcome: "mismatch" }
  | { outcome: "processing" };

/**
 * The decisions spec 8 needs about one key: kept by the store of the key's tenant (src/shared/tenants/idempotency-lock.ts),
 * beside the results that commit with the tenant's writes.
 */
export interface KeyLock {
  begin(fingerprint: string): Promise<BeginOutcome>;
  complete(attemptId: string, response: StoredResponse): Promise<boolean>;
  settle(fingerprint: string, response: StoredResponse): Promise<boolean>;
  release(attemptId: string): Promise<boolean>;
}

/**
 * A request a tenant's store ran whole in one call, its key's lock included (`runLocked` of src/shared/tenants/store.ts):
 * the lock's decision and, when it said proceed, what the operation gave: its value, or its error. `recorded`: the
 * store also recorded the attempt (completed with its 2xx, or released after a 4xx) in that call.
 */
export type StoreRun =
  | { decision: Exclude<BeginOutcome, { outcome: "proceed" }> }
  | {
      decision: Extract<BeginOutcome, { outcome: "proceed" }>;
      ran: { value: unknown } | { failure: TransferableError };
      recorded: boolean;
    };
