import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { pushDirectoryChanges } from "../../src/operator/tenant-stores/directory-mirror";
import { BOOKMARK_HEADER } from "../../src/platform/read-replicas";
import { forgetUserProfiles } from "../../src/shared/users/lookup";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";
import { JSMITH } from "../helpers/orders";
import { testVars } from "../helpers/platform";

describe("GET /users/lookup", () => {
  it("returns the user with companies, addresses and orderable facilities", async () => {
    const res = await call(await tokenFor(TENANT_A), "/users/lookup?userId=1");
    expect(res.status).toBe(200);
    await expectMatchesContract(res, "GET", "/users/lookup");
    const body = await json(res);
    expect(body.success).toBe(true);
    expect(typeof body.correlationId).toBe("string");
    expect(body.data).toMatchObject({
      contactId: 50001,
      userId: 1,
      loginUserId: "jsmith",
      firstName: "John",
      lastName: "Smith",
      email: "john.smith@stmarys.example",
    });
    expect(body.data.companies.map((c: { id: number }) => c.id)).toEqual([101, 102]);
    const [medicalCenter, childrens] = body.data.companies;
    expect(medicalCenter.shippingAddresses.map((a: { id: number }) => a.id)).toEqual([11, 12]);
    expect(medicalCenter.billingAddresses.map((a: { id: number }) => a.id)).toEqual([13]);
    expect(medicalCenter.billingAddresses[0]).toMatchObject({ line1: expect.any(String), city: "Springfield", state: "IL", zip: "62701" });
    expect(medicalCenter.facilities).toEqual([
      { id: 1001, name: "Main Campus Operating Rooms" },
      { id: 1002, name: "Biomedical Engineering" },
    ]);
    expect(childrens.facilities).toEqual([{ id: 1003, name: "Pediatric ICU" }]);
  });

  it("looks up by user name (loginUserId), case-insensitively", async () => {
    const res = await call(await tokenFor(TENANT_A), "/users/lookup?loginUserId=JSmith");
    expect(res.status).toBe(200);
    expect((await json(res)).data.contactId).toBe(50001);
  });

  it("a user without facility access still resolves, with empty facility lists", async () => {
    const body = await json(await call(await tokenFor(TENANT_A), "/users/lookup?userId=4"));
    expect(body.data.companies[0].facilities).toEqual([]);
  });

  it.each(["abc", "-1", "0", "1.5", "99999999999999999999", ""])("userId=%s is a 400 validation error", async (value) => {
    const res = await call(await tokenFor(TENANT_A), `/users/lookup?userId=${value}`);
    await expectMatchesContract(res, "GET", "/users/lookup");
    const body = await expectProblem(res, 400);
    expect(Object.keys(body.errors)).toEqual(["userId"]);
    expect(body.errors.userId[0]).toEqual(expect.any(String));
  });

  it("needs exactly one of userId and loginUserId", async () => {
    const token = await tokenFor(TENANT_A);
    for (const query of ["", "?userId=1&loginUserId=jsmith"]) {
      const body = await expectProblem(await call(token, `/users/lookup${query}`), 400);
      expect(body.errors.userId).toEqual(["Give exactly one of userId or loginUserId."]);
    }
  });

  it("the largest documented userId (2^53 - 1) is a well-formed lookup: 404, not a validation error", async () => {
    const res = await call(await tokenFor(TENANT_A), `/users/lookup?userId=${Number.MAX_SAFE_INTEGER}`);
    await expectProblem(res, 404);
  });

  it("unknown user is 404", async () => {
    const res = await call(await tokenFor(TENANT_A), "/users/lookup?userId=424242");
    await expectMatchesContract(res, "GET", "/users/lookup");
    await expectProblem(res, 404);
    await expectProblem(await call(await tokenFor(TENANT_A), "/users/lookup?loginUserId=nobody"), 404);
  });

  it("a user id of another tenant is 403 (spec 5.6), a user name of another tenant 404 like no name at all; no byte of their data", async () => {
    for (const [query, status] of [
      ["userId=6", 403],
      ["loginUserId=kjohnson", 404],
    ] as const) {
      const res = await call(await tokenFor(TENANT_A), `/users/lookup?${query}`);
      await expectMatchesContract(res, "GET", "/users/lookup");
      const body = await expectProblem(res, status);
      const text = JSON.stringify(body);
      for (const secret of ["Karen", "Johnson", "lakeside", "60001"]) expect(text).not.toContain(secret);
    }
    const unknownName = await expectProblem(await call(await tokenFor(TENANT_A), "/users/lookup?loginUserId=nobody"), 404);
    const foreignName = await expectProblem(await call(await tokenFor(TENANT_A), "/users/lookup?loginUserId=kjohnson"), 404);
    expect([foreignName.title, foreignName.detail]).toEqual([unknownName.title, unknownName.detail]);
    expect((await call(await tokenFor(TENANT_B), "/users/lookup?userId=6")).status).toBe(200);
    expect((await call(await tokenFor(TENANT_B), "/users/lookup?userId=1")).status).toBe(403);
  });
});

describe("GET /users/lookup: profiles remembered per isolate (USER_PROFILE_CACHE_SECONDS)", () => {
  const remembering = { headers: testVars({ USER_PROFILE_CACHE_SECONDS: 30 }) };
  /** A rename in the directory's master (DB), pushed to the tenant's stores as the operator plane pushes its writes. */
  const rename = async (firstName: string) => {
    await env.DB.prepare("UPDATE users SET first_name = ? WHERE id = 1").bind(firstName).run();
    await pushDirectoryChanges(env);
  };
  const firstName = async (res: Response) => {
    expect(res.status).toBe(200);
    return (await json(res)).data.firstName as string;
  };

  it("a found profile is answered from memory within the TTL; a bookmark or a TTL of 0 reads the directory (the tenant's store)", async () => {
    forgetUserProfiles();
    const token = await tokenFor(TENANT_A);
    try {
      const first = await call(token, "/users/lookup?userId=1", remembering);
      expect(await firstName(first)).toBe("John");
      await rename("Jonathan");
      expect(await firstName(await call(token, "/users/lookup?userId=1", remembering))).toBe("John");
      // The lookup reads the tenant's store, which has no bookmark to give: the client's bookmark is one of an answer
      // that read DB (a quote reads the offers there).
      const quoted = await call(token, "/catalog/detail", {
        method: "POST",
        json: { productId: productId(9), facilityId: JSMITH.facilityId, requesterId: JSMITH.requesterContactId },
      });
      expect(quoted.status).toBe(200);
      const bookmark = quoted.headers.get(BOOKMARK_HEADER)!;
      expect(bookmark).toMatch(/\S/);
      const chained = await call(token, "/users/lookup?userId=1", { headers: { ...remembering.headers, [BOOKMARK_HEADER]: bookmark } });
      expect(await firstName(chained)).toBe("Jonathan");
      expect(await firstName(await call(token, "/users/lookup?userId=1"))).toBe("Jonathan");
    } finally {
      await rename("John");
      forgetUserProfiles();
    }
  });

  it("another tenant's token never reads a profile remembered for this tenant: still 403 (by id) or 404 (by name)", async () => {
    forgetUserProfiles();
    try {
      expect((await call(await tokenFor(TENANT_A), "/users/lookup?userId=1", remembering)).status).toBe(200);
      expect((await call(await tokenFor(TENANT_A), "/users/lookup?loginUserId=jsmith", remembering)).status).toBe(200);
      for (const [query, status] of [
        ["userId=1", 403],
        ["loginUserId=jsmith", 404],
      ] as const) {
        const body = await expectProblem(await call(await tokenFor(TENANT_B), `/users/lookup?${query}`, remembering), status);
        expect(JSON.stringify(body)).not.toContain("Smith");
      }
    } finally {
      forgetUserProfiles();
    }
  });

  it("a 404 is never remembered: a user added after it is found at once", async () => {
    forgetUserProfiles();
    const token = await tokenFor(TENANT_A);
    const userId = 777_001;
    try {
      await expectProblem(await call(token, `/users/lookup?userId=${userId}`, remembering), 404);
      await env.DB.prepare(
        "INSERT INTO users (id, tenant_id, contact_id, login_user_id, first_name, last_name, email, created_at) SELECT ?, tenant_id, ?, 'newcomer', 'New', 'Comer', 'new@example.test', created_at FROM users WHERE id = 1",
      )
        .bind(userId, 777_001)
        .run();
      expect(await firstName(await call(token, `/users/lookup?userId=${userId}`, remembering))).toBe("New");
    } finally {
      await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(userId).run();
      forgetUserProfiles();
    }
  });
});
