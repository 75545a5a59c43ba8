import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
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

const GROUP_EXTENSION = "urn:medparts:params:scim:schemas:extension:medparts:2.0:Group";
const USER_EXTENSION = "urn:medparts:params:scim:schemas:extension:medparts:2.0:User";

async function newUser(tenantId = TENANT_A) {
  const res = await scim(await scimTokenFor(tenantId), "/Users", {
    method: "POST",
    body: { userName: `g-${crypto.randomUUID().slice(0, 8)}@riverside.example`, name: { givenName: "G", familyName: "Member" } },
  });
  expect(res.status).toBe(201);
  return res.json<Record<string, any>>();
}

async function newGroup(body: Record<string, unknown>, tenantId = TENANT_A) {
  const res = await scim(await scimTokenFor(tenantId), "/Groups", { method: "POST", body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<Record<string, any>>();
}

const patchGroup = async (id: string, operations: unknown[], tenantId = TENANT_A) =>
  scim(await scimTokenFor(tenantId), `/Groups/${id}`, {
    method: "PATCH",
    body: { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: operations },
  });

/** The facilities the customer API says the user may order for. */
const facilitiesOf = async (userId: string) => {
  const res = await call(await tokenFor(TENANT_A), `/users/lookup?userId=${userId}`);
  expect(res.status).toBe(200);
  return ((await json(res)).data.companies as { facilities: { id: number }[] }[]).flatMap((c) => c.facilities.map((f) => f.id));
};

describe("SCIM Groups: facility access", () => {
  it("a group named after a facility grants it to its members; removing a member or the group takes it away", async () => {
    const user = await newUser();
    const detail = async () =>
      call(await tokenFor(TENANT_A), "/catalog/detail", {
        method: "POST",
        json: { productId: "MP-0000001", facilityId: 1002, requesterId: user[USER_EXTENSION].contactId },
      });
    await expectProblem(await detail(), 403);
    const group = await newGroup({ displayName: "biomedical engineering", externalId: "entra-1", members: [{ value: user.id }] });
    expect(group[GROUP_EXTENSION].facilityId).toBe(1002);
    expect(group.members).toEqual([
      { value: user.id, display: user.userName, type: "User", $ref: `https://medparts.test/scim/v2/Users/${user.id}` },
    ]);
    expect(await facilitiesOf(user.id)).toEqual([1002]);
    expect((await detail()).status).toBe(200);

    const removed = await patchGroup(group.id, [{ op: "Remove", path: `members[value eq "${user.id}"]` }]);
    expect(removed.status).toBe(200);
    expect((await removed.json<Record<string, any>>()).members).toEqual([]);
    await expectProblem(await detail(), 403);
    expect(await facilitiesOf(user.id)).toEqual([]);

    expect((await patchGroup(group.id, [{ op: "Add", path: "members", value: [{ value: user.id }] }])).status).toBe(200);
    expect((await detail()).status).toBe(200);
    expect((await scim(await scimTokenFor(TENANT_A), `/Groups/${group.id}`, { method: "DELETE" })).status).toBe(204);
    await expectProblem(await detail(), 403);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM scim_group_members WHERE group_id = ?").bind(Number(group.id)).first()).toEqual({
      n: 0,
    });
  });

  it("a group naming no facility grants nothing until the operator creates one of that name (or externalId)", async () => {
    const user = await newUser();
    const name = `FAC-${crypto.randomUUID().slice(0, 8)}`;
    const group = await newGroup({ displayName: name, members: [{ value: user.id }] });
    expect(group[GROUP_EXTENSION].facilityId).toBeNull();
    expect(await facilitiesOf(user.id)).toEqual([]);
    const created = await call(await operatorTokenFor(), "/admin/api/facilities", {
      method: "POST",
      json: { externalId: name, companyId: 103, name: "New wing" },
    });
    expect(created.status).toBe(201);
    const facilityId = (await json(created)).data.facilityId as number;
    const read = await (await scim(await scimTokenFor(TENANT_A), `/Groups/${group.id}`)).json<Record<string, any>>();
    expect(read[GROUP_EXTENSION].facilityId).toBe(facilityId);
    expect(await facilitiesOf(user.id)).toEqual([facilityId]);
    await scim(await scimTokenFor(TENANT_A), `/Groups/${group.id}`, { method: "DELETE" });
  });

  it("Entra ID's flow: find by displayName (excludedAttributes=members), rename, add and remove members by value lists", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const name = `grp-${crypto.randomUUID().slice(0, 8)}`;
    const group = await newGroup({ displayName: name });
    const token = await scimTokenFor(TENANT_A);
    const found = await (
      await scim(token, `/Groups?filter=${encodeURIComponent(`displayName eq "${name.toUpperCase()}"`)}&excludedAttributes=members`)
    ).json<Record<string, any>>();
    expect(found.totalResults).toBe(1);
    expect(found.Resources[0].members).toBeUndefined();
    const res = await patchGroup(group.id, [
      { op: "Add", path: "members", value: [{ value: a.id }, { value: b.id }] },
      { op: "Replace", path: "displayName", value: `${name}-renamed` },
      { op: "Remove", path: "members", value: [{ value: a.id }] },
    ]);
    expect(res.status, await res.clone().text()).toBe(200);
    const patched = await res.json<Record<string, any>>();
    expect(patched.displayName).toBe(`${name}-renamed`);
    expect(patched.members.map((m: any) => m.value)).toEqual([b.id]);
    const byMember = await (await scim(token, `/Groups?filter=${encodeURIComponent(`members.value eq "${b.id}"`)}`)).json<
      Record<string, any>
    >();
    expect(byMember.Resources.map((g: any) => g.id)).toEqual([group.id]);
    const put = await scim(token, `/Groups/${group.id}`, { method: "PUT", body: { displayName: name, members: [{ value: a.id }] } });
    expect((await put.json<Record<string, any>>()).members.map((m: any) => m.value)).toEqual([a.id]);
    await scim(token, `/Groups/${group.id}`, { method: "DELETE" });
  });

  it("members must be users of the tenant (400, nothing written); names are unique per tenant (409); B never sees A's groups", async () => {
    const foreign = await newUser(TENANT_B);
    const token = await scimTokenFor(TENANT_A);
    const name = `grp-${crypto.randomUUID().slice(0, 8)}`;
    const refused = await scim(token, "/Groups", { method: "POST", body: { displayName: name, members: [{ value: foreign.id }] } });
    expect(refused.status).toBe(400);
    expect((await refused.json<Record<string, any>>()).scimType).toBe("invalidValue");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM scim_groups WHERE display_name = ?").bind(name).first()).toEqual({ n: 0 });
    const group = await newGroup({ displayName: name });
    const duplicate = await scim(token, "/Groups", { method: "POST", body: { displayName: name.toUpperCase() } });
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json<Record<string, any>>()).scimType).toBe("uniqueness");
    expect((await patchGroup(group.id, [{ op: "add", path: "members", value: [{ value: foreign.id }] }])).status).toBe(400);
    const tokenB = await scimTokenFor(TENANT_B);
    expect((await scim(tokenB, `/Groups/${group.id}`)).status).toBe(404);
    expect((await patchGroup(group.id, [{ op: "add", path: "members", value: [{ value: foreign.id }] }], TENANT_B)).status).toBe(404);
    expect((await scim(tokenB, `/Groups/${group.id}`, { method: "DELETE" })).status).toBe(404);
    const listB = await (await scim(tokenB, `/Groups?filter=${encodeURIComponent(`displayName eq "${name}"`)}`)).json<
      Record<string, any>
    >();
    expect(listB.totalResults).toBe(0);
    expect((await newGroup({ displayName: name }, TENANT_B)).displayName).toBe(name);
  });
});

describe("SCIM Groups: schemas and atomic PATCH (RFC 7644 3.5.2)", () => {
  it("schemas lacking the core Group URN is a 400; a failing operation undoes the others; readOnly and undeclared paths are refused", async () => {
    const token = await scimTokenFor(TENANT_A);
    const name = `atomic-${crypto.randomUUID().slice(0, 8)}`;
    await expectScimError(
      await scim(token, "/Groups", {
        method: "POST",
        body: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], displayName: name },
      }),
      400,
      "invalidSyntax",
    );
    const group = await newGroup({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: name });
    const member = await newUser();
    const valid = [
      { op: "replace", path: "displayName", value: `${name}-renamed` },
      { op: "add", path: "members", value: [{ value: member.id }] },
    ];
    for (const [operation, scimType] of [
      [{ op: "replace", path: "owner", value: "x" }, "invalidPath"],
      [{ op: "add", path: "urn:okta:custom:1.0:Group:badge", value: "x" }, "invalidPath"],
      [{ op: "replace", path: `${GROUP_EXTENSION}:facilityId`, value: 1 }, "mutability"],
      [{ op: "replace", value: { id: "999999999" } }, "mutability"],
      [{ op: "replace", path: 'members[value eq "1"].display', value: "x" }, "mutability"],
      [{ op: "remove", path: "displayName" }, "mutability"],
    ] as const) {
      await expectScimError(await patchGroup(group.id, [...valid, operation]), 400, scimType);
    }
    await expectScimError(
      await scim(token, `/Groups/${group.id}`, {
        method: "PATCH",
        body: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], Operations: valid },
      }),
      400,
      "invalidSyntax",
    );
    const row = await env.DB.prepare("SELECT display_name, updated_at, version FROM scim_groups WHERE id = ?")
      .bind(Number(group.id))
      .first();
    expect(row).toEqual({ display_name: name, updated_at: group.meta.lastModified, version: 1 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM scim_group_members WHERE group_id = ?").bind(Number(group.id)).first()).toEqual({
      n: 0,
    });
    const applied = await patchGroup(group.id, valid);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ displayName: `${name}-renamed`, members: [{ value: member.id }] });
  });
});
