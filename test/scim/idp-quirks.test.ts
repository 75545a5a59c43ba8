import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, json, operatorTokenFor, scim, scimTokenFor, TENANT_A, tokenFor } from "../helpers/api";

/** What identity providers send beyond the RFC's examples, and the edges of filters and projections. */

const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const GROUP_EXTENSION = "urn:medparts:params:scim:schemas:extension:medparts:2.0:Group";
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@riverside.example`;

async function create(kind: "Users" | "Groups", body: Record<string, unknown>) {
  const res = await scim(await scimTokenFor(TENANT_A), `/${kind}`, { method: "POST", body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<Record<string, any>>();
}
const patch = async (kind: "Users" | "Groups", id: string, operations: unknown[]) =>
  scim(await scimTokenFor(TENANT_A), `/${kind}/${id}`, { method: "PATCH", body: { Operations: operations } });
const list = async (query: string) => (await scim(await scimTokenFor(TENANT_A), `/Users?${query}`)).json<Record<string, any>>();

describe("SCIM: identity providers' quirks", () => {
  it("a password (Okta's password sync) is never stored nor answered", async () => {
    const user = await create("Users", { userName: unique("pw"), password: "P@ssw0rd-secret" });
    expect(JSON.stringify(user)).not.toContain("P@ssw0rd-secret");
    await patch("Users", user.id, [{ op: "replace", value: { password: "Another-secret-1" } }]);
    const row = await env.DB.prepare("SELECT scim FROM users WHERE id = ?").bind(Number(user.id)).first<{ scim: string }>();
    expect(row!.scim).not.toMatch(/secret/);
    expect(JSON.stringify(await (await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`)).json())).not.toMatch(/secret/);
  });

  it("replace of a complex attribute keeps the sub-attributes it does not name", async () => {
    const user = await create("Users", { userName: unique("name"), name: { givenName: "Jane", familyName: "Doe" } });
    const res = await patch("Users", user.id, [{ op: "replace", path: "name", value: { givenName: "Janet" } }]);
    expect((await res.json<Record<string, any>>()).name).toMatchObject({ givenName: "Janet", familyName: "Doe" });
  });

  it("value paths match case-insensitively; a new primary e-mail becomes the one the customer API shows", async () => {
    const user = await create("Users", {
      userName: unique("mail"),
      emails: [{ value: "old@riverside.example", type: "Work", primary: true }],
    });
    const replaced = await (
      await patch("Users", user.id, [{ op: "replace", path: 'emails[type eq "work"].value', value: "new@riverside.example" }])
    ).json<Record<string, any>>();
    expect(replaced.emails).toEqual([{ value: "new@riverside.example", type: "Work", primary: true }]);
    const added = await (
      await patch("Users", user.id, [
        { op: "add", path: "emails", value: [{ value: "home@riverside.example", type: "home", primary: true }] },
      ])
    ).json<Record<string, any>>();
    expect(added.emails.filter((e: any) => e.primary).map((e: any) => e.value)).toEqual(["home@riverside.example"]);
    const lookup = await json(await call(await tokenFor(TENANT_A), `/users/lookup?userId=${user.id}`));
    expect(lookup.data.email).toBe("home@riverside.example");
  });

  it("the enterprise extension as a path-less container: kept under its URN, and listed in schemas", async () => {
    const user = await create("Users", { userName: unique("ent") });
    const res = await patch("Users", user.id, [
      { op: "Replace", value: { [ENTERPRISE]: { department: "Imaging", employeeNumber: "42" } } },
    ]);
    const body = await res.json<Record<string, any>>();
    expect(body[ENTERPRISE]).toEqual({ department: "Imaging", employeeNumber: "42" });
    expect(body.schemas).toContain(ENTERPRISE);
  });

  it("a PUT or PATCH that leaves active out never reactivates a deprovisioned user", async () => {
    const user = await create("Users", { userName: unique("off"), active: false });
    const put = await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`, { method: "PUT", body: { userName: user.userName } });
    expect((await put.json<Record<string, any>>()).active).toBe(false);
    expect((await (await patch("Users", user.id, [{ op: "remove", path: "active" }])).json<Record<string, any>>()).active).toBe(false);
  });

  it("an attribute stored before only declared ones were taken is not answered, and does not block a PATCH", async () => {
    const user = await create("Users", { userName: unique("legacy"), title: "Nurse" });
    await env.DB.prepare("UPDATE users SET scim = json_set(scim, '$.favouriteColour', 'green') WHERE id = ?").bind(Number(user.id)).run();
    const read = await (await scim(await scimTokenFor(TENANT_A), `/Users/${user.id}`)).json<Record<string, any>>();
    expect(read.favouriteColour).toBeUndefined();
    expect(read.title).toBe("Nurse");
    const res = await patch("Users", user.id, [{ op: "replace", path: "title", value: "Head nurse" }]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ title: "Head nurse" });
  });

  it("Okta's group rename carries the group's id in its value: ignored, the rename applies", async () => {
    const group = await create("Groups", { displayName: `okta-${crypto.randomUUID().slice(0, 8)}` });
    const res = await patch("Groups", group.id, [{ op: "replace", value: { id: group.id, displayName: `${group.displayName}-renamed` } }]);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json<Record<string, any>>()).displayName).toBe(`${group.displayName}-renamed`);
  });
});

describe("SCIM: filter and projection edges", () => {
  it("not(...) keeps users whose attribute is missing; a filter of too many comparisons is a 400, not a D1 error", async () => {
    const stem = `edge-${crypto.randomUUID().slice(0, 6)}`;
    await create("Users", { userName: `${stem}-a@riverside.example`, externalId: "ext-a" });
    await create("Users", { userName: `${stem}-b@riverside.example` });
    const filter = `userName sw "${stem}" and not (externalId eq "ext-a")`;
    expect((await list(`filter=${encodeURIComponent(filter)}`)).totalResults).toBe(1);
    const many = Array.from({ length: 35 }, () => 'userName ew "x"').join(" or ");
    const res = await scim(await scimTokenFor(TENANT_A), `/Users?filter=${encodeURIComponent(many)}`);
    expect(res.status).toBe(400);
    expect((await res.json<Record<string, any>>()).scimType).toBe("invalidFilter");
    const nots = `${"not ".repeat(30)}(userName eq "x")`;
    expect((await scim(await scimTokenFor(TENANT_A), `/Users?filter=${encodeURIComponent(nots)}`)).status).toBe(400);
  });

  it("attributes and excludedAttributes take fully qualified names", async () => {
    const user = await create("Users", { userName: unique("proj") });
    const group = await create("Groups", { displayName: `proj-${crypto.randomUUID().slice(0, 8)}`, members: [{ value: user.id }] });
    const excluded = await (
      await scim(await scimTokenFor(TENANT_A), `/Groups/${group.id}?excludedAttributes=urn:ietf:params:scim:schemas:core:2.0:Group:members`)
    ).json<Record<string, any>>();
    expect(excluded.members).toBeUndefined();
    expect(excluded.displayName).toBe(group.displayName);
    const only = await list(
      `filter=${encodeURIComponent(`id eq "${user.id}"`)}&attributes=urn:ietf:params:scim:schemas:core:2.0:User:userName`,
    );
    expect(Object.keys(only.Resources[0]).sort()).toEqual(["id", "meta", "schemas", "userName"]);
  });
});

describe("SCIM groups and disabled facilities", () => {
  it("a disabled facility is granted by no group: its group moves to an enabled facility of that name, or to none", async () => {
    const name = `Wing-${crypto.randomUUID().slice(0, 8)}`;
    const admin = await operatorTokenFor();
    const facility = async () =>
      (
        await json(
          await call(admin, "/admin/api/facilities", {
            method: "POST",
            json: { externalId: `F-${crypto.randomUUID().slice(0, 8)}`, companyId: 101, name },
          }),
        )
      ).data.facilityId as number;
    const first = await facility();
    const group = await create("Groups", { displayName: name });
    expect(group[GROUP_EXTENSION].facilityId).toBe(first);
    expect((await call(admin, `/admin/api/facilities/${first}/disable`, { method: "POST" })).status).toBe(200);
    const read = async () =>
      (await (await scim(await scimTokenFor(TENANT_A), `/Groups/${group.id}`)).json<Record<string, any>>())[GROUP_EXTENSION].facilityId;
    expect(await read()).toBeNull();
    const second = await facility();
    expect(await read()).toBe(second);
  });
});
