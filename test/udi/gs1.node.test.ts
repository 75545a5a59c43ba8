import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gtinCheckDigit } from "../../src/catalog/gtin";
import { calendarDate, formatOf, GS, GS1_AIS, type Gs1Element, hasPredefinedLength, readGs1 } from "../../src/udi/gs1";

const NOW = new Date("2026-11-26T12:00:00Z");
const read = (code: string) => readGs1(code, NOW);
const valuesOf = (code: string) => {
  const reading = read(code);
  if (!reading.ok) throw new Error(`${code}: ${reading.problem.message}`);
  return Object.fromEntries(reading.elements.map((e) => [e.ai, e.date ?? e.value]));
};
const problemOf = (code: string) => {
  const reading = read(code);
  if (reading.ok) throw new Error(`${code} was read: ${JSON.stringify(reading.elements)}`);
  return reading.problem;
};

/** GS1's example GTIN of its Digital Link and barcode specifications. */
const GTIN = "09506000134352";

describe("GS1: the forms a scanner or a person sends", () => {
  it("reads the example of the GS1 specifications in every form to the same elements", () => {
    const expected = { "01": GTIN, "17": "2020-12-25", "10": "ABC123", "21": "XYZ-9" };
    for (const code of [
      `(01)${GTIN}(17)201225(10)ABC123(21)XYZ-9`,
      `01${GTIN}17201225` + `10ABC123${GS}21XYZ-9`,
      `]d201${GTIN}17201225` + `10ABC123${GS}21XYZ-9`,
      `]C1${GS}01${GTIN}17201225` + `10ABC123${GS}21XYZ-9`,
      `https://id.gs1.org/01/${GTIN}/10/ABC123/21/XYZ-9?17=201225`,
      `https://scan.example.com/some/prefix/gtin/${GTIN}/lot/ABC123/ser/XYZ-9?exp=201225&utm_source=label`,
      `  (01)${GTIN}(17)201225(10)ABC123(21)XYZ-9\r\n`,
    ]) {
      expect(valuesOf(code), JSON.stringify(code)).toEqual(expected);
    }
    expect(read(`(01)${GTIN}`)).toMatchObject({ ok: true, form: "bracketed" });
    expect(read(`https://example.org/01/${GTIN}`)).toMatchObject({ ok: true, form: "digital-link" });
  });

  it("a bare GTIN-8, -12, -13 or -14 is its GTIN-14; a Digital Link's short GTIN is padded too", () => {
    expect(valuesOf("95060002")).toEqual({ "01": "00000095060002" });
    expect(valuesOf("9506000134352")).toEqual({ "01": GTIN });
    expect(read("9506000134352")).toMatchObject({ form: "gtin" });
    expect(valuesOf(`https://example.org/01/9506000134352`)).toEqual({ "01": GTIN });
    expect(problemOf("9506000134353")).toMatchObject({ element: "01", code: "check_digit" });
    // Digits alone of a GTIN's length are read as a GTIN; as an element string they need a symbology identifier or GS.
    expect(problemOf("30000002")).toMatchObject({ element: "01", code: "check_digit" });
    expect(valuesOf("]d230000002")).toEqual({ "30": "000002" });
    expect(valuesOf(`${GS}30000002`)).toEqual({ "30": "000002" });
  });

  it("values may hold GS1's 82 characters, brackets included, in the bracketed form", () => {
    expect(valuesOf(`(01)${GTIN}(10)AB(1)C/D-E`)).toEqual({ "01": GTIN, "10": "AB(1)C/D-E" });
  });
});

describe("GS1: dates", () => {
  it("day 00 is the month's last day; the century keeps the year within 49 years before and 50 after today", () => {
    expect(calendarDate("260200", "YYMMDD", NOW)).toBe("2026-02-28");
    expect(calendarDate("280200", "YYMMDD", NOW)).toBe("2028-02-29");
    expect(calendarDate("991231", "YYMMDD", NOW)).toBe("1999-12-31");
    expect(calendarDate("760101", "YYMMDD", NOW)).toBe("2076-01-01");
    expect(calendarDate("770101", "YYMMDD", NOW)).toBe("1977-01-01");
    expect(calendarDate("2612311230", "YYMMDDHHMM", NOW)).toBe("2026-12-31T12:30Z");
    for (const bad of ["261301", "260230", "26013", "2601a1"]) expect(calendarDate(bad, "YYMMDD", NOW), bad).toBeNull();
    expect(calendarDate("2612312460", "YYMMDDHHMM", NOW)).toBeNull();
  });

  it("a bad date names its element", () => {
    expect(problemOf(`(01)${GTIN}(17)261332`)).toMatchObject({ element: "17", code: "bad_date" });
    expect(problemOf(`(01)${GTIN}(11)260231`)).toMatchObject({ element: "11", code: "bad_date" });
  });
});

describe("GS1: what is refused, and which element it names", () => {
  it("an AI Medparts does not read, a missing or overlong value, characters outside the set, a repeated AI", () => {
    expect(problemOf(`(01)${GTIN}(8005)000100`)).toMatchObject({ code: "unknown_ai" });
    expect(problemOf(`01${GTIN}8005000100`)).toMatchObject({ element: "8005", code: "unknown_ai" });
    expect(problemOf(`01${GTIN}10${"A".repeat(21)}`)).toMatchObject({
      element: "10",
      code: "too_long",
      message: expect.stringContaining("GS separator"),
    });
    expect(problemOf(`]d201${GTIN.slice(0, 10)}`)).toMatchObject({ element: "01", code: "too_short" });
    expect(problemOf(`(01)${GTIN}(10)`)).toMatchObject({ element: "10", code: "too_short" });
    expect(problemOf(`(01)${GTIN}(10)AB#1`)).toMatchObject({ element: "10", code: "bad_characters" });
    expect(problemOf(`(01)${GTIN}(30)12A`)).toMatchObject({ element: "30", code: "bad_characters" });
    expect(problemOf(`(01)${GTIN}(10)A(10)B`)).toMatchObject({ element: "10", code: "repeated_ai" });
    expect(problemOf("]d1ABC")).toMatchObject({ code: "not_gs1" });
    expect(problemOf("+H123PART1")).toMatchObject({ code: "not_gs1" });
    expect(problemOf(" \r\n")).toMatchObject({ code: "empty" });
    expect(problemOf(`https://example.org/01/${GTIN}?8005=000100`)).toMatchObject({ element: "8005", code: "unknown_ai" });
    expect(problemOf("https://example.org/products/123")).toMatchObject({ code: "not_gs1" });
  });
});

/** A valid value for an AI (check digits computed, dates real, text from GS1's 82 characters without brackets). */
function valueArbitrary(ai: string): fc.Arbitrary<string> {
  const format = formatOf(ai)!;
  const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
  if (["00", "01", "02", "410", "414"].includes(ai)) {
    const length = (format as { digits: number }).digits;
    return digits(length - 1).map((body) => `${body}${gtinCheckDigit(body)}`);
  }
  if (["11", "12", "13", "15", "16", "17"].includes(ai)) {
    return fc
      .date({ min: new Date("1980-01-01"), max: new Date("2075-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(2, 10).replaceAll("-", ""));
  }
  if (ai === "7003") {
    return fc
      .date({ min: new Date("1980-01-01"), max: new Date("2075-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(2, 16).replace(/[-T:]/g, ""));
  }
  if ("digits" in format) return digits(format.digits);
  if (format.numeric) return fc.stringMatching(new RegExp(`^\\d{1,${format.upTo}}$`));
  return fc.stringMatching(new RegExp(`^[!"%&'*+,\\-./0-9:;<=>?A-Z_a-z]{1,${format.upTo}}$`));
}

const labelArbitrary = fc
  .uniqueArray(fc.constantFrom(...GS1_AIS.map((a) => a.ai)), { minLength: 1, maxLength: 6 })
  .chain((ais) => fc.tuple(...ais.map((ai) => valueArbitrary(ai).map((value) => ({ ai, value })))));

const elementString = (elements: { ai: string; value: string }[]) =>
  elements.map((e, i) => `${e.ai}${e.value}${!hasPredefinedLength(e.ai) && i < elements.length - 1 ? GS : ""}`).join("");
const bracketed = (elements: { ai: string; value: string }[]) => elements.map((e) => `(${e.ai})${e.value}`).join("");

describe("GS1 (property): generated labels read back; any changed check digit is refused", () => {
  it("element strings (with a symbology identifier or not) and the bracketed form read back to their elements", () => {
    fc.assert(
      fc.property(labelArbitrary, fc.constantFrom("", "]d2", "]C1", "]Q3", "]e0", GS), (elements, prefix) => {
        const raw = prefix + elementString(elements);
        // Digits alone of a GTIN's length are read as a GTIN (the documented precedence), not as this element string.
        const readsAsGtin = /^\d{8}$|^\d{12,14}$/.test(raw);
        for (const code of readsAsGtin ? [bracketed(elements)] : [raw, bracketed(elements)]) {
          const reading = read(code);
          expect(reading.ok, `${JSON.stringify(code)}: ${JSON.stringify(reading)}`).toBe(true);
          expect((reading as { elements: Gs1Element[] }).elements.map(({ ai, value }) => ({ ai, value }))).toEqual(elements);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("every other digit in place of a check digit (GTIN, SSCC, GLN) is refused, naming the element", () => {
    fc.assert(
      fc.property(fc.constantFrom("00", "01", "02", "410", "414"), (ai) => {
        fc.assert(
          fc.property(valueArbitrary(ai), fc.integer({ min: 1, max: 9 }), (value, shift) => {
            const wrong = `${value.slice(0, -1)}${(Number(value.at(-1)) + shift) % 10}`;
            for (const code of [`(${ai})${wrong}`, `${ai}${wrong}`]) {
              expect(read(code)).toMatchObject({ ok: false, problem: { element: ai, code: "check_digit" } });
            }
          }),
          { numRuns: 50 },
        );
      }),
      { numRuns: 10 },
    );
  });
});
