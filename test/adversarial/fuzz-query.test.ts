import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { expectNoWrites, expectSpecError } from "../helpers/adversarial";
import { BASE_URL, call, TENANT_A, tokenFor } from "../helpers/api";
import { type DocumentedOperation, expectMatchesContract, operationsOf, servedDocument } from "../helpers/contract";
import { runs } from "../helpers/depth";

/**
 * Every query parameter of every documented GET operation, taken from the served OpenAPI document (a new
 * parameter or endpoint is fuzzed without touching this file): random, NaN-like, huge, unicode, badly
 * percent-encoded and repeated values give a documented 200 or a 4xx in a spec error form, never a 5xx.
 */

const NASTY = [
  "",
  " ",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "1e400",
  "123456789012345678901234567890",
  "0x10",
  "1.5",
  "١",
  "null",
  "[]",
  "{}",
  "' OR 1=1 --",
  '"',
  "\\",
  "%",
  "%zz",
  "%00",
  "%E0%A4%A",
  "a".repeat(3000),
];
/** Fragments of the q language, so the parser sees near-misses as well as noise. */
const Q_PARTS = [
  "id:1",
  "id>",
  "name~",
  'name~"med"',
  "-",
  "AND",
  "OR",
  "(",
  ")",
  ":",
  "~",
  ">=",
  "<",
  '"',
  "'",
  "null",
  "orderNumber:ORD",
  "total>=1.005",
  "orderDate>2025-13-45",
  "requesterId:50001",
  "companyId:101",
  "unknownField:1",
  "\\",
  "*",
];

const rawValue = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: "grapheme", maxLength: 30 }).map(encodeURIComponent),
  fc.string({ unit: "binary", maxLength: 20 }).map(encodeURIComponent),
  fc.array(fc.constantFrom(...Q_PARTS), { minLength: 1, maxLength: 14 }).map((parts) => encodeURIComponent(parts.join(" "))),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double().map(String),
);

interface GetOperation {
  path: string;
  params: string[];
  authenticated: boolean;
}

function getOperations(operations: DocumentedOperation[]): GetOperation[] {
  return operations
    .filter((o) => o.method === "get")
    .map((o) => ({
      path: o.path,
      params: ((o.operation.parameters ?? []) as { in?: string; name?: string }[]).filter((p) => p.in === "query").map((p) => p.name!),
      authenticated: (o.operation.security ?? []).length > 0,
    }));
}

describe("fuzzing every query parameter of every GET operation", () => {
  let operations: GetOperation[];
  let token: string;
  beforeAll(async () => {
    operations = getOperations(operationsOf(await servedDocument()));
    token = await tokenFor(TENANT_A);
  });

  it("the document declares the query parameters we expect to fuzz", () => {
    const params = Object.fromEntries(operations.filter((o) => o.params.length).map((o) => [o.path, [...o.params].sort()]));
    expect(params["/customer/api/users/lookup"]).toEqual(["loginUserId", "userId"]);
    expect(params["/customer/api/orders/search"]).toEqual(["include", "limit", "offset", "q", "sortBy", "sortDir"]);
    expect(Object.keys(params).length).toBeGreaterThanOrEqual(4);
  });

  it("random values for declared parameters, repeated parameters and unknown ones: 200 or a spec 4xx, nothing written", async () => {
    const request = fc.constantFrom(...operations).chain((op) =>
      fc.record({
        op: fc.constant(op),
        pairs: fc.array(
          fc.tuple(
            op.params.length
              ? fc.oneof(fc.constantFrom(...op.params), fc.constantFrom("x", "__proto__", "userId[]", "q%00"))
              : fc.constant("x"),
            rawValue,
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
      }),
    );
    const statuses = new Set<number>();
    await expectNoWrites(() =>
      fc.assert(
        fc.asyncProperty(request, async ({ op, pairs }) => {
          const url = `${op.path}?${pairs.map(([name, value]) => `${name}=${value}`).join("&")}`;
          const res = await call(op.authenticated ? token : null, BASE_URL + url);
          statuses.add(res.status);
          if (res.status === 200) await expectMatchesContract(res, "GET", op.path);
          else await expectSpecError(res, "GET", op.path);
        }),
        { numRuns: runs({ quick: 100, deep: 400 }) },
      ),
    );
    // The values reached the handlers: some were accepted, some refused by validation or the q parser.
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400]));
  });
});
