import { describe, expect, it } from "vitest";
import { type CatalogMatches, productIdOf } from "../../src/operator/imports/keys";
import { recordOf } from "../../src/operator/imports/records";

/** Which product a record without id writes when several of its manufacturer share its part number (keys.ts). */
describe("productIdOf: several products with the record's part number", () => {
  const record = recordOf({ partNumber: "AB-12", title: "Part", manufacturer: "Keywerk" });
  const candidate = (id: string, source: string | null, content: string | null, manufacturer = "Keywerk") => ({
    id,
    manufacturer,
    source,
    content,
  });
  const matchesOf = (...candidates: ReturnType<typeof candidate>[]): CatalogMatches => ({
    byDeviceId: new Map(),
    byPartNumber: new Map([[record.normalizedPartNumber, candidates]]),
  });
  const made = "MPN-KEYWERK-AB12";

  it("one of its manufacturer: that one, and the content hash is never computed", () => {
    let asked = 0;
    const matches = matchesOf(candidate("A", null, null), candidate("OTHER", "s", "c", "Otherwerk"));
    expect(productIdOf(record, matches, "s", () => `${asked++}`)).toBe("A");
    expect(asked).toBe(0);
  });

  it("several: the one written from this row, then the one with its content, else an id of its own", () => {
    let asked = 0;
    const content = () => {
      asked++;
      return "c";
    };
    expect(productIdOf(record, matchesOf(candidate("A", "x", "c"), candidate("B", "s", "d")), "s", content)).toBe("B");
    expect(asked).toBe(0);
    expect(productIdOf(record, matchesOf(candidate("A", "x", "d"), candidate("B", null, "c")), "s", content)).toBe("B");
    expect(asked).toBe(1);
    expect(productIdOf(record, matchesOf(candidate("A", null, "c"), candidate("B", null, "c")), "s", content)).toBe(made);
    expect(productIdOf(record, matchesOf(candidate("A", null, "d"), candidate("B", null, "e")), "s", content)).toBe(made);
    expect(productIdOf(record, matchesOf(candidate("A", null, "c"), candidate("B", null, "e")), "s")).toBe(made);
  });
});
