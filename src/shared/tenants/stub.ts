import type { Bindings } from "../../env";
import { tenantStoreName } from "./names";
import type { TenantStore } from "./store";

/**
 * The store of tenant `tenantId` (or of its sandbox twin, -T), as any Worker reaches it: without loading the store's
 * class, which only its Worker runs.
 */
export function tenantStore(env: Pick<Bindings, "TENANT_STORE">, tenantId: number): DurableObjectStub<TenantStore> {
  return env.TENANT_STORE.get(env.TENANT_STORE.idFromName(tenantStoreName(tenantId)));
}
