import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pushDirectoryChanges } from "../../src/operator/tenant-stores/directory-mirror";
import { bucketKey } from "../../src/platform/ratelimit/policy";
import { forgetUserProfiles } from "../../src/shared/users/lookup";
import {
  BASE_URL,
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
import { advanceBucketClock, testVars } from "../helpers/platform";

const EXTENSION = "urn:medparts:params:scim:schemas:extension:medparts:2.0:User";
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@riverside.example`;

async function createUser(tenantId: number, user: Record<string, unknown>) {
  const res = await scim(await scimTokenFor(tenantId), "/Users", { method: "POST", body: user });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<Record<string, any>>();
}

const entraUser = (userName: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
  externalId: crypto.randomUUID(),
  userName,
  active: true,
  displayName: "Jane Doe",
  name: { formatted: "Jane Doe", familyName: "Doe", givenName: "Jane" },
  emails: [{ primary: true, type: "work", value: userName }],
  title: "Biomedical technician",
  "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "Biomed" },
});

describe("SCIM Users: provisioning", () => {
  it("creates a user (201, Location, a contact id assigned) whom the customer API then finds by userName", async () => {
    const userName = unique("jdoe");
    const res = await scim(await scimTokenFor(TENANT_A), "/Users", { method: "POST", body: entraUser(userName) });
    expect(res.status).toBe(201);
    expect(res.headers.get("Content-Type")).toBe("application/scim+json");
    const user = await res.json<Record<string, any>>();
    expect(res.headers.get("Location")).toBe(`https://medparts.test/scim/v2/Users/${user.id}`);
    expect(user).toMatchObject({
      userName,
      active: true,
      name: { givenName: "Jane", familyName: "Doe", formatted: "Jane Doe" },
      emails: [{ value: userName, type: "work", primary: true }],
      title: "Biomedical technician",
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "Biomed" },
      meta: { resourceType: "User", location: `https://medparts.test/scim/v2/Users/${user.id}` },
    });
    expect(user[EXTENSION].contactId).toEqual(expect.any(Number));
    const lookup = await call(await tokenFor(TENANT_A), `/users/lookup?loginUserId=${encodeURIComponent(userName.toUpperCase())}`);
    expect(lookup.status).toBe(200);
    expect((await json(lookup)).data).toMatchObject({
      userId: Number(user.id),
      contactId: user[EXTENSION].contactId,
      loginUserId: userName,
      firstName: "Jane",
      lastName: "Doe",
      email: userName,
    });
    const read = await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`);
    expect(await read.json()).toEqual(user);
  });

  it("userName is unique in the tenant case-insensitively (409 uniqueness); another tenant may hold the same name", async () => {
    const userName = unique("dup");
    await createUser(TENANT_A, entraUser(userName));
    await expectScimError(
      await scim(await scimTokenFor(TENANT_A), "/Users", { method: "POST", body: entraUser(userName.toUpperCase()) }),
      409,
      "uniqueness",
    );
    const other = await createUser(TENANT_B, entraUser(userName));
    expect(other.userName).toBe(userName);
  });

  it("20 concurrent creates of one userName: exactly one 201, the others 409 uniqueness, one row", async () => {
    const userName = unique("race");
    const token = await scimTokenFor(TENANT_A);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => scim(token, "/Users", { method: "POST", body: entraUser(userName) })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE user_name = ?").bind(userName).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it("refuses bad input with SCIM error bodies, writing nothing", async () => {
    const token = await scimTokenFor(TENANT_A);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    await expectScimError(await scim(token, "/Users", { method: "POST", body: { name: { givenName: "No" } } }), 400, "invalidValue");
    await expectScimError(await scim(token, "/Users", { method: "POST", body: { userName: "   " } }), 400, "invalidValue");
    await expectScimError(
      await scim(token, "/Users", { method: "POST", body: { userName: "x", emails: [{ value: "not-an-email" }] } }),
      400,
      "invalidValue",
    );
    await expectScimError(await scim(token, "/Users", { method: "POST", body: [1, 2] }), 400, "invalidSyntax");
    const raw = (contentType: string, body: string) =>
      SELF.fetch("https://medparts.test/scim/v2/Users", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
        body,
      });
    await expectScimError(await raw("application/scim+json", "{ not json"), 400, "invalidSyntax");
    await expectScimError(await raw("text/plain", JSON.stringify({ userName: "plain" })), 415);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });
  it("ill-formed text (a lone surrogate) is a 400 invalidValue anywhere, never stored as U+FFFD; U+FFFD itself is text like any other", async () => {
    const token = await scimTokenFor(TENANT_A);
    const suffix = crypto.randomUUID().slice(0, 8);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    for (const userName of [`\ud800x-${suffix}`, `\udfffx-${suffix}`]) {
      const body = await expectScimError(await scim(token, "/Users", { method: "POST", body: { userName } }), 400, "invalidValue");
      expect(body.detail).toContain("userName");
    }
    await expectScimError(
      await scim(token, "/Users", { method: "POST", body: { userName: unique("given"), name: { givenName: "Jo\udc00" } } }),
      400,
      "invalidValue",
    );
    await expectScimError(await scim(token, "/Groups", { method: "POST", body: { displayName: `\ud83d-${suffix}` } }), 400, "invalidValue");
    await expectScimError(
      await scim(token, "/Users", { method: "POST", body: JSON.parse(`{"userName":"${unique("proto")}","__proto__":{"x":1}}`) }),
      400,
      "invalidValue",
    );
    expect((await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>())!.n).toBe(before!.n);
    const user = await createUser(TENANT_A, { userName: `\ufffd\ufffd\ufffdx-${suffix}` });
    expect(user.userName).toBe(`\ufffd\ufffd\ufffdx-${suffix}`);
    await expectScimError(
      await scim(token, "/Users", { method: "POST", body: { userName: `\ufffd\ufffd\ufffdx-${suffix}` } }),
      409,
      "uniqueness",
    );
    const patched = await scim(token, `/Users/${user.id}`, {
      method: "PATCH",
      body: { Operations: [{ op: "replace", path: "name.givenName", value: "\ud800" }] },
    });
    await expectScimError(patched, 400, "invalidValue");
    const row = await env.DB.prepare("SELECT first_name, version FROM users WHERE id = ?").bind(Number(user.id)).first();
    expect(row).toEqual({ first_name: "", version: 1 });
  });
});

describe("SCIM Users: PATCH as Entra ID and Okta send it", () => {
  const patch = async (id: string, operations: unknown[]) =>
    scim(await scimTokenFor(TENANT_A), `/Users/${id}`, {
      method: "PATCH",
      body: { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: operations },
    });

  it('"Replace", "Add" and active "False"; a path-less value object of paths; emails[type eq "work"].value', async () => {
    const user = await createUser(TENANT_A, entraUser(unique("patch")));
    const res = await patch(user.id, [
      { op: "Replace", path: "active", value: "False" },
      { op: "Add", value: { "name.givenName": "Janet", displayName: "Janet Doe" } },
      { op: "replace", path: 'emails[type eq "work"].value', value: "janet@riverside.example" },
      { op: "Add", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Imaging" },
    ]);
    expect(res.status, await res.clone().text()).toBe(200);
    const patched = await res.json<Record<string, any>>();
    expect(patched).toMatchObject({
      active: false,
      displayName: "Janet Doe",
      name: { givenName: "Janet", familyName: "Doe" },
      emails: [{ value: "janet@riverside.example", type: "work", primary: true }],
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "Imaging" },
    });
    expect(patched.meta.version).not.toBe(user.meta.version);
    const row = await env.DB.prepare("SELECT active, first_name, email FROM users WHERE id = ?").bind(Number(user.id)).first();
    expect(row).toEqual({ active: 0, first_name: "Janet", email: "janet@riverside.example" });
  });

  it("Okta's path-less replace of active, and an add that creates a missing work e-mail", async () => {
    const user = await createUser(TENANT_A, { userName: unique("okta"), name: { givenName: "O", familyName: "K" } });
    const res = await patch(user.id, [
      { op: "replace", value: { active: false } },
      { op: "add", path: 'emails[type eq "work"].value', value: "ok@riverside.example" },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ active: false, emails: [{ type: "work", value: "ok@riverside.example" }] });
  });

  it("refuses unknown ops, malformed paths and invalid results with SCIM errors, changing nothing", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("bad")));
    await expectScimError(await patch(user.id, [{ op: "move", path: "active", value: true }]), 400, "invalidSyntax");
    await expectScimError(await patch(user.id, [{ op: "replace", path: "emails[type eq", value: "x" }]), 400, "invalidPath");
    await expectScimError(await patch(user.id, [{ op: "remove" }]), 400, "noTarget");
    await expectScimError(await patch(user.id, [{ op: "replace", path: "userName", value: "" }]), 400, "invalidValue");
    await expectScimError(
      await patch(user.id, [
        { op: "replace", path: "active", value: false },
        { op: "replace", path: "active", value: "maybe" },
      ]),
      400,
      "invalidValue",
    );
    await expectScimError(await patch("999999999", [{ op: "replace", path: "active", value: false }]), 404);
    const row = await env.DB.prepare("SELECT active, version FROM users WHERE id = ?").bind(Number(user.id)).first();
    expect(row).toEqual({ active: 1, version: 1 });
  });

  it("PUT replaces the whole user; readOnly contactId is ignored; renaming onto another user's name is a 409", async () => {
    const first = await createUser(TENANT_A, entraUser(unique("put")));
    const second = await createUser(TENANT_A, entraUser(unique("put")));
    const token = await scimTokenFor(TENANT_A);
    const replaced = await scim(token, `/Users/${first.id}`, {
      method: "PUT",
      body: { userName: first.userName, name: { givenName: "Only" }, [EXTENSION]: { contactId: 1 } },
    });
    expect(replaced.status).toBe(200);
    const body = await replaced.json<Record<string, any>>();
    expect(body.name).toEqual({ givenName: "Only" });
    expect(body.emails).toBeUndefined();
    expect(body.title).toBeUndefined();
    expect(body[EXTENSION].contactId).toBe(first[EXTENSION].contactId);
    await expectScimError(
      await scim(token, `/Users/${first.id}`, { method: "PUT", body: { userName: second.userName } }),
      409,
      "uniqueness",
    );
  });
});

describe("SCIM Users: filters and paging", () => {
  it("eq (case-insensitive), and, or, sw, co, pr, not; 1-based startIndex and count; totalResults", async () => {
    const token = await scimTokenFor(TENANT_A);
    const stem = `page-${crypto.randomUUID().slice(0, 6)}`;
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push(await createUser(TENANT_A, { ...entraUser(`${stem}-${i}@riverside.example`), active: i !== 4 }));
    const list = async (query: string) => {
      const res = await scim(token, `/Users?${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return res.json<Record<string, any>>();
    };
    const byName = await list(`filter=${encodeURIComponent(`userName eq "${stem.toUpperCase()}-1@RIVERSIDE.EXAMPLE"`)}`);
    expect(byName).toMatchObject({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(byName.Resources[0].id).toBe(created[1]!.id);
    const startsWith = `userName sw "${stem}"`;
    expect((await list(`filter=${encodeURIComponent(startsWith)}`)).totalResults).toBe(5);
    expect((await list(`filter=${encodeURIComponent(`${startsWith} and active eq false`)}`)).Resources.map((u: any) => u.id)).toEqual([
      created[4]!.id,
    ]);
    expect((await list(`filter=${encodeURIComponent(`${startsWith} and not (active eq true)`)}`)).totalResults).toBe(1);
    expect(
      (await list(`filter=${encodeURIComponent(`userName co "${stem}-3" or userName eq "${created[0]!.userName}"`)}`)).totalResults,
    ).toBe(2);
    expect((await list(`filter=${encodeURIComponent(`externalId eq "${created[2]!.externalId}"`)}`)).Resources[0].id).toBe(created[2]!.id);
    expect((await list(`filter=${encodeURIComponent(`emails[type eq "work" and value co "${stem}-2"]`)}`)).totalResults).toBe(1);
    const page = await list(`filter=${encodeURIComponent(startsWith)}&startIndex=2&count=2`);
    expect(page).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((u: any) => u.id)).toEqual([created[1]!.id, created[2]!.id]);
    const countOnly = await list(`filter=${encodeURIComponent(startsWith)}&count=0`);
    expect(countOnly).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    const projected = await list(`filter=${encodeURIComponent(startsWith)}&count=1&attributes=userName`);
    expect(Object.keys(projected.Resources[0]).sort()).toEqual(["id", "meta", "schemas", "userName"]);
  });

  it("a filter that is not one, or names an attribute that cannot be filtered, is a 400 invalidFilter", async () => {
    const token = await scimTokenFor(TENANT_A);
    for (const filter of [
      'userName eq "x',
      "userName zz 1",
      'title eq "x"',
      "active gt true",
      'userName eq "a" and',
      `${"(".repeat(30)}x`,
    ]) {
      await expectScimError(await scim(token, `/Users?filter=${encodeURIComponent(filter)}`), 400, "invalidFilter");
    }
  });
});

describe("SCIM Users: deprovisioning and deletion", () => {
  const remembering = (seconds: number) => ({ headers: testVars({ USER_PROFILE_CACHE_SECONDS: seconds }) });

  it("a deactivated user is no requester at once (catalog detail 403), and lookup says so within its remembered TTL", async () => {
    forgetUserProfiles();
    const user = await createUser(TENANT_A, entraUser(unique("leaver")));
    await env.DB.prepare("INSERT INTO user_facilities (user_id, facility_id) VALUES (?, 1001)").bind(Number(user.id)).run();
    // The grant written in the directory's master (DB) reaches the tenant's stores with the push, as an operator's would.
    await pushDirectoryChanges(env);
    const token = await tokenFor(TENANT_A);
    const detail = () =>
      call(token, "/catalog/detail", {
        method: "POST",
        json: { productId: "MP-0000001", facilityId: 1001, requesterId: user[EXTENSION].contactId },
      });
    expect((await detail()).status).toBe(200);
    expect((await call(token, `/users/lookup?userId=${user.id}`, remembering(1))).status).toBe(200);
    const off = await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`, {
      method: "PATCH",
      body: { Operations: [{ op: "Replace", path: "active", value: "False" }] },
    });
    expect(off.status).toBe(200);
    await expectProblem(await detail(), 403);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const lookup = await expectProblem(await call(token, `/users/lookup?userId=${user.id}`, remembering(1)), 403);
    expect(lookup.detail).toContain("deactivated");
    const search = await json(await call(token, `/users/search?q=${encodeURIComponent(`userName:"${user.userName}"`)}`));
    expect(search.data.items ?? search.data).toHaveLength(0);
    forgetUserProfiles();
  });

  it("DELETE: 204, then 404 on SCIM and the customer API; the userName is free again; orders that name it keep it", async () => {
    const token = await scimTokenFor(TENANT_A);
    const user = await createUser(TENANT_A, entraUser(unique("gone")));
    const deleted = await scim(token, `/Users/${user.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    await expectScimError(await scim(token, `/Users/${user.id}`), 404);
    await expectScimError(await scim(token, `/Users/${user.id}`, { method: "DELETE" }), 404);
    await expectProblem(await call(await tokenFor(TENANT_A), `/users/lookup?userId=${user.id}`), 404);
    const again = await createUser(TENANT_A, entraUser(user.userName));
    expect(again.id).not.toBe(user.id);
    expect(await env.DB.prepare("SELECT deleted_at IS NOT NULL AS gone FROM users WHERE id = ?").bind(Number(user.id)).first()).toEqual({
      gone: 1,
    });
  });
});

describe("SCIM: tokens, tenants and errors", () => {
  it("tenant B's token never sees tenant A's users: 404 by id, nothing by filter, no PATCH or DELETE", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("isolated")));
    const tokenB = await scimTokenFor(TENANT_B);
    await expectScimError(await scim(tokenB, `/Users/${user.id}`), 404);
    await expectScimError(
      await scim(tokenB, `/Users/${user.id}`, { method: "PATCH", body: { Operations: [{ op: "replace", path: "active", value: false }] } }),
      404,
    );
    await expectScimError(await scim(tokenB, `/Users/${user.id}`, { method: "PUT", body: { userName: "taken" } }), 404);
    await expectScimError(await scim(tokenB, `/Users/${user.id}`, { method: "DELETE" }), 404);
    const found = await (await scim(tokenB, `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`)).json<
      Record<string, any>
    >();
    expect(found.totalResults).toBe(0);
    expect(await env.DB.prepare("SELECT active, deleted_at FROM users WHERE id = ?").bind(Number(user.id)).first()).toEqual({
      active: 1,
      deleted_at: null,
    });
  });

  it("no token, a malformed one, an unknown one, a revoked one: 401 in SCIM's form; an operator or buyer token is no SCIM token", async () => {
    await expectScimError(await scim(null, "/Users"), 401);
    await expectScimError(await scim("mpscim_short", "/Users"), 401);
    await expectScimError(await scim(`mpscim_${"A".repeat(43)}`, "/Users"), 401);
    await expectScimError(await scim(await operatorTokenFor(), "/Users"), 401);
    await expectScimError(await scim(await tokenFor(TENANT_A), "/Users"), 401);
    const operator = await operatorTokenFor();
    const issued = await json(
      await call(operator, `/admin/api/tenants/${TENANT_A}/scim-tokens`, { method: "POST", json: { name: "Okta" } }),
    );
    expect(issued.data).toMatchObject({
      scimBaseUrl: "https://medparts.test/scim/v2",
      scimToken: { tenantId: TENANT_A, name: "Okta", revokedAt: null },
    });
    expect((await scim(issued.data.token, "/ServiceProviderConfig")).status).toBe(200);
    const revoked = await call(operator, `/admin/api/tenants/${TENANT_A}/scim-tokens/${issued.data.scimToken.tokenId}/revoke`, {
      method: "POST",
    });
    expect(revoked.status).toBe(200);
    await expectScimError(await scim(issued.data.token, "/Users"), 401);
    const listed = await json(await call(operator, `/admin/api/tenants/${TENANT_A}/scim-tokens`));
    expect(JSON.stringify(listed)).not.toContain(issued.data.token);
    await expectProblem(
      await call(operator, `/admin/api/tenants/${TENANT_B}/scim-tokens/${issued.data.scimToken.tokenId}/revoke`, { method: "POST" }),
      404,
    );
  });

  it("discovery: ServiceProviderConfig, ResourceTypes and Schemas; an unknown SCIM path is a SCIM 404", async () => {
    const token = await scimTokenFor(TENANT_A);
    const config = await (await scim(token, "/ServiceProviderConfig")).json<Record<string, any>>();
    expect(config).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 200 }, bulk: { supported: false } });
    const types = await (await scim(token, "/ResourceTypes")).json<Record<string, any>>();
    expect(types.Resources.map((t: any) => t.endpoint)).toEqual(["/Users", "/Groups"]);
    const schemas = await (await scim(token, "/Schemas")).json<Record<string, any>>();
    expect(schemas.Resources.map((s: any) => s.id)).toContain("urn:ietf:params:scim:schemas:core:2.0:User");
    await expectScimError(await scim(token, "/Bulk", { method: "POST", body: {} }), 404);
  });

  it("every change is audited with the SCIM token as the actor", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("audited")));
    await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`, {
      method: "PATCH",
      body: { Operations: [{ op: "replace", path: "active", value: false }] },
    });
    const entries = (await json(await call(await operatorTokenFor(), `/admin/api/audit?targetId=${user.id}`))).data.entries as any[];
    const ours = entries.filter((e) => e.targetType === "user");
    expect(ours.map((e) => e.action)).toEqual(["user.deactivated", "user.created"]);
    expect(ours[0].actor).toMatch(/^scim:\d+$/);
    expect(ours[0].before.active).toBe(true);
    expect(ours[0].after.active).toBe(false);
  });

  it("a token that spent its bucket gets a SCIM 429 with Retry-After; another token of the tenant does not, and it recovers", async () => {
    const newToken = async () => {
      const res = await call(await operatorTokenFor(), `/admin/api/tenants/${TENANT_A}/scim-tokens`, {
        method: "POST",
        json: { name: "burst" },
      });
      const issued = ((await res.json()) as { data: { token: string; scimToken: { tokenId: number } } }).data;
      return { token: issued.token, id: issued.scimToken.tokenId };
    };
    const [spent, other] = [await newToken(), await newToken()];
    // Burst 2, one request a second.
    const limited = (token: string) =>
      SELF.fetch(`${BASE_URL}/scim/v2/Users?count=1`, {
        headers: { Authorization: `Bearer ${token}`, ...testVars({ SCIM_RATE_LIMIT_BURST: 2, SCIM_RATE_LIMIT_PER_MINUTE: 60 }) },
      });
    const first = await limited(spent.token);
    expect(first.status).toBe(200);
    expect(first.headers.get("RateLimit-Limit")).toBe("2");
    expect((await limited(spent.token)).status).toBe(200);
    const refused = await limited(spent.token);
    const body = await expectScimError(refused, 429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(String(body.detail)).toMatch(/SCIM token/);
    expect((await limited(other.token)).status).toBe(200);
    await advanceBucketClock(bucketKey.scimToken(spent.id), 1000);
    expect((await limited(spent.token)).status).toBe(200);
  });
});

describe("SCIM: discovery, schemas and PatchOp as RFC 7643 and 7644 require", () => {
  const CORE_USER = "urn:ietf:params:scim:schemas:core:2.0:User";
  const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
  const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
  const patch = async (id: string, operations: unknown[], schemas: unknown = [PATCH_OP]) =>
    scim(await scimTokenFor(TENANT_A), `/Users/${id}`, { method: "PATCH", body: { schemas, Operations: operations } });
  const stored = (id: string) =>
    env.DB.prepare("SELECT user_name, first_name, active, scim, updated_at, version FROM users WHERE id = ?").bind(Number(id)).first();

  it("serves each resource type and schema by its id, as the lists show them; an unknown one is a SCIM 404", async () => {
    const token = await scimTokenFor(TENANT_A);
    const types = await (await scim(token, "/ResourceTypes")).json<Record<string, any>>();
    const schemas = await (await scim(token, "/Schemas")).json<Record<string, any>>();
    for (const type of types.Resources) {
      const res = await scim(token, `/ResourceTypes/${type.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/scim+json");
      expect(await res.json()).toEqual(type);
    }
    expect(types.Resources.map((t: any) => t.id)).toEqual(["User", "Group"]);
    expect(types.Resources[0].schemaExtensions.map((e: any) => e.schema)).toContain(ENTERPRISE);
    for (const schema of schemas.Resources) {
      const res = await scim(token, `/Schemas/${schema.id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(schema);
      expect(schema.meta.location).toBe(`https://medparts.test/scim/v2/Schemas/${schema.id}`);
    }
    const user = await (await scim(token, `/Schemas/${CORE_USER}`)).json<Record<string, any>>();
    expect(user.attributes.map((a: any) => a.name)).toEqual(expect.arrayContaining(["userName", "title", "phoneNumbers", "addresses"]));
    await expectScimError(await scim(token, "/ResourceTypes/Device"), 404);
    await expectScimError(await scim(token, "/Schemas/urn:ietf:params:scim:schemas:core:2.0:Device"), 404);
  });

  it("a User whose schemas lacks the core User URN, names an undeclared schema or is no list of strings is a 400, as is an undeclared attribute", async () => {
    const token = await scimTokenFor(TENANT_A);
    const userName = unique("schemas");
    for (const schemas of [
      ["urn:ietf:params:scim:schemas:core:2.0:Group"],
      ["urn:evil"],
      [CORE_USER, 7],
      [CORE_USER, "urn:okta:custom:1.0:User"],
      [],
      CORE_USER,
    ]) {
      await expectScimError(await scim(token, "/Users", { method: "POST", body: { schemas, userName } }), 400, "invalidSyntax");
    }
    for (const extra of [{ favouriteColour: "green" }, { name: { nickname: "Jo" } }, { "urn:okta:custom:1.0:User": { badge: "1" } }]) {
      const body = await expectScimError(
        await scim(token, "/Users", { method: "POST", body: { schemas: [CORE_USER], userName, ...extra } }),
        400,
        "invalidValue",
      );
      expect(body.detail).toMatch(/no schema of a User declares it/);
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE user_name = ?").bind(userName).first()).toEqual({ n: 0 });
    const created = await createUser(TENANT_A, { schemas: [CORE_USER.toUpperCase(), ENTERPRISE], userName, title: "Nurse" });
    await expectScimError(
      await scim(token, `/Users/${created.id}`, { method: "PUT", body: { schemas: ["urn:evil"], userName } }),
      400,
      "invalidSyntax",
    );
    expect((await stored(created.id))!.version).toBe(1);
  });

  it("a PATCH body that is no PatchOp (a User's schemas) is a 400 and changes nothing", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("patchop")));
    for (const schemas of [[CORE_USER], ["urn:evil"], [PATCH_OP, CORE_USER], PATCH_OP, []]) {
      await expectScimError(await patch(user.id, [{ op: "replace", path: "active", value: false }], schemas), 400, "invalidSyntax");
    }
    expect(await stored(user.id)).toMatchObject({ active: 1, version: 1 });
  });

  it("PATCH is atomic: a failing operation after valid ones is a 400, nothing applied, the version and lastModified unchanged", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("atomic")));
    const before = await stored(user.id);
    const failing: [unknown, string][] = [
      [{ op: "replace", path: "favouriteColour", value: "green" }, "invalidPath"],
      [{ op: "replace", path: "active", value: "maybe" }, "invalidValue"],
      [{ op: "remove", path: "id" }, "mutability"],
      [{ op: "add", path: 'emails[type eq "home" or type eq "other"].value', value: "x@riverside.example" }, "noTarget"],
    ];
    for (const [operation, scimType] of failing) {
      await expectScimError(
        await patch(user.id, [
          { op: "replace", path: "name.givenName", value: "Changed" },
          { op: "replace", path: "active", value: false },
          operation,
        ]),
        400,
        scimType,
      );
    }
    expect(await stored(user.id)).toEqual(before);
    const read = await (await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`)).json<Record<string, any>>();
    expect(read.meta).toEqual(user.meta);
  });

  it("a path no schema declares is a 400 invalidPath, path-less or not; declared ones (core, enterprise) still apply", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("paths")));
    for (const operation of [
      { op: "replace", path: "favouriteColour", value: "green" },
      { op: "add", path: "name.nickname", value: "Jo" },
      { op: "add", path: "urn:okta:custom:1.0:User:badge", value: "1" },
      { op: "add", path: `${ENTERPRISE}:shoeSize`, value: "9" },
      { op: "replace", path: 'displayName[value eq "x"]', value: "y" },
      { op: "replace", value: { favouriteColour: "green" } },
      { op: "add", value: { "urn:okta:custom:1.0:User": { badge: "1" } } },
      { op: "remove", path: "favouriteColour" },
    ]) {
      await expectScimError(await patch(user.id, [operation]), 400, "invalidPath");
    }
    expect((await stored(user.id))!.version).toBe(1);
    const res = await patch(user.id, [
      { op: "add", path: "nickName", value: "Jo" },
      { op: "add", path: `${ENTERPRISE}:manager.value`, value: "42" },
    ]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ nickName: "Jo", [ENTERPRISE]: { department: "Biomed", manager: { value: "42" } } });
  });

  it("a PATCH of a readOnly attribute (id, contactId, groups) is a 400 mutability, nothing changed; its own value is no change", async () => {
    const user = await createUser(TENANT_A, entraUser(unique("readonly")));
    const contactId = user[EXTENSION].contactId as number;
    for (const operation of [
      { op: "replace", path: "id", value: "12345" },
      { op: "replace", value: { id: "12345", displayName: "Changed" } },
      { op: "replace", path: `${EXTENSION}:contactId`, value: contactId + 1 },
      { op: "replace", value: { [EXTENSION]: { contactId: contactId + 1 } } },
      { op: "remove", path: `${EXTENSION}:contactId` },
      { op: "add", path: "groups", value: [{ value: "1" }] },
      { op: "replace", path: "meta.version", value: 'W/"9"' },
    ]) {
      await expectScimError(await patch(user.id, [operation]), 400, "mutability");
    }
    expect((await stored(user.id))!.version).toBe(1);
    const read = await (await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`)).json<Record<string, any>>();
    expect(read.meta).toEqual(user.meta);
    const same = await patch(user.id, [{ op: "replace", value: { id: user.id, [EXTENSION]: { contactId }, displayName: "Renamed" } }]);
    expect(same.status, await same.clone().text()).toBe(200);
    expect(await same.json()).toMatchObject({ id: user.id, displayName: "Renamed", [EXTENSION]: { contactId } });
  });
});
