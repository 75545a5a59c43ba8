import { dayOfYear, isoDate } from "./dates";

/**
 * HIBCC UDI data (ANSI/HIBC 2.6 Supplier Labeling Standard; docs/api.md, "Scan to order"), as a scanner sends it or as
 * printed under a Code 39 bar (with the `*` start and stop characters): the primary data structure (labeler, product,
 * unit of measure), the secondary (lot or serial, expiry, quantity, supplemental fields), each alone with its own check
 * character (the secondary names its primary by a link character, the primary's check character), or both
 * concatenated with a `/` and one check character. Every check character is verified (modulo 43).
 */

/** The 43 characters of Code 39 HIBC data, valued 0 to 42 in this order: the modulo 43 check. */
const CHARACTERS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%";

export interface HibccProblem {
  /** The part at fault: `check`, `link`, `lic`, `pcn`, `unitOfMeasure`, `lot`, `serial`, `expiry`, `production`, `quantity`, or null for the whole code. */
  element: string | null;
  code: "not_hibcc" | "bad_characters" | "check_character" | "too_short" | "too_long" | "bad_date" | "unknown_field";
  message: string;
}

export interface HibccPrimary {
  labelerId: string;
  productNumber: string;
  unitOfMeasure: number;
}

export interface HibccSecondary {
  lot: string | null;
  serial: string | null;
  expiry: string | null;
  production: string | null;
  quantity: number | null;
}

export type HibccReading =
  | { ok: true; structure: "primary"; primary: HibccPrimary; check: string }
  | { ok: true; structure: "secondary"; secondary: HibccSecondary; link: string }
  | { ok: true; structure: "concatenated"; primary: HibccPrimary; secondary: HibccSecondary }
  | { ok: false; problem: HibccProblem };

const fail = (element: string | null, code: HibccProblem["code"], message: string): HibccReading => ({
  ok: false,
  problem: { element, code, message },
});

/** The modulo 43 check character of `data` (the `+` flag included). */
export function hibccCheckCharacter(data: string): string {
  let sum = 0;
  for (const character of data) sum += CHARACTERS.indexOf(character);
  return CHARACTERS[sum % 43]!;
}

/** The device identifier a primary names (GUDID's primary DI of an HIBCC device): labeler, product, unit of measure. */
export const hibccDeviceId = (primary: HibccPrimary) => `${primary.labelerId}${primary.productNumber}${primary.unitOfMeasure}`;

/** Whether a code is HIBCC data: its flag character `+`, after the Code 39 start character if printed. */
export const looksLikeHibcc = (data: string) => /^\*?\+/.test(data);

/**
 * Reads a scanned or typed HIBCC code. Small letters are refused, not read as capitals: HIBC data is Code 39's set, and
 * the modulo 43 check has no value for them (a small letter is a misread or a mistyped code).
 */
export function readHibcc(input: string): HibccReading {
  let data = input.replace(/^[ \t\r\n]+|[\t\r\n]+$/g, "");
  if (data.startsWith("*") && data.trimEnd().endsWith("*") && data.trimEnd().length > 2) data = data.trimEnd().slice(1, -1);
  if (!data.startsWith("+")) return fail(null, "not_hibcc", "HIBCC data starts with the flag character +.");
  const bad = [...data].find((character) => !CHARACTERS.includes(character));
  if (bad !== undefined) {
    const small = /[a-z]/.test(bad) ? " HIBC data is in capitals." : "";
    return fail(null, "bad_characters", `"${bad}" is not one of the 43 characters of HIBC data (0-9, A-Z, - . space $ / + %).${small}`);
  }
  // A check character may be a space (value 38): the data as sent, else without the trailing spaces a scanner's suffix
  // may add. A space check character dropped by the sender is not guessed back: that would accept a wrong check
  // character whenever the space happened to verify.
  const trimmed = data.trimEnd();
  const verified = [...new Set([data, trimmed])].filter(
    (candidate) => candidate.length >= 3 && hibccCheckCharacter(candidate.slice(0, -1)) === candidate.at(-1),
  );
  if (verified.length === 0) {
    if (trimmed.length < 3) return fail(null, "too_short", "The code is too short to be HIBCC data.");
    const expected = hibccCheckCharacter(trimmed.slice(0, -1));
    const space = hibccCheckCharacter(trimmed) === " " ? " (If the label's check character is a space, send it: it is data.)" : "";
    return fail(
      "check",
      "check_character",
      `The check character is ${JSON.stringify(trimmed.at(-1))}; the data's modulo 43 check is ${JSON.stringify(expected)}.${space}`,
    );
  }
  // Both verify when the check character is J (2 x 19 = 38, a space's value): with a trailing space, either the J is
  // data and the space the label's check character, or the J is the check character and the space a scanner's. The
  // code as sent is the label's data: it wins when it parses; the trimmed reading only when it does not.
  const readings = verified.map(readVerified);
  return readings.find((reading) => reading.ok) ?? readings[0]!;
}

/** The structure of data whose check character verified. */
function readVerified(verified: string): HibccReading {
  const body = verified.slice(0, -1);
  const check = verified.at(-1)!;
  const content = body.slice(1);
  // A primary starts with its labeler code, whose first character is a letter; a secondary with $ or a digit.
  if (/^[A-Z]/.test(content)) {
    const slash = content.indexOf("/");
    const primary = readPrimary(slash < 0 ? content : content.slice(0, slash));
    if ("problem" in primary) return { ok: false, problem: primary.problem };
    if (slash < 0) return { ok: true, structure: "primary", primary, check };
    const secondary = readSecondary(content.slice(slash + 1));
    if ("problem" in secondary) return { ok: false, problem: secondary.problem };
    return { ok: true, structure: "concatenated", primary, secondary };
  }
  if (content.length < 2) return fail("link", "too_short", "A secondary code ends with its link character, then its check character.");
  const secondary = readSecondary(content.slice(0, -1));
  if ("problem" in secondary) return { ok: false, problem: secondary.problem };
  return { ok: true, structure: "secondary", secondary, link: content.at(-1)! };
}

type Part<T> = T | { problem: HibccProblem };
const problem = (element: string | null, code: HibccProblem["code"], message: string) => ({ problem: { element, code, message } });

function readPrimary(data: string): Part<HibccPrimary> {
  if (!/^[A-Z][A-Z0-9]{3}/.test(data)) {
    return problem("lic", "bad_characters", "The labeler identification code is 4 letters or digits, the first a letter.");
  }
  const productNumber = data.slice(4, -1);
  const unit = data.at(-1)!;
  if (data.length < 6)
    return problem(
      "pcn",
      "too_short",
      "The primary data is the labeler code, a product number of 1 to 18 characters and a unit of measure digit.",
    );
  if (!/^[0-9]$/.test(unit)) return problem("unitOfMeasure", "bad_characters", "The unit of measure is one digit, 0 to 9.");
  if (productNumber.length > 18) return problem("pcn", "too_long", "The product or catalog number has at most 18 characters.");
  if (!/^[A-Z0-9]+$/.test(productNumber)) return problem("pcn", "bad_characters", "The product or catalog number is letters and digits.");
  return { labelerId: data.slice(0, 4), productNumber, unitOfMeasure: Number(unit) };
}

/** Lot and serial numbers: 1 to 18 letters, digits, `-` or `.`. */
const FIELD = /^[A-Z0-9.-]{1,18}$/;

const fieldProblem = (element: "lot" | "serial", value: string) =>
  value.length > 18
    ? problem(element, "too_long", `The ${element} number has at most 18 characters.`)
    : problem(element, value.length === 0 ? "too_short" : "bad_characters", `The ${element} number is 1 to 18 letters, digits, - or .`);

/**
 * The secondary data: `$` lot, `$+` serial, `$$` [quantity] [date] lot, `$$+` [quantity] [date] serial, or the old
 * YYJJJ date and lot; then supplemental fields after `/` (`S` serial, `14D` expiry and `16D` manufacture as
 * YYYYMMDD, `Q` quantity).
 */
function readSecondary(data: string): Part<HibccSecondary> {
  const [main = "", ...supplements] = data.split("/");
  const result: HibccSecondary = { lot: null, serial: null, expiry: null, production: null, quantity: null };
  let rest = main;
  let field: "lot" | "serial" = "lot";
  if (/^\d{5}/.test(rest)) {
    const expiry = julianDate(rest.slice(0, 5));
    if (!expiry) return problem("expiry", "bad_date", `${rest.slice(0, 5)} is not a date YYJJJ.`);
    result.expiry = expiry;
    rest = rest.slice(5);
  } else if (rest.startsWith("$$")) {
    rest = rest.slice(2);
    if (rest.startsWith("+")) {
      field = "serial";
      rest = rest.slice(1);
    }
    const quantityDigits = rest.startsWith("8") ? 2 : rest.startsWith("9") ? 5 : 0;
    if (quantityDigits > 0) {
      const quantity = rest.slice(1, 1 + quantityDigits);
      if (!/^\d+$/.test(quantity) || quantity.length < quantityDigits) {
        return problem("quantity", "bad_characters", `The quantity after $$${rest[0]} is ${quantityDigits} digits.`);
      }
      result.quantity = Number(quantity);
      rest = rest.slice(1 + quantityDigits);
    }
    const dated = readExpiry(rest);
    if ("problem" in dated) return dated;
    result.expiry = dated.expiry;
    rest = dated.rest;
  } else if (rest.startsWith("$+")) {
    field = "serial";
    rest = rest.slice(2);
  } else if (rest.startsWith("$")) {
    rest = rest.slice(1);
  } else {
    return problem(null, "unknown_field", "A secondary data structure starts with $, $+, $$, $$+ or a date YYJJJ.");
  }
  if (rest !== "" || field === "serial" || !main.startsWith("$$")) {
    if (!FIELD.test(rest)) return fieldProblem(field, rest);
    result[field] = rest;
  }
  for (const supplement of supplements) {
    const read = readSupplement(supplement, result);
    if (read) return read;
  }
  return result;
}

/** The date after `$$` (its format by the first character) and what follows it. */
function readExpiry(data: string): Part<{ expiry: string | null; rest: string }> {
  const flag = data[0];
  const formats: Record<string, [number, (digits: string) => string | null]> = {
    "2": [6, (d) => calendar(`20${d.slice(4, 6)}`, d.slice(0, 2), d.slice(2, 4))],
    "3": [6, (d) => calendar(`20${d.slice(0, 2)}`, d.slice(2, 4), d.slice(4, 6))],
    "4": [8, (d) => calendar(`20${d.slice(0, 2)}`, d.slice(2, 4), d.slice(4, 6), d.slice(6, 8))],
    "5": [5, (d) => julianDate(d)],
    "6": [7, (d) => julianDate(d.slice(0, 5), d.slice(5, 7))],
  };
  if (flag === "0" || flag === "1") {
    // MMYY, the flag being the month's first digit: the last day of that month.
    const digits = data.slice(0, 4);
    const expiry = /^\d{4}$/.test(digits) ? calendar(`20${digits.slice(2, 4)}`, digits.slice(0, 2), null) : null;
    return expiry ? { expiry, rest: data.slice(4) } : problem("expiry", "bad_date", `${digits} is not a date MMYY.`);
  }
  if (flag === "7") return { expiry: null, rest: data.slice(1) };
  const format = flag === undefined ? undefined : formats[flag];
  if (!format) return problem("expiry", "bad_date", "After $$ comes a date: MMYY, or a format flag 2 to 7 and its date.");
  const [length, read] = format;
  const digits = data.slice(1, 1 + length);
  const expiry = /^\d+$/.test(digits) && digits.length === length ? read(digits) : null;
  return expiry ? { expiry, rest: data.slice(1 + length) } : problem("expiry", "bad_date", `${digits} is not a date of format ${flag}.`);
}

function readSupplement(supplement: string, result: HibccSecondary): { problem: HibccProblem } | null {
  if (supplement.startsWith("14D") || supplement.startsWith("16D")) {
    const element = supplement.startsWith("14D") ? "expiry" : "production";
    const digits = supplement.slice(3);
    const date = /^\d{8}$/.test(digits) ? calendar(digits.slice(0, 4), digits.slice(4, 6), digits.slice(6, 8)) : null;
    if (!date) return problem(element, "bad_date", `${digits} is not a date YYYYMMDD.`);
    result[element] = date;
    return null;
  }
  if (supplement.startsWith("S")) {
    const serial = supplement.slice(1);
    if (!FIELD.test(serial)) return fieldProblem("serial", serial);
    result.serial = serial;
    return null;
  }
  if (supplement.startsWith("Q")) {
    const quantity = supplement.slice(1);
    if (!/^\d{1,5}$/.test(quantity)) return problem("quantity", "bad_characters", "A quantity (/Q) is 1 to 5 digits.");
    result.quantity = Number(quantity);
    return null;
  }
  return problem(null, "unknown_field", `Unknown supplemental data "/${supplement.slice(0, 3)}": HIBCC UDIs use /S, /14D, /16D and /Q.`);
}

/** A date (year, month, day), with an hour if given, or null when it is none. `day` null: the month's last (MMYY). */
function calendar(year: string, month: string, day: string | null, hour?: string): string | null {
  if (hour !== undefined && Number(hour) > 23) return null;
  return isoDate(Number(year), Number(month), day === null ? null : Number(day));
}

/** YYJJJ (year in 2000-2099, day of the year), with an hour if given. */
function julianDate(digits: string, hour?: string): string | null {
  if (hour !== undefined && Number(hour) > 23) return null;
  return dayOfYear(2000 + Number(digits.slice(0, 2)), Number(digits.slice(2, 5)));
}
