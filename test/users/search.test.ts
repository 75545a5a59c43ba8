import { describe, expect, it } from "vitest";
import { COMPANIES, USERS } from "../../src/dev/seed/organizations";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { contractCall, servedDocument, validateAgainst } from "../helpers/contract";
import { allPages, searchData, sortedLike } from "../helpers/search";

type DemoUser = (typeof USERS)[number];
const tenantUsers = (tenantId: number) => USERS.filter((u) => u.tenantId === tenantId);
const A = tenantUsers(TENANT_A);
const byLastName = (users: readonly DemoUser[], dir: "Asc" | "Desc" = "Asc") =>
  sortedLike(
    users,
    (u) => u.lastName,
    (u) => u.id,
    dir,
  ).map((u) => u.id);
const companyName = (id: number) => COMPANIES.find((c) => c.id === id)!.name;

async function userIds(tenantId: number, q: string, extra: Record<string, string> = {}) {
  const data = await searchData(await tokenFor(tenantId), "/users/search", { q, ...extra });
  return data.items.map((u: { id: number }) => u.id);
}

async function postSearch(tenantId: number, body: unknown) {
  return contractCall(await tokenFor(tenantId), "/users/search", { method: "POST", json: body });
}

const POST_SEARCH_BODY = "#/paths/~1customer~1api~1users~1search/post/requestBody/content/application~1json/schema";

describe("GET /users/search", () => {
  it("lists the tenant's users by lastName with the user search record", async () => {
    const data = await searchData(await tokenFor(TENANT_A), "/users/search");
    expect(data.pagination).toEqual({ total: A.length, limit: 50, offset: 0, hasMore: false });
    expect(data.items.map((u: { id: number }) => u.id)).toEqual(byLastName(A));
    const smith = USERS[0]!;
    expect(data.items.find((u: { id: number }) => u.id === smith.id)).toEqual({
      id: smith.id,
      contactId: smith.contactId,
      userName: smith.loginUserId,
      email: smith.email,
      firstName: smith.firstName,
      lastName: smith.lastName,
      companies: smith.companies.map((id) => ({ id, name: companyName(id) })),
    });
  });

  it("filters on each field named by the spec", async () => {
    expect(await userIds(TENANT_A, 'email:"JOHN.SMITH@stmarys.example"')).toEqual([1]);
    expect(await userIds(TENANT_A, 'email~"garcia@"')).toEqual([2]);
    expect(await userIds(TENANT_A, 'firstName:"alice"')).toEqual([3]);
    expect(await userIds(TENANT_A, 'lastName~"LIA"')).toEqual([4]);
    expect(await userIds(TENANT_A, 'userName:"PObrien"')).toEqual([5]);
    expect(await userIds(TENANT_A, 'loginUserId~"smi"')).toEqual([1]);
    expect(await userIds(TENANT_A, "id>=4")).toEqual(byLastName(A.filter((u) => u.id >= 4)));
    expect(await userIds(TENANT_A, "contactId:50003")).toEqual([3]);
  });

  it("customerId and companyName match a user with any matching company; negated, with none", async () => {
    const in102 = A.filter((u) => u.companies.includes(102));
    expect(in102.length).toBe(2);
    expect(await userIds(TENANT_A, "customerId:102")).toEqual(byLastName(in102));
    expect(await userIds(TENANT_A, "companyId:102")).toEqual(byLastName(in102));
    expect(await userIds(TENANT_A, "-customerId:102")).toEqual(byLastName(A.filter((u) => !u.companies.includes(102))));
    expect(await userIds(TENANT_A, 'companyName~"children"')).toEqual(byLastName(in102));
    expect(await userIds(TENANT_A, 'companyName:"st. mary\'s medical center" AND customerId:102')).toEqual([1]);
    expect(await userIds(TENANT_A, "companyName:null")).toEqual([]);
    expect(await userIds(TENANT_A, "-companyName:null")).toEqual(byLastName(A));
  });

  it("sorts in both directions on a sortable field", async () => {
    expect(await userIds(TENANT_A, "", { sortBy: "firstName", sortDir: "Desc" })).toEqual(
      sortedLike(
        A,
        (u) => u.firstName,
        (u) => u.id,
        "Desc",
      ).map((u) => u.id),
    );
    expect(await userIds(TENANT_A, "", { sortBy: "email" })).toEqual(
      sortedLike(
        A,
        (u) => u.email,
        (u) => u.id,
      ).map((u) => u.id),
    );
    expect(await userIds(TENANT_A, "", { sortBy: "lastName", sortDir: "Desc" })).toEqual(byLastName(A, "Desc"));
  });

  it("paging visits each user exactly once", async () => {
    const records = await allPages<{ id: number }>(await tokenFor(TENANT_B), "/users/search", "items", { sortBy: "lastName" }, 1);
    expect(records.map((u) => u.id)).toEqual(byLastName(tenantUsers(TENANT_B)));
  });

  it("never shows another tenant's users", async () => {
    expect(await userIds(TENANT_B, "")).toEqual(byLastName(tenantUsers(TENANT_B)));
    expect(await userIds(TENANT_B, "id:1")).toEqual([]);
    expect(await userIds(TENANT_B, 'email~"stmarys"')).toEqual([]);
    expect(await userIds(TENANT_B, "customerId:101")).toEqual([]);
    // "Smith" exists in both tenants: tenant 2 sees only Rachel.
    expect(await userIds(TENANT_B, 'lastName:"smith"')).toEqual([9]);
    expect(await userIds(TENANT_A, 'lastName:"smith"')).toEqual([1]);
  });
});

describe("POST /users/search", () => {
  it("filters with the body and answers data.users with pagination", async () => {
    const res = await postSearch(TENANT_A, {
      filters: { emailContains: "STMARYS.example", lastName: "smith" },
      pagination: { limit: 10, offset: 0 },
    });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    expect(typeof body.correlationId).toBe("string");
    expect(body.data.users.map((u: { id: number }) => u.id)).toEqual([1]);
    expect(body.data.pagination).toEqual({ total: 1, limit: 10, offset: 0, hasMore: false });
  });

  it.each([
    [{ email: "maria.garcia@stmarys.example" }, [2]],
    [{ firstName: "ALICE" }, [3]],
    [{ firstNameContains: "tri" }, [5]],
    [{ lastNameContains: "ill" }, [4]],
    [{ userName: "jsmith" }, [1]],
    [{ userNameContains: "brien" }, [5]],
    [{ companyName: "St. Mary's Outpatient Surgery" }, [3]],
    [{ companyNameContains: "children" }, [5, 1]],
    [{ customerId: 101 }, [2, 1, 4]],
    [{ id: 4 }, [4]],
    [{ contactId: 50001 }, [1]],
    [{}, byLastName(A)],
  ])("filters %j", async (filters, expected) => {
    const body = await json(await postSearch(TENANT_A, { filters }));
    expect(body.data.users.map((u: { id: number }) => u.id)).toEqual(expected);
  });

  it.each([
    [
      { limit: 20000, offset: 1 },
      { limit: 10000, offset: 1 },
    ],
    [{ limit: 0 }, { limit: 50, offset: 0 }],
    [
      { limit: -5, offset: -3 },
      { limit: 50, offset: 0 },
    ],
    [
      { limit: "2", offset: "1" },
      { limit: 2, offset: 1 },
    ],
    [
      { limit: "lots", offset: null },
      { limit: 50, offset: 0 },
    ],
    [
      { limit: 2.9, offset: true },
      { limit: 2, offset: 0 },
    ],
    [
      { limit: [5], offset: { from: 1 } },
      { limit: 50, offset: 0 },
    ],
    [undefined, { limit: 50, offset: 0 }],
  ])("normalizes pagination %j silently and echoes %j; the document allows what it corrects", async (pagination, used) => {
    const valid = validateAgainst(await servedDocument(), POST_SEARCH_BODY, JSON.parse(JSON.stringify({ pagination })));
    expect(valid.errors).toEqual([]);
    const res = await postSearch(TENANT_A, { pagination });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.pagination).toEqual({ ...used, total: A.length, hasMore: used.offset + body.data.users.length < A.length });
    expect(body.data.users.map((u: { id: number }) => u.id)).toEqual(byLastName(A).slice(used.offset, used.offset + used.limit));
  });

  it("rejects unknown filters, short substrings and wrong types with the validation form", async () => {
    const cases: [unknown, string][] = [
      [{ filters: { emailContains: "ab" } }, "filters.emailContains"],
      [{ filters: { shoeSize: 42 } }, "filters.shoeSize"],
      [{ filters: { lastName: "smith" }, pagination: { limit: 5, page: 2 } }, "pagination.page"],
      [{ filter: { lastName: "smith" } }, "filter"],
      [{ filters: { customerId: "101" } }, "filters.customerId"],
      [{ filters: { lastName: "" } }, "filters.lastName"],
      [{ filters: "smith" }, "filters"],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await postSearch(TENANT_A, body), 400);
      expect(problem.title, JSON.stringify(body)).toBe("Validation failed");
      expect(Object.keys(problem.errors).join(","), JSON.stringify(body)).toContain(field);
    }
    const malformed = await call(await tokenFor(TENANT_A), "/users/search", {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    await expectProblem(malformed, 400);
  });

  it("is tenant scoped and treats injection as plain values", async () => {
    const other = await json(await postSearch(TENANT_B, { filters: { emailContains: "stmarys" } }));
    expect(other.data).toEqual({ users: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } });
    for (const value of ["' OR '1'='1", '" OR ""="', "%' --", "x') OR tenant_id=1 --"]) {
      const body = await json(await postSearch(TENANT_B, { filters: { lastName: value, firstNameContains: value } }));
      expect(body.data.pagination.total, value).toBe(0);
    }
  });
});
