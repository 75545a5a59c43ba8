import type { Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { storedTenantsAndTwins } from "./registry";
import { tenantStore } from "./stub";

/** Stores offered recalls at once: each call is a store's own matching, so a few run side by side. */
const STORES_AT_ONCE = 8;

/**
 * Offers the recalls changed by an import to every tenant store, its own and its sandbox twin's (docs/recalls.md,
 * "Matching in the stores"): each asks the main database for the recalls changed since it last matched that name its
 * units, and matches them itself. A store that fails is logged and left to the housekeeping cron, which makes every
 * store catch up; the job does not fail for it. How many stores matched, and the events they wrote.
 */
export async function offerRecallsToStores(env: Pick<Bindings, "DB" | "TENANT_STORE">): Promise<{ stores: number; events: number }> {
  const stores = await storedTenantsAndTwins(env.DB);
  let next = 0;
  let events = 0;
  let matched = 0;
  const worker = async () => {
    while (next < stores.length) {
      const storeTenantId = stores[next++]!;
      try {
        events += (await tenantStore(env, storeTenantId).matchRecalls()).events;
        matched++;
      } catch (err) {
        logEvent("warn", { event: "recalls.offer", tenantId: storeTenantId, message: errorMessage(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STORES_AT_ONCE, stores.length) }, worker));
  return { stores: matched, events };
}
