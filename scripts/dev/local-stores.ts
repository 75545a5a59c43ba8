import { setTimeout as sleep } from "node:timers/promises";
import { OperatorApi, type OperatorCredentials } from "../tools/local-import";

/**
 * Moves a tenant into its stores and switches it (POST /admin/api/tenants/{id}/store-move {"switch": true}) on a running
 * local server, and waits until it is served from them (the crash tests and bench:projection; docs/tenant-stores.md).
 */
export async function switchTenant(baseUrl: string, credentials: OperatorCredentials, tenantId: number): Promise<void> {
  const api = await OperatorApi.connect(baseUrl, credentials);
  await api.call("POST", `/tenants/${tenantId}/store-move`, JSON.stringify({ switch: true }));
  for (let waited = 0; waited < 1500; waited++) {
    const { state } = await api.call<{ state: string }>("GET", `/tenants/${tenantId}/store`);
    if (state === "store") return;
    if (state !== "copying") throw new Error(`the move of tenant ${tenantId} ended ${state}`);
    await sleep(200);
  }
  throw new Error(`the move of tenant ${tenantId} did not end`);
}
