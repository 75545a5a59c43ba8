import { gtinCheckDigit, toGtin14 } from "../catalog/gtin";
import { isoDate } from "./dates";

/**
 * GS1 data as a hospital scanner or a person sends it (issue 33, "Scan to order"): element strings (GS1 General
 * Specifications 7.8) with or without an AIM symbology identifier and with GS (0x1D) after variable-length fields,
 * the bracketed human-readable form `(01)...(17)...(10)...`, GS1 Digital Link URIs (`https://<any host>/01/<gtin>/10/
 * <lot>/21/<serial>?17=YYMMDD`), and a bare GTIN. Each element is checked: the AI is one Medparts reads, the value's
 * characters (digits, or GS1's 82 characters), its length, check digits and dates. A failure names the element and why.
 * Digits alone of a GTIN's length (8, 12, 13, 14) are read as a GTIN, whatever else they could be.
 */

export const GS = "\u001d";

type Format = { digits: number } | { upTo: number; numeric: boolean };

interface AiDefinition {
  ai: string;
  title: string;
  format: Format;
  /** The last digit is a GS1 check digit over the others (GTIN, SSCC, GLN). */
  check?: true;
  date?: "YYMMDD" | "YYMMDDHHMM";
}

const fixed = (digits: number): Format => ({ digits });
const text = (upTo: number): Format => ({ upTo, numeric: false });
const number = (upTo: number): Format => ({ upTo, numeric: true });

/**
 * The AIs read: those of UDI labels on medical devices and of healthcare logistics (GS1 General Specifications 3.2, the
 * GS1 Healthcare GTIN allocation and AIDC guides). Any other AI is refused by name, never skipped.
 */
const DEFINITIONS: AiDefinition[] = [
  { ai: "00", title: "SSCC", format: fixed(18), check: true },
  { ai: "01", title: "GTIN", format: fixed(14), check: true },
  { ai: "02", title: "CONTENT", format: fixed(14), check: true },
  { ai: "10", title: "BATCH/LOT", format: text(20) },
  { ai: "11", title: "PROD DATE", format: fixed(6), date: "YYMMDD" },
  { ai: "12", title: "DUE DATE", format: fixed(6), date: "YYMMDD" },
  { ai: "13", title: "PACK DATE", format: fixed(6), date: "YYMMDD" },
  { ai: "15", title: "BEST BEFORE", format: fixed(6), date: "YYMMDD" },
  { ai: "16", title: "SELL BY", format: fixed(6), date: "YYMMDD" },
  { ai: "17", title: "USE BY OR EXPIRY", format: fixed(6), date: "YYMMDD" },
  { ai: "20", title: "VARIANT", format: fixed(2) },
  { ai: "21", title: "SERIAL", format: text(20) },
  { ai: "22", title: "CPV", format: text(20) },
  { ai: "235", title: "TPX", format: text(28) },
  { ai: "240", title: "ADDITIONAL ID", format: text(30) },
  { ai: "241", title: "CUST. PART No.", format: text(30) },
  { ai: "242", title: "MTO VARIANT", format: number(6) },
  { ai: "243", title: "PCN", format: text(20) },
  { ai: "250", title: "SECONDARY SERIAL", format: text(30) },
  { ai: "251", title: "REF. TO SOURCE", format: text(30) },
  { ai: "30", title: "VAR. COUNT", format: number(8) },
  { ai: "37", title: "COUNT", format: number(8) },
  ...[0, 1, 2, 3, 4, 5].map((d): AiDefinition => ({ ai: `310${d}`, title: "NET WEIGHT (kg)", format: fixed(6) })),
  ...[0, 1, 2, 3, 4, 5].map((d): AiDefinition => ({ ai: `330${d}`, title: "GROSS WEIGHT (kg)", format: fixed(6) })),
  { ai: "400", title: "ORDER NUMBER", format: text(30) },
  { ai: "410", title: "SHIP TO LOC", format: fixed(13), check: true },
  { ai: "414", title: "LOC No.", format: fixed(13), check: true },
  { ai: "422", title: "ORIGIN", format: fixed(3) },
  { ai: "7003", title: "EXPIRY TIME", format: fixed(10), date: "YYMMDDHHMM" },
  { ai: "7240", title: "PROTOCOL", format: text(20) },
  { ai: "8004", title: "GIAI", format: text(30) },
  { ai: "8020", title: "REF No.", format: text(25) },
  { ai: "90", title: "INTERNAL", format: text(30) },
  ...[91, 92, 93, 94, 95, 96, 97, 98, 99].map((n): AiDefinition => ({ ai: String(n), title: "INTERNAL", format: text(90) })),
];
const BY_AI = new Map(DEFINITIONS.map((definition) => [definition.ai, definition]));

/**
 * Element strings whose length is predefined by their AI's first two digits (GS1 General Specifications, figure
 * 7.8.5-2): no separator follows them. Every other element ends at a GS or at the end of the data.
 */
const PREDEFINED_LENGTH: Record<string, number> = {
  "00": 20,
  "01": 16,
  "02": 16,
  "03": 16,
  "04": 18,
  "11": 8,
  "12": 8,
  "13": 8,
  "14": 8,
  "15": 8,
  "16": 8,
  "17": 8,
  "18": 8,
  "19": 8,
  "20": 4,
  "31": 10,
  "32": 10,
  "33": 10,
  "34": 10,
  "35": 10,
  "36": 10,
  "41": 16,
};

/** GS1's 82 characters (General Specifications, figure 7.11-1): what alphanumeric values may hold. */
const CSET_82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/;

/** AIM symbology identifiers of GS1 data: DataMatrix, GS1-128, QR Code, DataBar, DotCode. */
const GS1_SYMBOLOGIES = new Set(["]d2", "]C1", "]Q3", "]e0", "]J1"]);

export interface Gs1Element {
  ai: string;
  title: string;
  value: string;
  /** A date element read as a calendar date (or date and time, UTC): day 00 is the month's last day. */
  date?: string;
}

export type Gs1Form = "element-string" | "bracketed" | "digital-link" | "gtin";

export interface Gs1Problem {
  /** The AI of the element at fault, or null when the data as a whole is. */
  element: string | null;
  code: "not_gs1" | "empty" | "unknown_ai" | "bad_characters" | "too_short" | "too_long" | "check_digit" | "bad_date" | "repeated_ai";
  message: string;
}

export type Gs1Reading = { ok: true; form: Gs1Form; elements: Gs1Element[] } | { ok: false; form: Gs1Form | null; problem: Gs1Problem };

const fail = (form: Gs1Form | null, element: string | null, code: Gs1Problem["code"], message: string): Gs1Reading => ({
  ok: false,
  form,
  problem: { element, code, message },
});

/** Reads a scanned or typed code as GS1 data; `now` fixes the century of two-digit years (General Specifications 7.12). */
export function readGs1(input: string, now = new Date()): Gs1Reading {
  // Keyboard-wedge scanners add CR, LF or spaces around the data; GS is data, not space.
  const data = input.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
  if (data === "") return fail(null, null, "empty", "The code is empty.");
  if (/^https?:\/\//i.test(data)) return readDigitalLink(data, now);
  if (data.startsWith("]")) {
    const symbology = data.slice(0, 3);
    if (!GS1_SYMBOLOGIES.has(symbology)) return fail(null, null, "not_gs1", `Symbology identifier ${symbology} does not carry GS1 data.`);
    return readElementString(data.slice(3), now);
  }
  if (data.startsWith("(")) return readBracketed(data, now);
  if (/^\d{8}$|^\d{12,14}$/.test(data)) {
    // Digits alone of a GTIN's length are a GTIN: read as an element string, a mistyped GTIN would pass as free text
    // (AIs 90-99). An element string of that length comes with a symbology identifier, a GS or brackets.
    const gtin = toGtin14(data);
    if (gtin) return { ok: true, form: "gtin", elements: [{ ai: "01", title: "GTIN", value: gtin }] };
    return fail("gtin", "01", "check_digit", `${data} is not a GTIN: its check digit should be ${gtinCheckDigit(data.slice(0, -1))}.`);
  }
  if (data.startsWith(GS) || /^\d{2}/.test(data)) return readElementString(data, now);
  return fail(null, null, "not_gs1", "Not GS1 data: no symbology identifier, Application Identifier, bracket or Digital Link.");
}

/** The AI at the start of `data` (AIs are prefix-free: at most one of 2, 3 or 4 digits is defined). */
function aiAt(data: string, at: number): AiDefinition | undefined {
  for (const length of [2, 3, 4]) {
    const definition = BY_AI.get(data.slice(at, at + length));
    if (definition) return definition;
  }
  return undefined;
}

function readElementString(data: string, now: Date): Gs1Reading {
  const values: [AiDefinition, string][] = [];
  let at = 0;
  while (at < data.length) {
    if (data[at] === GS) {
      at += 1; // FNC1 first, or after a predefined-length element
      continue;
    }
    const definition = aiAt(data, at);
    if (!definition) {
      return fail(
        "element-string",
        data.slice(at, at + 4),
        "unknown_ai",
        `No Application Identifier Medparts reads starts at "${data.slice(at, at + 4)}".`,
      );
    }
    at += definition.ai.length;
    const predefined = PREDEFINED_LENGTH[definition.ai.slice(0, 2)];
    let value: string;
    if (predefined !== undefined) {
      value = data.slice(at, at + predefined - definition.ai.length);
      at += value.length;
    } else {
      const end = data.indexOf(GS, at);
      value = data.slice(at, end < 0 ? data.length : end);
      at = end < 0 ? data.length : end + 1;
    }
    values.push([definition, value]);
  }
  return elementsOf("element-string", values, now, true);
}

function readBracketed(data: string, now: Date): Gs1Reading {
  // Every 2 to 4 digits in brackets is an AI: values may hold brackets, but not such a group (the form is ambiguous there).
  const starts = [...data.matchAll(/\((\d{2,4})\)/g)];
  if (starts[0]?.index !== 0)
    return fail("bracketed", null, "unknown_ai", "The code does not start with an Application Identifier in brackets.");
  const unknown = starts.find((m) => !BY_AI.has(m[1]!));
  if (unknown) return fail("bracketed", unknown[1]!, "unknown_ai", `(${unknown[1]}) is not an Application Identifier Medparts reads.`);
  const values = starts.map((m, i): [AiDefinition, string] => {
    const from = m.index! + m[0].length;
    return [BY_AI.get(m[1]!)!, data.slice(from, starts[i + 1]?.index ?? data.length)];
  });
  return elementsOf("bracketed", values, now, false);
}

/** GS1 Digital Link 1.2 keys in the path after the GTIN, and data attributes in the query: AIs or convenience alphas. */
const DIGITAL_LINK_ALPHAS: Record<string, string> = { gtin: "01", cpv: "22", lot: "10", ser: "21", exp: "17" };

function readDigitalLink(data: string, now: Date): Gs1Reading {
  let url: URL;
  try {
    url = new URL(data);
  } catch {
    return fail("digital-link", null, "not_gs1", "Not a valid URI.");
  }
  const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const start = segments.findIndex((segment) => segment === "01" || segment === "gtin");
  if (start < 0) return fail("digital-link", "01", "not_gs1", "A GS1 Digital Link names a GTIN: /01/<gtin> in its path.");
  const values: [AiDefinition, string][] = [];
  const add = (key: string, value: string): Gs1Reading | null => {
    const definition = BY_AI.get(DIGITAL_LINK_ALPHAS[key] ?? key);
    if (!definition) return fail("digital-link", key, "unknown_ai", `"${key}" is not an Application Identifier Medparts reads.`);
    // A GTIN-8, -12 or -13 in a Digital Link is the GTIN-14 padded with zeros (Digital Link 1.2, 4.3).
    values.push([definition, definition.ai === "01" && /^\d{8}$|^\d{12,13}$/.test(value) ? value.padStart(14, "0") : value]);
    return null;
  };
  const path = segments.slice(start);
  if (path.length % 2 !== 0) return fail("digital-link", path.at(-1)!, "too_short", `Key "${path.at(-1)}" has no value in the path.`);
  for (let i = 0; i < path.length; i += 2) {
    const refused = add(path[i]!, path[i + 1]!);
    if (refused) return refused;
  }
  for (const [key, value] of url.searchParams) {
    if (!/^\d{2,4}$/.test(key) && !(key in DIGITAL_LINK_ALPHAS)) continue; // other query parameters are not GS1 data
    const refused = add(key, value);
    if (refused) return refused;
  }
  return elementsOf("digital-link", values, now, false);
}

/** Each value against its AI; the first fault refuses the whole code, named. */
function elementsOf(form: Gs1Form, values: [AiDefinition, string][], now: Date, separated: boolean): Gs1Reading {
  if (values.length === 0) return fail(form, null, "empty", "No element in the code.");
  const seen = new Map<string, string>();
  const elements: Gs1Element[] = [];
  for (const [definition, value] of values) {
    const { ai } = definition;
    const previous = seen.get(ai);
    if (previous !== undefined && previous !== value) {
      return fail(form, ai, "repeated_ai", `AI (${ai}) appears twice with different values.`);
    }
    seen.set(ai, value);
    const problem = valueProblem(definition, value, separated);
    if (problem) return fail(form, ai, problem.code, `(${ai}) ${definition.title}: ${problem.message}`);
    const element: Gs1Element = { ai, title: definition.title, value };
    if (definition.date) {
      const date = calendarDate(value, definition.date, now);
      if (!date)
        return fail(
          form,
          ai,
          "bad_date",
          `(${ai}) ${definition.title}: ${value} is not a date (YYMMDD${definition.date === "YYMMDDHHMM" ? "HHMM" : ""}).`,
        );
      element.date = date;
    }
    elements.push(element);
  }
  return { ok: true, form, elements };
}

function valueProblem(definition: AiDefinition, value: string, separated: boolean): Pick<Gs1Problem, "code" | "message"> | null {
  const { format } = definition;
  if (value === "") return { code: "too_short", message: "the value is missing." };
  if ("digits" in format) {
    if (!/^\d*$/.test(value)) return { code: "bad_characters", message: `${format.digits} digits expected, got "${value}".` };
    if (value.length < format.digits) return { code: "too_short", message: `${format.digits} digits expected, got ${value.length}.` };
    if (value.length > format.digits) {
      const hint = separated ? " (a GS separator missing after it?)" : "";
      return { code: "too_long", message: `${format.digits} digits expected, got ${value.length}${hint}.` };
    }
    if (definition.check && gtinCheckDigit(value.slice(0, -1)) !== Number(value.at(-1))) {
      return { code: "check_digit", message: `the check digit of ${value} should be ${gtinCheckDigit(value.slice(0, -1))}.` };
    }
    return null;
  }
  if (value.length > format.upTo) {
    const hint = separated ? " (a GS separator missing after it?)" : "";
    return { code: "too_long", message: `at most ${format.upTo} characters, got ${value.length}${hint}.` };
  }
  const allowed = format.numeric ? /^\d+$/ : CSET_82;
  if (!allowed.test(value)) {
    return {
      code: "bad_characters",
      message: format.numeric ? "digits only." : "only GS1's 82 characters (letters, digits and !\"%&'()*+,-./:;<=>?_).",
    };
  }
  return null;
}

/**
 * YYMMDD (or YYMMDDHHMM) as an ISO date (or date-time, UTC). The century is the one that puts the year within 49 years
 * before and 50 years after `now` (General Specifications 7.12); day 00 means the last day of the month.
 */
export function calendarDate(value: string, kind: "YYMMDD" | "YYMMDDHHMM", now = new Date()): string | null {
  const match = (kind === "YYMMDD" ? /^(\d\d)(\d\d)(\d\d)$/ : /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/).exec(value);
  if (!match) return null;
  const [, yy, mm, dd, hh, mi] = match;
  const thisYear = now.getUTCFullYear();
  const difference = Number(yy) - (thisYear % 100);
  const century = Math.floor(thisYear / 100) + (difference >= 51 ? -1 : difference <= -50 ? 1 : 0);
  const year = century * 100 + Number(yy);
  const date = isoDate(year, Number(mm), Number(dd) === 0 ? null : Number(dd));
  if (!date || kind === "YYMMDD") return date;
  if (Number(hh) > 23 || Number(mi) > 59) return null;
  return `${date}T${hh}:${mi}Z`;
}

/** The AIs Medparts reads, for documentation and tests. */
export const GS1_AIS: readonly Pick<AiDefinition, "ai" | "title">[] = DEFINITIONS.map(({ ai, title }) => ({ ai, title }));

/** Whether an AI's element string has a predefined length (no GS after it). */
export const hasPredefinedLength = (ai: string) => PREDEFINED_LENGTH[ai.slice(0, 2)] !== undefined;

/** The definition's format, for generating test data. */
export const formatOf = (ai: string) => BY_AI.get(ai)?.format;
