import { describe, expect, it } from "vitest";
import { closestName } from "../../src/platform/closest-name";

describe("closestName: the field most likely meant", () => {
  it("finds a near miss within one typo per four characters (at least one, at most three), ignoring case", () => {
    expect(closestName("lineID", ["lineIds", "reason", "partial"])).toBe("lineIds");
    expect(closestName("quantiy", ["quantity", "price", "productId"])).toBe("quantity");
    expect(closestName("Partial", ["lineIds", "reason", "partial"])).toBe("partial");
    // Classic Levenshtein vectors: kitten -> sitting is 3 edits (allowed for 7+ characters at most 1 per 4: 1 here).
    expect(closestName("kitten", ["sitting"])).toBeUndefined();
    expect(closestName("flaw", ["lawn"])).toBeUndefined(); // distance 2, allowed 1
    expect(closestName("saturday", ["sunday"])).toBeUndefined(); // distance 3, allowed 2
    expect(closestName("sortDirection", ["sortDir", "sortBy"])).toBeUndefined();
  });

  it("prefers the nearest candidate", () => {
    expect(closestName("offst", ["offset", "offsets"])).toBe("offset");
    expect(closestName("limt", ["limit", "lime"])).toBe("limit");
  });
});
