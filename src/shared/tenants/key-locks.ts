import type { Bindings } from "../../env";
import type { KeyLock } from "../../platform/idempotency/key-lock";
import { tenantStore } from "./stub";

/** The keys of tenant `tenantId`'s store (its twin's when negative) as the idempotency middleware locks them. */
export function storeKeyLocks(env: Pick<Bindings, "TENANT_STORE">, tenantId: number): (key: string) => KeyLock {
  const store = tenantStore(env, tenantId);
  return (key) => {
    const k = key.toLowerCase();
    return {
      begin: (fingerprint) => store.beginIdempotent(k, fingerprint),
      complete: (attemptId, response) => store.completeIdempotent(k, attemptId, response),
      settle: (fingerprint, response) => store.settleIdempotent(k, fingerprint, response),
      release: (attemptId) => store.releaseIdempotent(k, attemptId),
    };
  };
}
