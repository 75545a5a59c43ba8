import type { Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { tenantStoreName } from "../../shared/tenants/names";
import { switchedTenantIds } from "../../shared/tenants/switched";
import type { TenantStore } from "./tenant-store";

/**
 * `work` on every switched tenant's stores, its own and its sandbox twin's, one after the other (the cron's sweeps of
 * the stores, src/api/index.ts); one failing is logged and the others go on.
 */
export async function forEachSwitchedStore(
  env: Pick<Bindings, "DB" | "TENANT_STORE">,
  what: string,
  work: (store: DurableObjectStub<TenantStore>) => Promise<unknown>,
): Promise<void> {
  for (const tenantId of await switchedTenantIds(env.DB)) {
    for (const store of [tenantId, -tenantId]) {
      await work(env.TENANT_STORE.get(env.TENANT_STORE.idFromName(tenantStoreName(store)))).catch((err: unknown) =>
        logEvent("warn", { housekeeping: what, tenantId: store, message: errorMessage(err) }),
      );
    }
  }
}
