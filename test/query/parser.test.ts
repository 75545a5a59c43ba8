import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEARCH_RESOURCES } from "../../src/api/app";
import { ProblemError } from "../../src/platform/errors";
import { type Clause, NUMBER_PATTERN, OPERATORS, type Query, type Value } from "../../src/query/ast";
import { compileQuery } from "../../src/query/compile";
import { parseQuery } from "../../src/query/parser";
import { printQuery } from "../../src/query/printer";
import { runs } from "../helpers/depth";

/** The detail of the 400 "Invalid search query" problem the input raises. */
function queryErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.status).toBe(400);
    expect(problem.title).toBe("Invalid search query");
    return problem.detail;
  }
  throw new Error("expected an invalid search query error");
}

const clause = (field: string, operator: Clause["operator"], value: Value, negated = false): Clause => ({
  negated,
  field,
  operator,
  value,
});
const str = (value: string): Value => ({ kind: "string", value });
const num = (text: string): Value => ({ kind: "number", text });
const word = (text: string): Value => ({ kind: "word", text });
const NULL: Value = { kind: "null" };

describe("q parser: accepted syntax", () => {
  it("parses a blank query as no clauses", () => {
    expect(parseQuery("")).toEqual({ clauses: [] });
    expect(parseQuery("   \t ")).toEqual({ clauses: [] });
  });

  it.each([
    [":", 'email:"a@b.example"', clause("email", ":", str("a@b.example"))],
    ["~", 'name~"med"', clause("name", "~", str("med"))],
    [">", "total>100", clause("total", ">", num("100"))],
    ["<", "total<19.95", clause("total", "<", num("19.95"))],
    [">=", 'orderDate>="2025-10-01"', clause("orderDate", ">=", str("2025-10-01"))],
    ["<=", 'orderDate<="2025-10-01T12:30:00Z"', clause("orderDate", "<=", str("2025-10-01T12:30:00Z"))],
  ])("operator %s", (_op, input, expected) => {
    expect(parseQuery(input)).toEqual({ clauses: [expected] });
  });

  it("reads bare numbers, negative numbers, bare words and null", () => {
    expect(parseQuery("total>-5.5").clauses[0]!.value).toEqual(num("-5.5"));
    expect(parseQuery("companyId:101").clauses[0]!.value).toEqual(num("101"));
    expect(parseQuery("shippingMethod:NEXT_DAY").clauses[0]!.value).toEqual(word("NEXT_DAY"));
    for (const spelling of ["null", "NULL", "Null", "nUlL"]) expect(parseQuery(`poNumber:${spelling}`).clauses[0]!.value).toEqual(NULL);
    expect(parseQuery('poNumber:"null"').clauses[0]!.value).toEqual(str("null"));
  });

  it("unescapes backslash escapes in quoted strings", () => {
    expect(parseQuery('name:"say \\"hi\\""').clauses[0]!.value).toEqual(str('say "hi"'));
    expect(parseQuery('name:"back\\\\slash"').clauses[0]!.value).toEqual(str("back\\slash"));
    expect(parseQuery('name:"a AND b: c~d"').clauses[0]!.value).toEqual(str("a AND b: c~d"));
    expect(parseQuery('name:""').clauses[0]!.value).toEqual(str(""));
  });

  it("negates with a leading minus", () => {
    expect(parseQuery('-name:"GE Healthcare"')).toEqual({ clauses: [clause("name", ":", str("GE Healthcare"), true)] });
    expect(parseQuery("-poNumber:null")).toEqual({ clauses: [clause("poNumber", ":", NULL, true)] });
  });

  it("joins clauses with AND in any case, with or without spaces around quoted values", () => {
    const expected = { clauses: [clause("a", ":", str("x")), clause("b", ">", num("1")), clause("c", ":", NULL, true)] };
    for (const and of ["AND", "and", "And", "aNd"]) expect(parseQuery(`a:"x" ${and} b>1 ${and} -c:null`)).toEqual(expected);
    expect(parseQuery('a:"x"AND b>1   AND\t-c:null')).toEqual(expected);
  });

  it("keeps field names as written; the registry matches them case-insensitively", () => {
    const query = parseQuery('EMAIL:"a@b.example" AND LastName:"Smith"');
    expect(query.clauses.map((c) => c.field)).toEqual(["EMAIL", "LastName"]);
    const users = SEARCH_RESOURCES.find((r) => r.name === "users")!;
    expect(() => compileQuery(users, query)).not.toThrow();
  });

  it("accepts exactly 10 clauses", () => {
    const ten = Array.from({ length: 10 }, (_, i) => `id>${i}`).join(" AND ");
    expect(parseQuery(ten).clauses).toHaveLength(10);
  });
});

describe("q parser: each error names the problem and where", () => {
  it.each([
    ['name:"x" name:"y"', "Expected AND between clauses but found 'name' at position 10."],
    ['name:"x" OR name:"y"', "OR is not supported: clauses can only be joined with AND at position 10."],
    ['name:"x" AND', "Expected a field name (letters, digits, _) but found nothing at the end of the query (position 13)."],
    ['(name:"x")', "Unexpected '(': parentheses are not supported, clauses are joined with AND only at position 1."],
    ['name="x"', "Unexpected '=': use ':' for equality, or >=, <= at position 5."],
    ['name:"unterminated', "Unterminated string: the double quote opened here is never closed at position 6."],
    ['name:"ends in backslash\\', "Unterminated string: the double quote opened here is never closed at position 6."],
    ["name", "Expected an operator (: ~ > < >= <=) after 'name' but found nothing at the end of the query (position 5)."],
    ['name "x"', "Expected an operator (: ~ > < >= <=) after 'name' but found a quoted string at position 6."],
    ["name:", "Expected a value after 'name:' but found nothing at the end of the query (position 6)."],
    ["total>-abc", "Expected a number right after '-' at position 8."],
    ["total>- 5", "Expected a number right after '-' at position 9."],
    ['--name:"x"', "Expected a field name (letters, digits, _) but found '-' at position 2."],
    ['1abc:"x"', "Expected a field name (letters, digits, _) but found '1abc' at position 1."],
    [':"x"', "Expected a field name (letters, digits, _) but found ':' at position 1."],
  ])("%s", (input, detail) => {
    expect(queryErrorOf(() => parseQuery(input))).toBe(detail);
  });

  it("rejects an eleventh clause", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `id>${i}`).join(" AND ");
    expect(queryErrorOf(() => parseQuery(eleven))).toBe(
      `Too many clauses: a query may have at most 10 clauses (clause 11 starts at position ${eleven.lastIndexOf("id>10") + 1}).`,
    );
  });
});

// ---- property-based tests -------------------------------------------------------------------

const fieldName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/);
const bareWord = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.]{0,11}$/).filter((w) => w.toLowerCase() !== "null" && !NUMBER_PATTERN.test(w));
const valueArb: fc.Arbitrary<Value> = fc.oneof(
  fc
    .oneof(fc.string({ maxLength: 20, unit: "grapheme" }), fc.constantFrom('"', "\\", '\\"', 'a "quoted" \\ value', "AND", "-1"))
    .map((value) => str(value)),
  fc.stringMatching(/^-?\d{1,8}(\.\d{1,3})?$/).map((text) => num(text)),
  bareWord.map((text) => word(text)),
  fc.constant(NULL),
);
const clauseArb: fc.Arbitrary<Clause> = fc.record({
  negated: fc.boolean(),
  field: fieldName,
  operator: fc.constantFrom(...OPERATORS),
  value: valueArb,
});
const queryArb: fc.Arbitrary<Query> = fc.record({ clauses: fc.array(clauseArb, { maxLength: 10 }) });

/** Fragments of the language, so random input often gets deep into the parser and compiler. */
const queryishText = fc
  .array(
    fc.oneof(
      fc.constantFrom(":", "~", ">", "<", ">=", "<=", "-", " AND ", " and ", " OR ", '"', "\\", "null", "(", ")", "=", " "),
      fc.constantFrom("name", "email", "total", "orderDate", "status", "companyName", "id", "lastName", "poNumber"),
      fc.constantFrom('"2025-10-01"', '"2025-02-30"', '"2025-10-01T10:00:00+02:00"', "12", "-3.5", "19.999", '"abc"', '"%_\\\\"'),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(""));

function onlyQueryErrors(input: string) {
  try {
    const query = parseQuery(input);
    for (const resource of SEARCH_RESOURCES) {
      try {
        compileQuery(resource, query);
      } catch (error) {
        if (!(error instanceof ProblemError) || error.status !== 400 || error.title !== "Invalid search query") throw error;
      }
    }
  } catch (error) {
    if (!(error instanceof ProblemError) || error.status !== 400 || error.title !== "Invalid search query") throw error;
  }
}

describe("q parser: properties", () => {
  it("never throws anything but the Invalid search query problem, on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200, unit: "binary" }), onlyQueryErrors), { numRuns: runs({ quick: 500, deep: 5_000 }) });
  });

  it("never throws anything but the Invalid search query problem, on query-like text", () => {
    fc.assert(fc.property(queryishText, onlyQueryErrors), { numRuns: runs({ quick: 800, deep: 8_000 }) });
  });

  it("printing an AST and parsing it again gives the same AST", () => {
    fc.assert(
      fc.property(queryArb, (query) => {
        expect(parseQuery(printQuery(query))).toEqual(query);
      }),
      { numRuns: runs({ quick: 500, deep: 5_000 }) },
    );
  });

  it("reparsing the printed form of any accepted query is stable", () => {
    fc.assert(
      fc.property(queryishText, (input) => {
        let query: Query;
        try {
          query = parseQuery(input);
        } catch {
          return;
        }
        expect(parseQuery(printQuery(query))).toEqual(query);
      }),
      { numRuns: runs({ quick: 500, deep: 5_000 }) },
    );
  });
});
