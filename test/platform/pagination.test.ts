import { describe, expect, it } from "vitest";
import { normalizePostPage, paginationOf } from "../../src/platform/pagination";

describe("POST pagination normalization (spec 4.16)", () => {
  it.each([
    [
      { limit: 20000, offset: 5 },
      { limit: 10000, offset: 5 },
    ],
    [
      { limit: 0, offset: 0 },
      { limit: 50, offset: 0 },
    ],
    [
      { limit: -3, offset: -10 },
      { limit: 50, offset: 0 },
    ],
    [{}, { limit: 50, offset: 0 }],
    [undefined, { limit: 50, offset: 0 }],
    [
      { limit: "25", offset: "7" },
      { limit: 25, offset: 7 },
    ],
    [
      { limit: 12.9, offset: 3.5 },
      { limit: 12, offset: 3 },
    ],
    [
      { limit: "abc", offset: null },
      { limit: 50, offset: 0 },
    ],
    [
      { limit: Number.NaN, offset: Number.POSITIVE_INFINITY },
      { limit: 50, offset: 0 },
    ],
  ])("%j -> %j", (input, expected) => {
    expect(normalizePostPage(input)).toEqual(expected);
  });

  it("reports hasMore only when rows remain after this page", () => {
    expect(paginationOf({ limit: 10, offset: 0 }, 25, 10).hasMore).toBe(true);
    expect(paginationOf({ limit: 10, offset: 20 }, 25, 5).hasMore).toBe(false);
  });
});
