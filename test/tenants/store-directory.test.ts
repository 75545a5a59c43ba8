import { createExecutionContext, createScheduledController, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import operatorPlaneConfig from "../../admin/wrangler.toml?raw";
import { DIRECTORY_PUSH_CRON } from "../../src/operator/crons";
import operatorPlane from "../../src/operator/index";
import type { TenantStore } from "../../src/shared/tenants/store";
import { tenantStore } from "../../src/shared/tenants/stub";
import {
  call,
  expectProblem,
  expectScimError,
  json,
  operatorTokenFor,
  scim,
  scimTokenFor,
  TENANT_A,
  TENANT_B,
  tokenFor,
} from "../helpers/api";
import { issueQuotes, JSMITH, KJOHNSON, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";
import { storeRows } from "../helpers/stores";
import { FAULT_HEADER } from "../helpers/worker";

/**
 * A tenant's directory (docs/tenant-stores.md, "The directory"): the operator plane writes its master in the control
 * database, and its changes reach the tenant's store and its twin's before the answer; a push that
 * fails is made by the operator plane's Cron Trigger.
 */

const USER_EXTENSION = "urn:medparts:params:scim:schemas:extension:medparts:2.0:User";
const pending = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM directory_changes WHERE tenant_id = ?1").bind(TENANT_A).first("n")) as number;
const inBoth = async (sql: string, ...params: (string | number)[]) => [
  await storeRows(TENANT_A, sql, ...params),
  await storeRows(-TENANT_A, sql, ...params),
];

const inStore = (sql: string, ...params: number[]) => storeRows(TENANT_A, sql, ...params);

/** The operator plane's Cron Trigger (its 5-minute housekeeping, unless another of its crons is named), run once to its end. */
async function runOperatorCron(cron = "*/5 * * * *") {
  const ctx = createExecutionContext();
  await operatorPlane.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron }), env as never, ctx);
  await waitOnExecutionContext(ctx);
}

const scimUser = async (userName: string, headers: Record<string, string> = {}) => {
  const res = await call(await scimTokenFor(TENANT_A), "/scim/v2/Users", {
    method: "POST",
    json: { userName, name: { givenName: "New", familyName: "Nurse" } },
    headers: { "Content-Type": "application/scim+json", ...headers },
  });
  return res;
};

describe("the directory of a tenant served from its stores", () => {
  it("a SCIM user created, changed and deactivated reaches the tenant's store and its twin's before each answer", async () => {
    const token = await scimTokenFor(TENANT_A);
    const created = await scim(token, "/Users", {
      method: "POST",
      body: { userName: "mirror-1@riverside.example", name: { givenName: "Ann", familyName: "Lee" } },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const user = await created.json<Record<string, any>>();
    const select = "SELECT user_name, first_name, active FROM users WHERE id = ?";
    expect(await inBoth(select, Number(user.id))).toEqual([
      [{ user_name: "mirror-1@riverside.example", first_name: "Ann", active: 1 }],
      [{ user_name: "mirror-1@riverside.example", first_name: "Ann", active: 1 }],
    ]);
    // The buyer API reads the store: the new user is found there at once.
    const lookup = await call(await tokenFor(TENANT_A), `/users/lookup?userId=${user.id}`);
    expect(lookup.status, await lookup.clone().text()).toBe(200);
    expect(JSON.stringify((await json(lookup)).data)).toContain("Ann");
    const patch = (operations: unknown[]) =>
      scim(token, `/Users/${user.id}`, {
        method: "PATCH",
        body: { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: operations },
      });
    expect((await patch([{ op: "Replace", path: "name.givenName", value: "Anne" }])).status).toBe(200);
    expect((await patch([{ op: "Replace", path: "active", value: false }])).status).toBe(200);
    expect(await inBoth(select, Number(user.id))).toEqual([
      [{ user_name: "mirror-1@riverside.example", first_name: "Anne", active: 0 }],
      [{ user_name: "mirror-1@riverside.example", first_name: "Anne", active: 0 }],
    ]);
    expect(await pending()).toBe(0);
    // The audit entries committed with the writes, in the control database.
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE target_id = ?1").bind(String(user.id)).first("n");
    expect(audited).toBeGreaterThanOrEqual(3);
    expect(user[USER_EXTENSION].contactId).toEqual(expect.any(Number));
  });

  it("a requester deactivated by SCIM can no longer order from the store, from the answer on", async () => {
    const quote = (await issueQuotes("MP-0000031")).find(withoutFields)!;
    const token = await scimTokenFor(TENANT_A);
    const deactivate = (active: boolean) =>
      scim(token, `/Users/${JSMITH.userId}`, {
        method: "PATCH",
        body: {
          schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          Operations: [{ op: "Replace", path: "active", value: active }],
        },
      });
    expect((await deactivate(false)).status).toBe(200);
    await expectProblem(await placeOrder(orderBody([lineFor(quote)])), 403);
    expect((await deactivate(true)).status).toBe(200);
    expect((await placeOrder(orderBody([lineFor(quote)]))).status).toBe(201);
  });

  it("a shipping address the operator adds can be shipped to at once", async () => {
    const companyId = (await env.DB.prepare("SELECT company_id FROM addresses WHERE id = ?1")
      .bind(JSMITH.shippingAddressId)
      .first("company_id")) as number;
    const res = await call(await operatorTokenFor(), "/admin/api/addresses", {
      method: "POST",
      json: {
        externalId: `addr-${crypto.randomUUID()}`,
        companyId,
        kind: "shipping",
        line1: "9 Dock Rd",
        city: "Portland",
        state: "OR",
        zip: "97201",
        country: "US",
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { addressId } = (await json(res)).data;
    const quote = (await issueQuotes("MP-0000033")).find(withoutFields)!;
    const ordered = await placeOrder(orderBody([lineFor(quote)], JSMITH, { shippingAddressId: addressId }));
    expect(ordered.status, await ordered.clone().text()).toBe(201);
  });

  it("a push that fails leaves the write committed and its change pending, and the operator plane's Cron Trigger pushes it", async () => {
    const res = await scimUser("mirror-2@riverside.example", { [FAULT_HEADER]: "tenant-store-unavailable" });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = await res.json<{ id: string }>();
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE id = ?1").bind(Number(id)).first("n")).toBe(1);
    expect(await inBoth("SELECT id FROM users WHERE id = ?", Number(id))).toEqual([[], []]);
    expect(await pending()).toBeGreaterThan(0);
    // Meanwhile the buyer API finds the user in the control database, where the store lacks it.
    const found = await call(await tokenFor(TENANT_A), `/users/lookup?userId=${id}`);
    expect(found.status, await found.clone().text()).toBe(200);
    await runOperatorCron();
    expect(await inBoth("SELECT id FROM users WHERE id = ?", Number(id))).toEqual([[{ id: Number(id) }], [{ id: Number(id) }]]);
    expect(await pending()).toBe(0);
  });

  it("a store skips a change older than the one it applied, so pushes that overlap never bring an older row back", async () => {
    const created = await scimUser("mirror-overlap@riverside.example");
    const { id } = await created.json<{ id: string }>();
    const store = tenantStore(env, TENANT_A);
    const [row] = await storeRows(TENANT_A, "SELECT * FROM users WHERE id = ?", Number(id));
    // Versions far past the control database's own, for a user no other test writes.
    const key = JSON.stringify([Number(id)]);
    const change = (firstName: string, version: number) => ({ table: "users", key, version, row: { ...row!, first_name: firstName } });
    expect(await store.applyDirectory(TENANT_A, [change("Newer", 1_000_000_002)])).toMatchObject({ applied: 1 });
    expect(await store.applyDirectory(TENANT_A, [change("Older", 1_000_000_001)])).toMatchObject({
      applied: 0,
      newestVersion: 1_000_000_002,
    });
    expect(await storeRows(TENANT_A, "SELECT first_name FROM users WHERE id = ?", Number(id))).toEqual([{ first_name: "Newer" }]);
    // A change of this tenant's directory is refused by another tenant's store.
    await expect(
      runInDurableObject(tenantStore(env, TENANT_B), (instance: TenantStore) =>
        instance.applyDirectory(TENANT_A, [change("Other", 1_000_000_003)]),
      ),
    ).rejects.toThrow(/another tenant's store/);
  });

  it("a store ahead of the control database (restored from a backup) forgets its versions and takes the database's present", async () => {
    const created = await scimUser("mirror-restored@riverside.example");
    const { id } = await created.json<{ id: string }>();
    // As if DB had gone back to a backup: the stores hold a version of this user that DB's sequence has not reached.
    for (const store of [TENANT_A, -TENANT_A]) {
      await storeRows(
        store,
        "UPDATE directory_versions SET version = 2000000000 WHERE table_name = 'users' AND row_key = ?",
        JSON.stringify([Number(id)]),
      );
    }
    const token = await scimTokenFor(TENANT_A);
    const patched = await scim(token, `/Users/${id}`, {
      method: "PATCH",
      body: {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "Replace", path: "name.givenName", value: "Restored" }],
      },
    });
    expect(patched.status).toBe(200);
    expect(await inBoth("SELECT first_name FROM users WHERE id = ?", Number(id))).toEqual([
      [{ first_name: "Restored" }],
      [{ first_name: "Restored" }],
    ]);
    expect(await pending()).toBe(0);
  });

  it("two users swapping their user names in one write reach the store swapped (the Cron Trigger pushes a write made outside the API)", async () => {
    const names = async (where: (sql: string, ...params: number[]) => Promise<Record<string, unknown>[]>) =>
      where("SELECT id, user_name FROM users WHERE id IN (?, ?) ORDER BY id", 1, 2);
    const before = await names(inStore);
    expect(before).toHaveLength(2);
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET user_name = 'swap-' || user_name WHERE id = 1"),
      env.DB.prepare("UPDATE users SET user_name = ?1 WHERE id = 2").bind(before[0]!.user_name),
      env.DB.prepare("UPDATE users SET user_name = ?1 WHERE id = 1").bind(before[1]!.user_name),
    ]);
    expect(await pending()).toBeGreaterThan(0);
    await runOperatorCron();
    expect(await pending()).toBe(0);
    expect(await names(inStore)).toEqual([
      { id: 1, user_name: before[1]!.user_name },
      { id: 2, user_name: before[0]!.user_name },
    ]);
    expect(await names((sql, ...params) => storeRows(-TENANT_A, sql, ...params))).toEqual(await names(inStore));
  });

  it("a user id of another tenant is a 403 through the store (spec 5.6), an id of no user a 404", async () => {
    const token = await tokenFor(TENANT_A);
    await expectProblem(await call(token, `/users/lookup?userId=${KJOHNSON.userId}`), 403);
    await expectProblem(await call(token, "/users/lookup?userId=987654"), 404);
    await expectProblem(await call(token, `/users/lookup?loginUserId=${encodeURIComponent("kjohnson")}`), 404);
  });

  const deleteScimUser = (id: number, headers: Record<string, string> = {}) =>
    call(scimToken, `/scim/v2/Users/${id}`, { method: "DELETE", headers });
  let scimToken: string;
  const activeInBoth = (id: number) => inBoth("SELECT active, deleted_at IS NOT NULL AS deleted FROM users WHERE id = ?", id);

  it("a SCIM DELETE whose push a crash lost is pushed by the identity provider's resend, which then gets its 404", async () => {
    scimToken = await scimTokenFor(TENANT_A);
    const { id } = await (await scimUser("mirror-crash@riverside.example")).json<{ id: string }>();
    const crashed = await deleteScimUser(Number(id), { [FAULT_HEADER]: "dies-after-commit" });
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    expect(await env.DB.prepare("SELECT active FROM users WHERE id = ?1").bind(Number(id)).first("active")).toBe(0);
    expect(await activeInBoth(Number(id))).toEqual([[{ active: 1, deleted: 0 }], [{ active: 1, deleted: 0 }]]);
    const resent = await deleteScimUser(Number(id));
    expect(resent.status, await resent.clone().text()).toBe(404);
    expect(await activeInBoth(Number(id))).toEqual([[{ active: 0, deleted: 1 }], [{ active: 0, deleted: 1 }]]);
    expect(await pending()).toBe(0);
  });

  it("a deleted user's resent DELETE is no 404 while the push is owed, and the every-minute cron pushes it: the user can no longer order", async () => {
    const quote = (await issueQuotes("MP-0000035")).find(withoutFields)!;
    expect((await deleteScimUser(JSMITH.userId, { [FAULT_HEADER]: "dies-after-commit" })).status).toBeGreaterThanOrEqual(500);
    expect(await activeInBoth(JSMITH.userId)).toEqual([[{ active: 1, deleted: 0 }], [{ active: 1, deleted: 0 }]]);
    // The resend, while the store cannot be reached: the story is not over, the identity provider is told to retry.
    const resent = await deleteScimUser(JSMITH.userId, { [FAULT_HEADER]: "tenant-store-unavailable" });
    await expectScimError(resent, 503);
    expect(Number(resent.headers.get("Retry-After"))).toBeGreaterThan(0);
    await runOperatorCron(DIRECTORY_PUSH_CRON);
    expect(await activeInBoth(JSMITH.userId)).toEqual([[{ active: 0, deleted: 1 }], [{ active: 0, deleted: 1 }]]);
    await expectProblem(await placeOrder(orderBody([lineFor(quote)])), 403);
    await expectScimError(await deleteScimUser(JSMITH.userId), 404);
  });

  it("the operator plane runs the directory push every minute where deployed (admin/wrangler.toml)", () => {
    const crons = /^crons = (\[.*\])$/m.exec(operatorPlaneConfig)?.[1];
    expect(JSON.parse(crons ?? "[]")).toContain(DIRECTORY_PUSH_CRON);
  });
});
