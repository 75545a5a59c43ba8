import type { Bindings } from "../../env";
import { tenantStoreName } from "./names";
import type { TenantStore } from "./store";

/** How a Worker reaches a tenant's store (without loading the store's class, which only its Worker runs). */

/** The store of tenant `tenantId` (or of its sandbox twin, -T). */
export function tenantStore(env: Pick<Bindings, "TENANT_STORE">, tenantId: number): DurableObjectStub<TenantStore> {
  return env.TENANT_STORE.get(env.TENANT_STORE.idFromName(tenantStoreName(tenantId)));
}
