import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gtin14Of, gtinCheckDigit, isGtin, toGtin14 } from "../../src/shared/catalog/gtin";

describe("GTIN check digits (GS1 General Specifications 7.9.1)", () => {
  it("matches GS1's worked examples and published GTINs", () => {
    // GS1's check digit calculator example: 629104150021 -> 3 (GTIN-13 6291041500213).
    expect(gtinCheckDigit("629104150021")).toBe(3);
    // GS1 US example GTIN-12 614141000036 and the GTIN-14 of its case, 10614141000033 (GS1 company prefix 0614141).
    expect(isGtin("614141000036")).toBe(true);
    expect(isGtin("10614141000033")).toBe(true);
    // A GTIN-8 from GS1's examples: 96385074.
    expect(isGtin("96385074")).toBe(true);
    expect(toGtin14("614141000036")).toBe("00614141000036");
    expect(toGtin14("96385074")).toBe("00000096385074");
  });

  it("refuses every single-digit change of a valid GTIN, other lengths and non-digits", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{13}$/), fc.nat({ max: 13 }), fc.integer({ min: 1, max: 9 }), (first13, at, delta) => {
        const gtin = gtin14Of(first13);
        expect(isGtin(gtin)).toBe(true);
        const changed = gtin.slice(0, at) + String((Number(gtin[at]) + delta) % 10) + gtin.slice(at + 1);
        expect(isGtin(changed)).toBe(false);
      }),
    );
    for (const text of ["", "1234567", "123456789", "6291041500214", "62910415002l3", " 6291041500213"]) expect(isGtin(text)).toBe(false);
    expect(toGtin14("6291041500214")).toBeNull();
  });
});
