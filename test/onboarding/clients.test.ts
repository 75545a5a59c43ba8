import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { purgeAudit } from "../../src/operator/onboarding/audit";
import { SECRET_EXPIRING_EVENT, warnExpiringSecrets } from "../../src/operator/onboarding/clients";
import { createApiClient, findClient, LAST_USED_RESOLUTION_MS, recordSecretUse } from "../../src/shared/auth/clients";
import { call, expectProblem, json, operatorTokenFor, requestToken, TENANT_A } from "../helpers/api";

const CLIENTS = "/admin/api/clients";

const admin = async (path: string, init: { method?: string; json?: unknown } = {}) => call(await operatorTokenFor(), path, init);
const created = async (body: Record<string, unknown> = { kind: "tenant", tenantId: TENANT_A, name: "St. Mary's ERP" }) => {
  const res = await admin(CLIENTS, { method: "POST", json: body });
  expect(res.status).toBe(201);
  return (await json(res)).data as { client: Record<string, any>; secret: string };
};
const tokenStatus = async (clientId: string, clientSecret: string) => (await requestToken({ clientId, clientSecret })).status;
const rotate = async (clientId: string, body?: unknown) =>
  admin(`${CLIENTS}/${clientId}/secrets`, { method: "POST", ...(body === undefined ? {} : { json: body }) });
const row = (clientId: string) =>
  env.DB.prepare("SELECT * FROM api_clients WHERE client_id = ?").bind(clientId).first<Record<string, any>>();
const auditOf = async (clientId: string) =>
  (await json(await admin(`/admin/api/audit?targetId=${clientId}`))).data.entries as Record<string, any>[];

describe("onboarding: API clients through the admin API", () => {
  it("creates a client of each kind whose secret works at once; the secret is shown once and never listed", async () => {
    const tenant = await created();
    expect(tenant.client).toMatchObject({ kind: "tenant", tenantId: TENANT_A, vendorId: null, enabled: true });
    expect(tenant.client.clientId).toMatch(/^mpc_/);
    expect(tenant.client.scopes).toContain("orders:write");
    expect(tenant.client.secrets).toEqual([{ slot: "current", createdAt: expect.any(String), expiresAt: null, lastUsedAt: null }]);
    expect(await tokenStatus(tenant.client.clientId, tenant.secret)).toBe(200);
    const vendor = await created({ kind: "vendor", vendorId: 4, name: "OEM feed", scopes: ["offers:read"] });
    expect(vendor.client).toMatchObject({ kind: "vendor", vendorId: 4, scopes: ["offers:read"] });
    const operator = await created({ kind: "operator", name: "Catalog team" });
    expect(operator.client.clientId).toMatch(/^mpo_/);

    const listed = await (await admin(`${CLIENTS}?limit=100`)).text();
    expect(listed).toContain(tenant.client.clientId);
    expect(listed).not.toContain(tenant.secret);
    expect(listed).not.toContain((await row(tenant.client.clientId))!.secret_hash);
    const one = (await json(await admin(`${CLIENTS}/${tenant.client.clientId}`))).data;
    expect(one).toEqual({ ...tenant.client, secrets: [expect.objectContaining({ slot: "current" })] });
  });

  it("refuses what does not hold: an owner of the wrong kind, an unknown tenant or vendor, another kind's scope", async () => {
    for (const body of [
      { kind: "tenant", name: "x" },
      { kind: "tenant", tenantId: TENANT_A, vendorId: 4, name: "x" },
      { kind: "operator", tenantId: TENANT_A, name: "x" },
      { kind: "vendor", vendorId: 4, name: "x", scopes: ["orders:write"] },
      { kind: "tenant", tenantId: TENANT_A, name: "   " },
      { kind: "nobody", name: "x" },
    ]) {
      await expectProblem(await admin(CLIENTS, { method: "POST", json: body }), 400);
    }
    await expectProblem(await admin(CLIENTS, { method: "POST", json: { kind: "tenant", tenantId: 999_999, name: "x" } }), 422);
    await expectProblem(await admin(CLIENTS, { method: "POST", json: { kind: "vendor", vendorId: 999_999, name: "x" } }), 422);
    await expectProblem(await admin(`${CLIENTS}/mpc_nosuchclient`), 404);
  });

  it("rotation: both secrets work during the overlap, the old one is refused once it expires, lastUsedAt per secret", async () => {
    const { client, secret: oldSecret } = await created();
    const res = await rotate(client.clientId, { previousExpiresInSeconds: 3600 });
    expect(res.status).toBe(201);
    const rotated = (await json(res)).data;
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.client.secrets.map((s: { slot: string }) => s.slot)).toEqual(["current", "previous"]);
    const expiresAt = Date.parse(rotated.client.secrets[1].expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(3500_000);
    expect(await tokenStatus(client.clientId, oldSecret)).toBe(200);
    expect(await tokenStatus(client.clientId, rotated.secret)).toBe(200);
    // The old secret at its expiry: refused on the next token request (the row is read on every one).
    await env.DB.prepare("UPDATE api_clients SET previous_secret_expires_at = ? WHERE client_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), client.clientId)
      .run();
    expect(await tokenStatus(client.clientId, oldSecret)).toBe(401);
    expect(await tokenStatus(client.clientId, rotated.secret)).toBe(200);
    // Once expired, the client has one live secret again and may rotate.
    expect((await json(await admin(`${CLIENTS}/${client.clientId}`))).data.secrets).toHaveLength(1);
  });

  it("lastUsedAt is written for the secret used, at most once per resolution", async () => {
    const { client } = await created();
    const stored = async () => (await findClient(database(env.DB), client.clientId))!;
    const now = new Date();
    await recordSecretUse(database(env.DB), await stored(), "current", now);
    expect((await stored()).secretLastUsedAt).toBe(now.toISOString());
    // Within the resolution nothing is written again.
    await recordSecretUse(database(env.DB), await stored(), "current", new Date(now.getTime() + LAST_USED_RESOLUTION_MS / 2));
    expect((await stored()).secretLastUsedAt).toBe(now.toISOString());
    const later = new Date(now.getTime() + LAST_USED_RESOLUTION_MS + 1);
    await recordSecretUse(database(env.DB), await stored(), "current", later);
    expect((await stored()).secretLastUsedAt).toBe(later.toISOString());
  });

  it("a use recorded after a rotation lands on the secret that was used (now the previous one), not on the new one", async () => {
    const { client } = await created();
    const beforeRotation = (await findClient(database(env.DB), client.clientId))!;
    await rotate(client.clientId, { previousExpiresInSeconds: 600 });
    const now = new Date();
    await recordSecretUse(database(env.DB), beforeRotation, "current", now);
    const after = (await row(client.clientId))!;
    expect(after.previous_secret_last_used_at).toBe(now.toISOString());
    expect(after.secret_last_used_at).toBeNull();
  });

  it("making a client again with its id (npm run create-client) leaves no previous secret alive", async () => {
    const { client, secret } = await created();
    await rotate(client.clientId, { previousExpiresInSeconds: 600 });
    await createApiClient(database(env.DB), { tenantId: TENANT_A, name: "Again", clientId: client.clientId, clientSecret: "x".repeat(40) });
    expect(await tokenStatus(client.clientId, secret)).toBe(401);
    expect(await tokenStatus(client.clientId, "x".repeat(40))).toBe(200);
  });

  it("a second rotation while two secrets are live is a 409; 0 s of overlap refuses the old secret at once", async () => {
    const { client, secret } = await created();
    expect((await rotate(client.clientId, { previousExpiresInSeconds: 600 })).status).toBe(201);
    await expectProblem(await rotate(client.clientId, { previousExpiresInSeconds: 600 }), 409);
    const other = await created();
    const now = (await json(await rotate(other.client.clientId, { previousExpiresInSeconds: 0 }))).data;
    expect(await tokenStatus(other.client.clientId, other.secret)).toBe(401);
    expect(await tokenStatus(other.client.clientId, now.secret)).toBe(200);
    expect(await tokenStatus(client.clientId, secret)).toBe(200); // the first client's old secret, still in its overlap
    // The overlap is the operator's choice: no default; a refused request rotates nothing.
    const third = await created();
    for (const body of [
      undefined,
      {},
      { previousExpiresInSeconds: -1 },
      { previousExpiresInSeconds: 604_801 },
      { previousExpiresInSeconds: 1.5 },
      { x: 1 },
    ]) {
      await expectProblem(await rotate(third.client.clientId, body), 400);
    }
    expect(await tokenStatus(third.client.clientId, third.secret)).toBe(200);
    expect((await row(third.client.clientId))!.previous_secret_hash).toBeNull();
  });

  it("concurrent rotations of one client: exactly one wins, and its secret is the one that works", async () => {
    const { client } = await created();
    const answers = await Promise.all(Array.from({ length: 6 }, () => rotate(client.clientId, { previousExpiresInSeconds: 600 })));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const winner = (await json(answers.find((res) => res.status === 201)!)).data;
    expect(await tokenStatus(client.clientId, winner.secret)).toBe(200);
  });

  it("disabling: token requests fail; again is a 200 that changes nothing; a client cannot disable itself", async () => {
    const { client, secret } = await created();
    const res = await admin(`${CLIENTS}/${client.clientId}/disable`, { method: "POST" });
    expect(res.status).toBe(200);
    expect((await json(res)).data.enabled).toBe(false);
    expect(await tokenStatus(client.clientId, secret)).toBe(401);
    expect((await admin(`${CLIENTS}/${client.clientId}/disable`, { method: "POST" })).status).toBe(200);
    expect((await auditOf(client.clientId)).filter((e) => e.action === "client.disabled")).toHaveLength(1);
    // An operator client disabling itself would lock the operator out.
    const self = await created({ kind: "operator", name: "Self" });
    const selfToken = (
      (await (await requestToken({ clientId: self.client.clientId, clientSecret: self.secret })).json()) as { access_token: string }
    ).access_token;
    await expectProblem(await call(selfToken, `${CLIENTS}/${self.client.clientId}/disable`, { method: "POST" }), 409);
  });
});

describe("onboarding: the audit log", () => {
  it("every change is audited with who, what, when, before and after; never a secret or its hash", async () => {
    const { client, secret } = await created();
    const rotated = (await json(await rotate(client.clientId, { previousExpiresInSeconds: 60 }))).data;
    await admin(`${CLIENTS}/${client.clientId}/disable`, { method: "POST" });
    const entries = await auditOf(client.clientId);
    expect(entries.map((e) => e.action)).toEqual(["client.disabled", "client.secret.rotated", "client.created"]);
    const creator = (await row(client.clientId))!;
    for (const entry of entries) {
      expect(entry.actor).toMatch(/^mpo_/);
      expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 60_000);
      expect(entry.targetType).toBe("api_client");
    }
    expect(entries[2]!.before).toBeNull();
    expect(entries[2]!.after).toMatchObject({ clientId: client.clientId, enabled: true });
    expect(entries[1]!.before.secrets).toHaveLength(1);
    expect(entries[1]!.after.secrets).toHaveLength(2);
    expect(entries[0]!.before.enabled).toBe(true);
    expect(entries[0]!.after.enabled).toBe(false);
    const text = JSON.stringify(entries);
    for (const hidden of [secret, rotated.secret, creator.secret_hash, creator.previous_secret_hash]) expect(text).not.toContain(hidden);
  });

  it("price tier changes are audited too, only when something changed", async () => {
    const name = `Audit tier ${crypto.randomUUID().slice(0, 8)}`;
    const tier = (await json(await admin("/admin/api/tiers", { method: "POST", json: { name } }))).data;
    await expectProblem(await admin("/admin/api/tiers", { method: "POST", json: { name } }), 409);
    const member = `/admin/api/tiers/${tier.tierId}/tenants/${TENANT_A}`;
    for (const method of ["PUT", "PUT", "DELETE", "DELETE"]) expect((await admin(member, { method })).status).toBe(204);
    const entries = await auditOf(String(tier.tierId));
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["tier.tenant.removed", { tenantId: TENANT_A }, null],
      ["tier.tenant.added", null, { tenantId: TENANT_A }],
      ["tier.created", null, { name }],
    ]);
  });

  it("pages newest first with nextBefore, and entries past the retention are purged", async () => {
    for (let i = 0; i < 3; i++) await created();
    const first = (await json(await admin("/admin/api/audit?limit=2"))).data;
    expect(first.entries).toHaveLength(2);
    const second = (await json(await admin(`/admin/api/audit?limit=2&before=${first.nextBefore}`))).data;
    expect(second.entries[0].id).toBeLessThan(first.entries[1].id);
    await env.DB.prepare(
      "INSERT INTO audit_log (at, actor, action, target_type, target_id) VALUES ('2020-01-01T00:00:00.000Z', 'x', 'old', 'api_client', 'old')",
    ).run();
    expect(await purgeAudit(env.DB, new Date())).toBeGreaterThanOrEqual(1);
    expect((await auditOf("old")).length).toBe(0);
  });
});

describe("onboarding: an event before a previous secret expires", () => {
  it("the operator's feed gets client.secret.expiring once, within a day of the expiry", async () => {
    const { client } = await created();
    await rotate(client.clientId, { previousExpiresInSeconds: 3600 });
    const far = await created();
    await rotate(far.client.clientId, { previousExpiresInSeconds: 6 * 86_400 });
    expect(await warnExpiringSecrets(env)).toBeGreaterThanOrEqual(1);
    expect(await warnExpiringSecrets(env)).toBe(0);
    const events = await env.CATALOG.prepare("SELECT data FROM operator_events WHERE type = ?")
      .bind(SECRET_EXPIRING_EVENT)
      .all<{ data: string }>();
    const ids = events.results.map((e) => JSON.parse(e.data).clientId);
    expect(ids).toContain(client.clientId);
    expect(ids).not.toContain(far.client.clientId);
  });
});
