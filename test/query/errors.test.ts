import { describe, expect, it } from "vitest";
import { BASE_URL, expectProblem, TENANT_A, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { searchRaw } from "../helpers/search";

/** The detail of the 400 Invalid search query problem for `q` on the endpoint. */
async function queryProblem(path: string, q: string, extra: Record<string, string> = {}): Promise<string> {
  const body = await expectProblem(await searchRaw(await tokenFor(TENANT_A), path, { q, ...extra }), 400);
  expect(body.title).toBe("Invalid search query");
  expect(body.type).toBe(`${BASE_URL}/docs/errors/invalid-search-query`);
  return body.detail;
}

async function validationErrors(path: string, params: Record<string, string>) {
  const body = await expectProblem(await searchRaw(await tokenFor(TENANT_A), path, params), 400);
  expect(body.title).toBe("Validation failed");
  return body.errors as Record<string, string[]>;
}

describe("search errors: 400 Invalid search query with a precise detail", () => {
  it("unknown field, listing the valid fields of the resource", async () => {
    expect(await queryProblem("/orders/search", 'colour:"red"')).toBe(
      "Unknown field 'colour' for orders. Valid fields: orderId, id, orderNumber, companyId, facilityId, requesterId, requesterName, poNumber, orderDate, createdDate, lastUpdated, total, shippingMethod, status, paymentMethod, partNumber, lineStatus, trackingNumber, lotNumber, serialNumber.",
    );
    expect(await queryProblem("/users/search", "tenantId:2")).toBe(
      "Unknown field 'tenantId' for users. Valid fields: id, userId, contactId, userName, loginUserId, email, firstName, lastName, customerId, companyId, companyName.",
    );
    expect(await queryProblem("/manufacturers/search", 'title~"abc"')).toBe(
      "Unknown field 'title' for manufacturers. Valid fields: manufacturerId, id, name.",
    );
  });

  it.each([
    [
      "Token",
      "/orders/search",
      'status~"Ship"',
      "In 'status~\"Ship\"': operator '~' is not supported for 'status', a Token field; use ':'.",
    ],
    [
      "Token",
      "/orders/search",
      "shippingMethod>GROUND",
      "In 'shippingMethod>GROUND': operator '>' is not supported for 'shippingMethod', a Token field; use ':'.",
    ],
    [
      "String",
      "/users/search",
      'lastName>"M"',
      "In 'lastName>\"M\"': operator '>' is not supported for 'lastName', a String field; use ':', '~'.",
    ],
    [
      "String",
      "/manufacturers/search",
      'name<="M"',
      "In 'name<=\"M\"': operator '<=' is not supported for 'name', a String field; use ':', '~'.",
    ],
    [
      "Numeric",
      "/orders/search",
      "total~100",
      "In 'total~100': operator '~' is not supported for 'total', a Numeric field; use ':', '>', '<', '>=', '<='.",
    ],
    [
      "DateTime",
      "/orders/search",
      'orderDate~"2025"',
      "In 'orderDate~\"2025\"': operator '~' is not supported for 'orderDate', a DateTime field; use ':', '>', '<', '>=', '<='.",
    ],
  ])("operator not supported for a %s field: %s %s", async (_type, path, q, detail) => {
    expect(await queryProblem(path, q)).toBe(detail);
  });

  it("substring shorter than 3 characters (counted in characters, not bytes)", async () => {
    expect(await queryProblem("/users/search", 'email~"ab"')).toBe(
      "In 'email~\"ab\"': a substring search (~) needs at least 3 characters, this one has 2.",
    );
    expect(await queryProblem("/manufacturers/search", 'name~""')).toBe(
      "In 'name~\"\"': a substring search (~) needs at least 3 characters, this one has 0.",
    );
    expect(await queryProblem("/users/search", 'lastName~"😀😀"')).toBe(
      "In 'lastName~\"😀😀\"': a substring search (~) needs at least 3 characters, this one has 2.",
    );
  });

  it("more than 10 clauses", async () => {
    const q = Array.from({ length: 11 }, (_, i) => `total>${i}`).join(" AND ");
    expect(await queryProblem("/orders/search", q)).toMatch(
      /^Too many clauses: a query may have at most 10 clauses \(clause 11 starts at position \d+\)\.$/,
    );
  });

  it("malformed syntax, with the character position", async () => {
    expect(await queryProblem("/orders/search", "status:Shipped OR status:Ordered")).toBe(
      "OR is not supported: clauses can only be joined with AND at position 16.",
    );
    expect(await queryProblem("/users/search", 'lastName:"Smith')).toBe(
      "Unterminated string: the double quote opened here is never closed at position 10.",
    );
    expect(await queryProblem("/users/search", "lastName")).toBe(
      "Expected an operator (: ~ > < >= <=) after 'lastName' but found nothing at the end of the query (position 9).",
    );
  });

  it("null only with ':'", async () => {
    expect(await queryProblem("/orders/search", "poNumber~null")).toBe(
      "In 'poNumber~null': null only works with ':' (poNumber:null matches a missing value, -poNumber:null a present one).",
    );
    expect(await queryProblem("/orders/search", "total>null")).toContain("null only works with ':'");
  });

  it.each([
    ["/orders/search", "total>abc", "In 'total>abc': 'total' is a Numeric field, expected a bare number without quotes, e.g. total>19.99."],
    [
      "/orders/search",
      'total>"100"',
      "In 'total>\"100\"': 'total' is a Numeric field, expected a bare number without quotes, e.g. total>19.99.",
    ],
    ["/orders/search", "total>1.005", "In 'total>1.005': 'total' is an amount with at most 2 decimal places."],
    ["/orders/search", "orderId:1.5", "In 'orderId:1.5': 'orderId' takes whole numbers only."],
    ["/orders/search", "orderId>99999999999999999999", "In 'orderId>99999999999999999999': the number is out of range."],
    [
      "/orders/search",
      'orderDate>"2025-02-30"',
      'In \'orderDate>"2025-02-30"\': \'orderDate\' is a DateTime field, expected an ISO 8601 date or timestamp in double quotes, e.g. orderDate>"2026-01-31" or orderDate<"2026-01-31T12:00:00Z".',
    ],
    ["/orders/search", 'orderDate>"yesterday"', "'orderDate' is a DateTime field, expected an ISO 8601 date or timestamp in double quotes"],
    ["/orders/search", 'orderDate>"2025-10-01T25:00:00Z"', "'orderDate' is a DateTime field"],
    ["/orders/search", "orderDate>2025-10-01", "'orderDate' is a DateTime field, expected an ISO 8601 date or timestamp in double quotes"],
    [
      "/users/search",
      "lastName:Smith",
      "In 'lastName:Smith': 'lastName' is a String field, write its value in double quotes, e.g. lastName:\"Smith\".",
    ],
    ["/users/search", "id:abc", "In 'id:abc': 'id' is a Numeric field, expected a bare number without quotes, e.g. id>100."],
  ])("bad value for the field's type: %s %s", async (path, q, detail) => {
    expect(await queryProblem(path, q)).toContain(detail);
  });
});

describe("search errors: parameters are 400 validation problems", () => {
  it.each([
    [{ limit: "0" }, "limit"],
    [{ limit: "101" }, "limit"],
    [{ limit: "ten" }, "limit"],
    [{ limit: "-1" }, "limit"],
    [{ offset: "-1" }, "offset"],
    [{ offset: "1.5" }, "offset"],
    [{ offset: "9007199254740992" }, "offset"],
    [{ sortDir: "up" }, "sortDir"],
    [{ sortDir: "asc" }, "sortDir"],
    [{ sortBy: "orderdate" }, "sortBy"],
    [{ q: "x".repeat(2001) }, "q"],
  ])("%j names %s", async (params, field) => {
    const errors = await validationErrors("/orders/search", params);
    expect(Object.keys(errors)).toEqual([field]);
  });

  it("offset takes every whole number the document allows, up to 2^53 - 1 (16 digits)", async () => {
    const token = await tokenFor(TENANT_A);
    for (const offset of ["1000000000000000", String(Number.MAX_SAFE_INTEGER)]) {
      const res = await contractCall(token, `/orders/search?offset=${offset}`);
      expect(res.status, offset).toBe(200);
      expect((await res.json<any>()).data).toMatchObject({ orders: [], pagination: { offset: Number(offset), hasMore: false } });
    }
  });

  it("sortBy must be a sortable field of the resource, spelt as the document's enum; the message lists them", async () => {
    expect(await validationErrors("/manufacturers/search", { sortBy: "Name" })).toEqual({
      sortBy: ["Unknown sort field 'Name'; did you mean name? Sortable fields of manufacturers: manufacturerId, id, name."],
    });
    expect(await validationErrors("/orders/search", { sortBy: "colour" })).toEqual({
      sortBy: [
        "Unknown sort field 'colour'. Sortable fields of orders: orderId, id, orderNumber, companyId, facilityId, requesterId, requesterName, poNumber, orderDate, createdDate, lastUpdated, total, shippingMethod, status.",
      ],
    });
    expect(await validationErrors("/users/search", { sortBy: "companyName" })).toEqual({
      sortBy: [
        "'companyName' cannot be used for sorting. Sortable fields of users: id, userId, contactId, userName, loginUserId, email, firstName, lastName.",
      ],
    });
  });

  it("a repeated query parameter is named as repeated, not reported as a type error", async () => {
    const res = await contractCall(await tokenFor(TENANT_A), "/manufacturers/search?limit=1&limit=2&sortDir=Asc&sortDir=Desc");
    const body = await expectProblem(res, 400);
    expect(body.errors).toEqual({
      limit: ["The query parameter limit is given 2 times; give it once."],
      sortDir: ["The query parameter sortDir is given 2 times; give it once."],
    });
  });

  it("limit 1 and 100 are accepted", async () => {
    const token = await tokenFor(TENANT_A);
    for (const limit of ["1", "100"]) expect((await searchRaw(token, "/manufacturers/search", { limit })).status).toBe(200);
  });

  it("needs a token and the resource's scope", async () => {
    await expectProblem(await contractCall(null, "/orders/search"), 401);
    const usersOnly = await tokenFor(TENANT_A, ["users:read"]);
    await expectProblem(await contractCall(usersOnly, "/orders/search"), 403);
    await expectProblem(await contractCall(usersOnly, "/manufacturers/search"), 403);
    expect((await contractCall(usersOnly, "/users/search")).status).toBe(200);
  });
});
