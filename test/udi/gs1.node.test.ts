import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gtinCheckDigit } from "../../src/shared/catalog/gtin";
import { calendarDate, formatOf, GS, GS1_AIS, type Gs1Element, hasPredefinedLength, readGs1 } from "../../src/shared/udi/gs1";

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
    expect(calendarDate("260200", "YYMMD0", NOW)).toBe("2026-02-28");
    expect(calendarDate("280200", "YYMMD0", NOW)).toBe("2028-02-29");
    expect(calendarDate("991231", "YYMMDD", NOW)).toBe("1999-12-31");
    expect(calendarDate("760101", "YYMMDD", NOW)).toBe("2076-01-01");
    expect(calendarDate("770101", "YYMMDD", NOW)).toBe("1977-01-01");
    // Day 00 only where the syntax dictionary allows it (yymmd0: AIs 11 to 17); never in AI 7003's date.
    expect(calendarDate("260200", "YYMMDD", NOW)).toBeNull();
    expect(calendarDate("2602001200", "YYMMDDHHMM", NOW)).toBeNull();
    expect(calendarDate("2612311230", "YYMMDDHHMM", NOW)).toBe("2026-12-31T12:30Z");
    for (const bad of ["261301", "260230", "26013", "2601a1"]) expect(calendarDate(bad, "YYMMDD", NOW), bad).toBeNull();
    expect(calendarDate("2612312460", "YYMMDDHHMM", NOW)).toBeNull();
  });

  it("AI 7003 with day 00 is refused; AIs 11 to 17 read day 00 as the month's last day", () => {
    expect(problemOf(`(01)${GTIN}(7003)2602001200`)).toMatchObject({ element: "7003", code: "bad_date" });
    expect(valuesOf(`(01)${GTIN}(17)260200(11)250100`)).toMatchObject({ "17": "2026-02-28", "11": "2025-01-31" });
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
    expect(problemOf("]d1ABC")).toMatchObject({ code: "not_gs1", message: expect.stringContaining("Digital Link") });
    expect(problemOf(`]d101${GTIN}`)).toMatchObject({ code: "not_gs1" });
    expect(problemOf("]A0ABC")).toMatchObject({ code: "not_gs1" });
    expect(problemOf("+H123PART1")).toMatchObject({ code: "not_gs1" });
    expect(problemOf(" \r\n")).toMatchObject({ code: "empty" });
    expect(problemOf(`https://example.org/01/${GTIN}?8005=000100`)).toMatchObject({ element: "8005", code: "unknown_ai" });
    expect(problemOf("https://example.org/products/123")).toMatchObject({ code: "not_gs1" });
  });
});

describe("GS1: AIM symbology identifiers of symbols that are not GS1 element strings", () => {
  it("]E0 and ]E4 are an EAN-13 and an EAN-8 carrying a GTIN, check digit verified", () => {
    expect(read("]E09506000134352")).toMatchObject({ ok: true, form: "gtin", elements: [{ ai: "01", value: GTIN }] });
    expect(valuesOf("]E495060002")).toEqual({ "01": "00000095060002" });
    expect(problemOf("]E09506000134353")).toMatchObject({ element: "01", code: "check_digit" });
    expect(problemOf("]E4950600021")).toMatchObject({ element: "01", code: "too_long" });
    expect(problemOf(`]E0${GTIN}`)).toMatchObject({ element: "01", code: "too_long" });
    expect(problemOf("]E0(01)95060001343")).toMatchObject({ element: "01", code: "bad_characters" });
  });

  it("]Q1, ]d1 and ]J0 (plain QR Code, Data Matrix, DotCode) carry GS1 data as a Digital Link URI only", () => {
    for (const symbology of ["]Q1", "]d1", "]J0"]) {
      expect(read(`${symbology}https://id.example.com/01/${GTIN}/10/LOT42`), symbology).toMatchObject({
        ok: true,
        form: "digital-link",
        elements: [
          { ai: "01", value: GTIN },
          { ai: "10", value: "LOT42" },
        ],
      });
      expect(problemOf(`${symbology}(01)${GTIN}`), symbology).toMatchObject({ code: "not_gs1" });
      expect(problemOf(`${symbology}https://id.example.com/01/${GTIN}/`), symbology).toMatchObject({ code: "bad_digital_link" });
    }
  });
});

describe("GS1: refurbished and serviced parts (AIs 416, 7020, 7021, 7022) and the AIs that go together", () => {
  const gln = `950600000000${gtinCheckDigit("950600000000")}`;

  it("reads the production or service location, refurbishment lot, functional and revision status", () => {
    expect(valuesOf(`(01)${GTIN}(416)${gln}(7020)RF-2024-7(7021)FULL(7022)REV3`)).toEqual({
      "01": GTIN,
      "416": gln,
      "7020": "RF-2024-7",
      "7021": "FULL",
      "7022": "REV3",
    });
    expect(valuesOf(`]d201${GTIN}416${gln}7020RF-1${GS}7021OK`)).toMatchObject({ "416": gln, "7020": "RF-1", "7021": "OK" });
    expect(problemOf(`(01)${GTIN}(416)${gln.slice(0, 12)}${(Number(gln.at(-1)) + 1) % 10}`)).toMatchObject({
      element: "416",
      code: "check_digit",
    });
  });

  it("enforces their mandatory associations: 7020 needs 01 and 416, 7021 needs 01, 7022 needs 01 and 7021", () => {
    expect(problemOf(`(01)${GTIN}(7020)RF-1`)).toMatchObject({
      element: "7020",
      code: "missing_requisite",
      message: expect.stringContaining("(416)"),
    });
    expect(problemOf(`(416)${gln}(7020)RF-1`)).toMatchObject({ element: "7020", code: "missing_requisite" });
    expect(problemOf("(7021)OK")).toMatchObject({ element: "7021", code: "missing_requisite" });
    expect(problemOf(`(01)${GTIN}(7022)REV3`)).toMatchObject({
      element: "7022",
      code: "missing_requisite",
      message: expect.stringContaining("(7021)"),
    });
  });

  it("refuses the pairs the syntax dictionary forbids, in every form", () => {
    const CONTENT = "19506000134359";
    expect(problemOf(`(01)${GTIN}(02)${CONTENT}`)).toMatchObject({ element: "02", code: "invalid_pair" });
    expect(problemOf(`01${GTIN}02${CONTENT}`)).toMatchObject({ element: "02", code: "invalid_pair" });
    expect(problemOf(`(01)${GTIN}(37)10`)).toMatchObject({ element: "37", code: "invalid_pair" });
    expect(problemOf(`https://id.example.com/01/${GTIN}?37=10`)).toMatchObject({ element: "37", code: "invalid_pair" });
    expect(problemOf(`(01)${GTIN}(21)S1(235)TPX`)).toMatchObject({ element: "235", code: "invalid_pair" });
    expect(problemOf(`(01)${GTIN}(3100)000100(3102)010000`)).toMatchObject({ code: "invalid_pair" });
    // A logistic unit's content with its count is a valid pair.
    expect(valuesOf(`(00)${"9506000000000000".padEnd(17, "0")}${gtinCheckDigit("95060000000000000")}(02)${CONTENT}(37)10`)).toMatchObject({
      "02": CONTENT,
      "37": "10",
    });
  });

  it("a lone lot, serial or date is read (it names no product: the resolver says so)", () => {
    expect(valuesOf("(10)LOT42")).toEqual({ "10": "LOT42" });
    expect(valuesOf("(21)SN1(17)300101")).toEqual({ "21": "SN1", "17": "2030-01-01" });
  });
});

describe("GS1 Digital Link: read as strictly as the standard", () => {
  const BASE = `https://id.example.com/01/${GTIN}`;

  it("refuses each looseness, naming the rule", () => {
    const refusals: [string, Record<string, unknown>][] = [
      [`${BASE}/`, { code: "bad_digital_link", message: expect.stringContaining("slash") }],
      [`${BASE}/10/LOT42/`, { code: "bad_digital_link", message: expect.stringContaining("slash") }],
      [`https://id.example.com/01//${GTIN}`, { code: "bad_digital_link", message: expect.stringContaining("empty segment") }],
      [`${BASE}?10=LOT42`, { element: "10", code: "bad_digital_link", message: expect.stringContaining("goes in the path") }],
      [`${BASE}/21/SN1/10/LOT42`, { element: "21,10", code: "bad_digital_link", message: expect.stringContaining("22, 10, 21") }],
      [`${BASE}/10/LOT42/22/CPV`, { element: "10,22", code: "bad_digital_link" }],
      [`${BASE}/99/ABC`, { element: "99", code: "bad_digital_link", message: expect.stringContaining("not a key qualifier") }],
      [`${BASE}/10/LOT42/235/TPX`, { element: "10,235", code: "bad_digital_link", message: expect.stringContaining("or 235") }],
      [`${BASE}/10/LOT42?10=LOT42`, { element: "10", code: "repeated_ai" }],
      [`${BASE}?01=${GTIN}`, { element: "01", code: "repeated_ai" }],
      [`${BASE}?99=A&99=A`, { element: "99", code: "repeated_ai" }],
      [`HtTp://id.example.com/01/${GTIN}`, { code: "not_gs1", message: expect.stringContaining("in one case") }],
      [`https://id.example.com/01/${GTIN}/10/%E0%A4%A`, { code: "bad_digital_link", message: expect.stringContaining("percent") }],
    ];
    for (const [code, problem] of refusals) expect(problemOf(code), code).toMatchObject(problem);
  });

  it("still reads a path stem, either case of the scheme, a TPX with a lot in the query, data attributes in the query", () => {
    expect(valuesOf(`HTTPS://id.example.com/some/stem/01/${GTIN}/22/C1/10/LOT42/21/SN1?17=301231&99=X&utm=1#top`)).toEqual({
      "01": GTIN,
      "22": "C1",
      "10": "LOT42",
      "21": "SN1",
      "17": "2030-12-31",
      "99": "X",
    });
    expect(valuesOf(`${BASE}/235/TPX?10=LOT42`)).toEqual({ "01": GTIN, "235": "TPX", "10": "LOT42" });
  });

  it("reads a Digital Link keyed by an SSCC, a GLN (with its extension) or a GIAI, as the bracketed form reads the same data", () => {
    const sscc = `09506000000000001`;
    const SSCC = `${sscc}${gtinCheckDigit(sscc)}`;
    const glnBody = "950600000001";
    const GLN = `${glnBody}${gtinCheckDigit(glnBody)}`;
    expect(valuesOf(`https://id.example.com/00/${SSCC}?02=19506000134359&37=25`)).toEqual(valuesOf(`(00)${SSCC}(02)19506000134359(37)25`));
    expect(valuesOf(`https://id.example.com/414/${GLN}/254/WARD-3`)).toEqual({ "414": GLN, "254": "WARD-3" });
    expect(valuesOf(`https://id.example.com/8004/9506000ASSET7?01=${GTIN}`)).toEqual({ "8004": "9506000ASSET7", "01": GTIN });
    expect(problemOf(`https://id.example.com/00/${SSCC}/10/LOT42`)).toMatchObject({ element: "10", code: "bad_digital_link" });
    expect(problemOf("https://id.example.com/products/123")).toMatchObject({ code: "not_gs1", message: expect.stringContaining("/00/") });
  });
});

/** A valid value for an AI (check digits computed, dates real, text from GS1's 82 characters without brackets). */
function valueArbitrary(ai: string): fc.Arbitrary<string> {
  const format = formatOf(ai)!;
  const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
  if (["00", "01", "02", "410", "414", "416"].includes(ai)) {
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

/**
 * Whether AIs may stand together in one code (GS1 syntax dictionary): not the pairs it forbids, not two decimal positions
 * of one weight, and the refurbishment AIs with their product and location.
 */
const validTogether = (ais: string[]) => {
  const has = (ai: string) => ais.includes(ai);
  const forbidden = [
    ["01", "02"],
    ["01", "37"],
    ["21", "235"],
  ].some((pair) => pair.every(has));
  const decimals = ["310", "330"].some((prefix) => ais.filter((ai) => ai.startsWith(prefix) && ai.length === 4).length > 1);
  const requisites = (!has("7020") || (has("01") && has("416"))) && (!has("7021") || has("01")) && (!has("7022") || has("7021"));
  return !forbidden && !decimals && requisites;
};

const labelArbitrary = fc
  .uniqueArray(fc.constantFrom(...GS1_AIS.map((a) => a.ai)), { minLength: 1, maxLength: 6 })
  .filter(validTogether)
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
      fc.property(fc.constantFrom("00", "01", "02", "410", "414", "416"), (ai) => {
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
