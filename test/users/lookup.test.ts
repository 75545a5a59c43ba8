import { describe, expect, it } from "vitest";
import { call, expectProblem, json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { expectMatchesContract } from "../helpers/contract";

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

  it("a user of another tenant is 403 and no byte of their data", async () => {
    for (const query of ["userId=6", "loginUserId=kjohnson"]) {
      const res = await call(await tokenFor(TENANT_A), `/users/lookup?${query}`);
      await expectMatchesContract(res, "GET", "/users/lookup");
      const body = await expectProblem(res, 403);
      const text = JSON.stringify(body);
      for (const secret of ["Karen", "Johnson", "lakeside", "60001"]) expect(text).not.toContain(secret);
    }
    expect((await call(await tokenFor(TENANT_B), "/users/lookup?userId=6")).status).toBe(200);
    expect((await call(await tokenFor(TENANT_B), "/users/lookup?userId=1")).status).toBe(403);
  });
});
