import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { vendorProjection } from "../../src/api/vendors/projection/stub";
import { clearStore } from "../../src/operator/tenant-stores/copy";
import { clientStatus } from "../../src/shared/auth/client-status";
import { forgetSwitches } from "../../src/shared/tenants/homes";
import { tenantStore } from "../../src/shared/tenants/stub";
import { call, json, operatorTokenFor } from "./api";

/** A tenant's entry in the registry, as the operator reads it (GET /admin/api/tenants/{id}/store). */
export async function storeEntry(tenantId: number) {
  const res = await call(await operatorTokenFor(), `/admin/api/tenants/${tenantId}/store`);
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

/** Waits for the tenant's move to end its read-only window; the entry then. */
export async function moveEnded(tenantId: number) {
  for (let waited = 0; waited < 600; waited++) {
    const current = await storeEntry(tenantId);
    if (current.state !== "copying") return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the move did not end");
}

/** Moves the tenant into its stores (POST .../store-move, switching it when asked) and waits for the move to end; the entry then. */
export async function moveTenant(tenantId: number, { switchAfter = false } = {}) {
  const res = await call(await operatorTokenFor(), `/admin/api/tenants/${tenantId}/store-move`, {
    method: "POST",
    ...(switchAfter ? { json: { switch: true } } : {}),
  });
  expect(res.status, await res.clone().text()).toBe(202);
  expect((await json(res)).data.state).toBe("copying");
  return moveEnded(tenantId);
}

/**
 * Moves the tenant and switches it to its stores (`switch: true`), then forgets what every isolate remembers of homes
 * (the client status, whether any tenant has switched), as their 30 s passing would.
 */
export async function moveAndSwitch(tenantId: number): Promise<void> {
  expect((await moveTenant(tenantId, { switchAfter: true })).state).toBe("store");
  clientStatus.clear();
  forgetSwitches();
}

/**
 * Back to the database for the next test file's tenants: the registry emptied, the vendors' projections emptied (the
 * next file's database gives the same line ids again), the remembered homes forgotten.
 */
export async function forgetStores(): Promise<void> {
  // The stores outlive the file's database: emptied, their alarms cancelled, so that the next file's tenants of the
  // same ids (every file's database gives them again) start from empty stores, as a new tenant's do.
  const { results: homes } = await env.DB.prepare("SELECT tenant_id AS id FROM tenant_stores").all<{ id: number }>();
  for (const { id } of homes) {
    for (const storeTenantId of [id, -id]) {
      const store = tenantStore(env, storeTenantId);
      await clearStore(store);
      await runInDurableObject(store, (_, state) => state.storage.deleteAlarm());
    }
  }
  await env.DB.prepare("DELETE FROM tenant_stores").run();
  // Only stores of tenants in the registry publish: without any, no projection has been written.
  const { results } = homes.length > 0 ? await env.DB.prepare("SELECT id FROM vendors").all<{ id: number }>() : { results: [] };
  for (const { id } of results) {
    await runInDurableObject(vendorProjection(env, id), (_, state) => void state.storage.sql.exec("DELETE FROM vendor_lines"));
  }
  clientStatus.clear();
  forgetSwitches();
}

/** The rows one statement reads in tenant `tenantId`'s store (its sandbox twin's when negative), or writes there. */
export const storeRows = async (tenantId: number, sql: string, ...params: (string | number)[]) =>
  (await tenantStore(env, tenantId).execute([{ sql, params }]))[0]!.results;

/** Where a test runs a tenant's case: the control database, or the tenant's stores (after `moveAndSwitch`). */
export type Home = "DB" | "store";

/** The rows one statement reads (or writes) where tenant `tenantId` lives in `home`. */
export async function homeRows(home: Home, tenantId: number, sql: string, ...params: (string | number)[]) {
  if (home === "store") return storeRows(tenantId, sql, ...params);
  return (
    await env.DB.prepare(sql)
      .bind(...params)
      .all()
  ).results;
}
