import type { Bindings } from "../../env";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { storedTenantsAndTwins } from "../../shared/tenants/registry";
import { tenantStore } from "../../shared/tenants/stub";
import type { TenantStore } from "./tenant-store";

/**
 * `work` on every tenant's stores, its own and its sandbox twin's, one after the other (the cron's sweeps of the stores,
 * src/api/index.ts); one failing is logged and the others go on.
 */
export async function forEachStore(
  env: Pick<Bindings, "DB" | "TENANT_STORE">,
  what: string,
  work: (store: DurableObjectStub<TenantStore>) => Promise<unknown>,
): Promise<void> {
  for (const storeTenantId of await storedTenantsAndTwins(env.DB)) {
    await work(tenantStore(env, storeTenantId) as DurableObjectStub<TenantStore>).catch((err: unknown) =>
      logEvent("warn", { housekeeping: what, tenantId: storeTenantId, message: errorMessage(err) }),
    );
  }
}
