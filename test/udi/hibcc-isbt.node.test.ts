import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hibccCheckCharacter, readHibcc } from "../../src/shared/udi/hibcc";
import { readIsbt128 } from "../../src/shared/udi/isbt128";
import { scanCode } from "../../src/shared/udi/scan";

const CHARACTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%";
const withCheck = (data: string) => `${data}${hibccCheckCharacter(data)}`;

describe("HIBCC: ANSI/HIBC 2.6 examples", () => {
  it("reads the standard's concatenated example (lot, expiry YYJJJ, manufacture date, serial; check 7)", () => {
    expect(readHibcc("+A99912345/$$52001510X3/16D20111212/S77DEFG457")).toEqual({
      ok: true,
      structure: "concatenated",
      primary: { labelerId: "A999", productNumber: "1234", unitOfMeasure: 5 },
      secondary: { lot: "10X3", serial: "77DEFG45", expiry: "2020-01-15", production: "2011-12-12", quantity: null },
    });
  });

  it("reads a primary printed under a Code 39 bar with its * start and stop, and its check character", () => {
    expect(readHibcc("*+A123BJC5D6E71G*")).toEqual({
      ok: true,
      structure: "primary",
      primary: { labelerId: "A123", productNumber: "BJC5D6E7", unitOfMeasure: 1 },
      check: "G",
    });
  });

  it("reads a secondary alone: its link character (the primary's check character), then its own check", () => {
    const secondary = withCheck("+$$3301231LOT42G");
    expect(readHibcc(secondary)).toMatchObject({
      ok: true,
      structure: "secondary",
      link: "G",
      secondary: { lot: "LOT42", expiry: "2030-12-31" },
    });
  });

  it("reads every date format after $$ and the quantity flags", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["$$0330LOT1", { expiry: "2030-03-31", lot: "LOT1" }], // MMYY: the month's last day
      ["$$2123130LOT1", { expiry: "2030-12-31" }], // MMDDYY
      ["$$3301231LOT1", { expiry: "2030-12-31" }], // YYMMDD
      ["$$43012312300LOT1", { expiry: "2030-12-31" }], // YYMMDDHH (the hour is read, the date kept)
      ["$$530365LOT1", { expiry: "2030-12-31" }], // YYJJJ
      ["$$63036523LOT1", { expiry: "2030-12-31" }], // YYJJJHH
      ["$$7LOT1", { expiry: null, lot: "LOT1" }], // no date
      ["$$8120130LOT1", { quantity: 12, expiry: "2030-01-31" }],
      ["$$9001003301231LOT1", { quantity: 100, expiry: "2030-12-31" }],
      ["$$+3301231SER9", { serial: "SER9", lot: null }],
      ["$+SER9", { serial: "SER9" }],
      ["$LOT9", { lot: "LOT9" }],
      ["30365LOT9", { expiry: "2030-12-31", lot: "LOT9" }], // the old YYJJJ form
      ["$LOT9/14D20301231/Q25", { lot: "LOT9", expiry: "2030-12-31", quantity: 25 }],
    ];
    for (const [secondary, expected] of cases) {
      const reading = readHibcc(withCheck(`+A123BJC5D6E71/${secondary}`));
      expect(reading, secondary).toMatchObject({ ok: true, structure: "concatenated", secondary: expected });
    }
  });

  it("refuses what is not HIBCC data, naming the part at fault", () => {
    const problems: [string, string | null, string][] = [
      ["+A123BJC5D6E71H", "check", "check_character"],
      [withCheck("+1123BJC5D6E71/$LOT1"), null, "unknown_field"], // a labeler code starts with a letter
      [withCheck("+A123BJC5D6E7X"), "unitOfMeasure", "bad_characters"],
      [withCheck(`+A123${"P".repeat(19)}1`), "pcn", "too_long"],
      [withCheck("+A123BJC5D6E71/$$2133030LOT1"), "expiry", "bad_date"],
      [withCheck("+A123BJC5D6E71/$LOT1/X99"), null, "unknown_field"],
      [withCheck(`+A123BJC5D6E71/$${"L".repeat(19)}`), "lot", "too_long"],
      ["+a123bjc5d6e71g!", null, "bad_characters"],
    ];
    for (const [code, element, problem] of problems) {
      expect(readHibcc(code), code).toMatchObject({ ok: false, problem: { element, code: problem } });
    }
  });

  it("a check character J with a trailing space: the code as sent wins when it parses, else the trimmed one", () => {
    const letters = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
    // A primary whose check character is J: as sent with a space, "J" would be its unit of measure (not a digit).
    const primary = letters.flatMap((x) => letters.map((y) => `+A123${x}${y}1`)).find((data) => hibccCheckCharacter(data) === "J")!;
    expect(readHibcc(`${primary}J `)).toMatchObject({ ok: true, structure: "primary", check: "J" });
    // A concatenated code ending in J whose check character is a space: read as sent (the J is the lot's).
    const concatenated = letters.map((x) => `+A123BJC5D6E71/$$3301231LOT${x}J`).find((data) => hibccCheckCharacter(data) === " ")!;
    expect(readHibcc(`${concatenated} `)).toMatchObject({ ok: true, secondary: { lot: concatenated.slice(-5) } });
  });

  it("day 00 is the month's last day only in MMYY; elsewhere it is no date", () => {
    for (const secondary of ["$$2010030LOT1", "$$3300100LOT1", "$LOT1/14D20300100", "$LOT1/16D20300100"]) {
      expect(readHibcc(withCheck(`+A123BJC5D6E71/${secondary}`)), secondary).toMatchObject({ ok: false, problem: { code: "bad_date" } });
    }
  });

  it("small letters are refused (HIBC data is in capitals); a space check character is data, and a scanner's trailing space is not", () => {
    expect(readHibcc("+A123BJC5D6E71G  \r\n")).toMatchObject({ ok: true, check: "G" });
    for (const small of ["+a123bjc5d6e71g", "+A123BJC5D6E71g", "*+a123bjc5d6e71g*"]) {
      expect(readHibcc(small), small).toMatchObject({
        ok: false,
        problem: { element: null, code: "bad_characters", message: expect.stringContaining("capitals") },
      });
    }
    // Find a primary whose check character is a space.
    const letters = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
    const product = letters.flatMap((x) => letters.map((y) => `+A123${x}${y}1`)).find((data) => hibccCheckCharacter(data) === " ")!;
    expect(product).toBeDefined();
    expect(readHibcc(`${product} `)).toMatchObject({ ok: true, check: " " });
    expect(readHibcc(`${product} \r\n`)).toMatchObject({ ok: true, check: " " });
    // Dropped, it is not guessed back (a wrong check character would pass whenever a space verified): the answer says so.
    expect(readHibcc(product)).toMatchObject({
      ok: false,
      problem: { code: "check_character", message: expect.stringContaining("space") },
    });
  });
});

const alphanumeric = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), minLength: min, maxLength: max });
const primaryArbitrary = fc.record({
  labelerId: fc.tuple(fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"), alphanumeric(3, 3)).map(([a, b]) => a + b),
  productNumber: alphanumeric(1, 18),
  unitOfMeasure: fc.integer({ min: 0, max: 9 }),
});
const secondaryArbitrary = fc.record({
  lot: alphanumeric(1, 18),
  expiry: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }),
  serial: fc.option(alphanumeric(1, 18), { nil: null }),
});
const yymmdd = (date: Date) => date.toISOString().slice(2, 10).replaceAll("-", "");

describe("HIBCC: generated labels read back; any other check character is refused", () => {
  it("concatenated, primary alone and secondary alone (with the primary's check as its link)", () => {
    fc.assert(
      fc.property(primaryArbitrary, secondaryArbitrary, (primary, secondary) => {
        const primaryData = `+${primary.labelerId}${primary.productNumber}${primary.unitOfMeasure}`;
        const secondaryData = `$$3${yymmdd(secondary.expiry)}${secondary.lot}${secondary.serial ? `/S${secondary.serial}` : ""}`;
        const expected = {
          lot: secondary.lot,
          serial: secondary.serial,
          expiry: secondary.expiry.toISOString().slice(0, 10),
          production: null,
          quantity: null,
        };
        expect(readHibcc(withCheck(`${primaryData}/${secondaryData}`))).toEqual({
          ok: true,
          structure: "concatenated",
          primary,
          secondary: expected,
        });
        const check = hibccCheckCharacter(primaryData);
        expect(readHibcc(`${primaryData}${check}`)).toEqual({ ok: true, structure: "primary", primary, check });
        expect(readHibcc(withCheck(`+${secondaryData}${check}`))).toEqual({
          ok: true,
          structure: "secondary",
          secondary: expected,
          link: check,
        });
      }),
    );
  });

  it("every one of the 42 other check characters is refused", () => {
    fc.assert(
      fc.property(primaryArbitrary, (primary) => {
        const data = `+${primary.labelerId}${primary.productNumber}${primary.unitOfMeasure}`;
        const check = hibccCheckCharacter(data);
        for (const other of CHARACTERS) {
          if (other === check || other === " ") continue; // a trailing space is what a scanner may add, tried as data
          expect(readHibcc(`${data}${other}`)).toMatchObject({ ok: false, problem: { element: "check", code: "check_character" } });
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe("ISBT 128: AccessGUDID's example and the data structures", () => {
  it("reads AccessGUDID's documented ICCBBA UDI", () => {
    expect(readIsbt128("=/08717648200274=,000025=A99971312345600=>014032=}013032&,1000000000000XYZ123")).toEqual({
      ok: true,
      deviceId: "08717648200274",
      serial: "000025",
      donationId: "A99971312345600",
      expiry: "2014-02-01",
      production: "2013-02-01",
      lot: "000000000000XYZ123",
    });
  });

  it("reads dates with times, in any order of structures, and refuses bad ones naming the data identifier", () => {
    expect(readIsbt128("&>0303651430=/ABC123456")).toMatchObject({ ok: true, deviceId: "ABC123456", expiry: "2030-12-31T14:30Z" });
    expect(readIsbt128("=/ABC123456=>030366")).toMatchObject({ ok: false, problem: { element: "=>", code: "bad_date" } });
    expect(readIsbt128("=/ABC123456=%12")).toMatchObject({ ok: false, problem: { code: "unknown_data_identifier" } });
    expect(readIsbt128("=>030365")).toMatchObject({ ok: false, problem: { element: "=/", code: "missing_device_identifier" } });
    expect(readIsbt128("=/AB")).toMatchObject({ ok: false, problem: { element: "=/" } });
  });
});

describe("scanCode: which agency a code is read as, and when it may be a part number", () => {
  it("tells the agencies apart by their marks, and only an unmarked code is also a part number", () => {
    expect(scanCode("+A123BJC5D6E71G\r\n")).toMatchObject({
      reading: { kind: "hibcc", data: { agency: "HIBCC", deviceId: "A123BJC5D6E71" } },
      partNumber: null,
    });
    expect(scanCode("=/08717648200274")).toMatchObject({ reading: { kind: "isbt128", data: { agency: "ICCBBA" } }, partNumber: null });
    expect(scanCode("(01)09506000134352")).toMatchObject({ reading: { kind: "gs1" }, partNumber: null });
    expect(scanCode("10D9T")).toMatchObject({ reading: { kind: "gs1", data: { lot: "D9T", deviceId: null } }, partNumber: "10D9T" });
    expect(scanCode("  09506000134352 ")).toMatchObject({ reading: { kind: "gtin", data: { deviceId: "09506000134352" } } });
    expect(scanCode("PUMP-HEAD 7")).toMatchObject({ reading: null, partNumber: expect.any(String) });
  });

  it("a plain QR Code, Data Matrix or DotCode is read by the marks of its payload: HIBCC, ISBT 128 or a Digital Link", () => {
    for (const symbology of ["]Q1", "]d1", "]J0"]) {
      expect(scanCode(`${symbology}+A123BJC5D6E71G`), symbology).toMatchObject({
        code: `${symbology}+A123BJC5D6E71G`,
        reading: { kind: "hibcc", form: "hibcc-primary", data: { deviceId: "A123BJC5D6E71" } },
        partNumber: null,
      });
      expect(scanCode(`${symbology}=/08717648200274`), symbology).toMatchObject({ reading: { kind: "isbt128" } });
      expect(scanCode(`${symbology}https://id.example.com/01/09506000134352/10/LOT42`), symbology).toMatchObject({
        reading: { kind: "gs1", form: "digital-link", data: { deviceId: "09506000134352", lot: "LOT42" } },
      });
      expect(scanCode(`${symbology}PUMP-HEAD`), symbology).toMatchObject({ reading: null, problem: { code: "not_gs1" }, partNumber: null });
    }
    expect(scanCode("]E09506000134352")).toMatchObject({ reading: { kind: "gtin", data: { deviceId: "09506000134352" } } });
  });

  it("GS1's variable count (AI 30) is the scanned quantity", () => {
    expect(scanCode("(01)09506000134352(30)0012")).toMatchObject({ reading: { data: { deviceId: "09506000134352", quantity: 12 } } });
    expect(scanCode("(01)09506000134352")).toMatchObject({ reading: { data: { quantity: null } } });
  });
});
