import { gtinCheckDigit, toGtin14 } from "../catalog/gtin";
import { isoDate } from "./dates";

/**
 * GS1 data as a hospital scanner or a person sends it (issue 33, "Scan to order"): element strings (GS1 General
 * Specifications 7.8) with or without an AIM symbology identifier and with GS (0x1D) after variable-length fields,
 * the bracketed human-readable form `(01)...(17)...(10)...`, GS1 Digital Link URIs (`https://<any host>/01/<gtin>/10/
 * <lot>/21/<serial>?17=YYMMDD`, also keyed by an SSCC, GLN or GIAI), an EAN-13 or EAN-8 scan, and a bare GTIN. Each
 * element is checked: the AI is one Medparts reads, the value's characters (digits, or GS1's 82 characters), its
 * length, check digits and dates; then the pairs GS1's syntax dictionary forbids and the associations Medparts
 * enforces. A failure names the element and why. Digits alone of a GTIN's length (8, 12, 13, 14) are read as a GTIN,
 * whatever else they could be. GS1's Barcode Syntax Engine is the reference (test/udi/gs1-engine.node.test.ts).
 */

export const GS = "\u001d";

type Format = { digits: number } | { upTo: number; numeric: boolean };

interface AiDefinition {
  ai: string;
  title: string;
  format: Format;
  /** The last digit is a GS1 check digit over the others (GTIN, SSCC, GLN). */
  check?: true;
  date?: DateKind;
}

/** The syntax dictionary's date linters: yymmd0 allows day 00 (the month's last day), yymmdd does not. */
export type DateKind = "YYMMD0" | "YYMMDD" | "YYMMDDHHMM";

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
  { ai: "11", title: "PROD DATE", format: fixed(6), date: "YYMMD0" },
  { ai: "12", title: "DUE DATE", format: fixed(6), date: "YYMMD0" },
  { ai: "13", title: "PACK DATE", format: fixed(6), date: "YYMMD0" },
  { ai: "15", title: "BEST BEFORE", format: fixed(6), date: "YYMMD0" },
  { ai: "16", title: "SELL BY", format: fixed(6), date: "YYMMD0" },
  { ai: "17", title: "USE BY OR EXPIRY", format: fixed(6), date: "YYMMD0" },
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
  { ai: "254", title: "GLN EXTENSION COMPONENT", format: text(20) },
  { ai: "30", title: "VAR. COUNT", format: number(8) },
  { ai: "37", title: "COUNT", format: number(8) },
  ...[0, 1, 2, 3, 4, 5].map((d): AiDefinition => ({ ai: `310${d}`, title: "NET WEIGHT (kg)", format: fixed(6) })),
  ...[0, 1, 2, 3, 4, 5].map((d): AiDefinition => ({ ai: `330${d}`, title: "GROSS WEIGHT (kg)", format: fixed(6) })),
  { ai: "400", title: "ORDER NUMBER", format: text(30) },
  { ai: "410", title: "SHIP TO LOC", format: fixed(13), check: true },
  { ai: "414", title: "LOC No.", format: fixed(13), check: true },
  { ai: "416", title: "PROD/SERV LOC", format: fixed(13), check: true },
  { ai: "422", title: "ORIGIN", format: fixed(3) },
  { ai: "7003", title: "EXPIRY TIME", format: fixed(10), date: "YYMMDDHHMM" },
  { ai: "7020", title: "REFURB LOT", format: text(20) },
  { ai: "7021", title: "FUNC STAT", format: text(20) },
  { ai: "7022", title: "REV STAT", format: text(20) },
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

/** AIM symbology identifiers of EAN-13 and EAN-8: a GTIN-13 or GTIN-8, digits only. */
const EAN_SYMBOLOGIES: Record<string, number> = { "]E0": 13, "]E4": 8 };

/**
 * AIM symbology identifiers of a plain QR Code, Data Matrix and DotCode (no FNC1 first): never element strings, but they
 * carry GS1 Digital Link URIs, and HIBCC or ISBT 128 data (read by their own marks in src/shared/udi/scan.ts).
 */
export const PLAIN_SYMBOLOGIES = new Set(["]Q1", "]d1", "]J0"]);

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
  code:
    | "not_gs1"
    | "empty"
    | "unknown_ai"
    | "bad_characters"
    | "too_short"
    | "too_long"
    | "check_digit"
    | "bad_date"
    | "repeated_ai"
    | "invalid_pair"
    | "missing_requisite"
    | "bad_digital_link";
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
  if (data.startsWith("]")) return readSymbol(data.slice(0, 3), data.slice(3), now);
  if (data.startsWith("(")) return readBracketed(data, now);
  // Digits alone of a GTIN's length are a GTIN: read as an element string, a mistyped GTIN would pass as free text
  // (AIs 90-99). An element string of that length comes with a symbology identifier, a GS or brackets.
  if (/^\d{8}$|^\d{12,14}$/.test(data)) return readGtin(data);
  if (data.startsWith(GS) || /^\d{2}/.test(data)) return readElementString(data, now);
  return fail(null, null, "not_gs1", "Not GS1 data: no symbology identifier, Application Identifier, bracket or Digital Link.");
}

/** The data after an AIM symbology identifier, read as that symbol carries GS1 data. */
function readSymbol(symbology: string, payload: string, now: Date): Gs1Reading {
  if (GS1_SYMBOLOGIES.has(symbology)) return readElementString(payload, now);
  const digits = EAN_SYMBOLOGIES[symbology];
  if (digits !== undefined) {
    if (payload.length === digits && /^\d+$/.test(payload)) return readGtin(payload);
    const code = !/^\d*$/.test(payload) ? "bad_characters" : payload.length < digits ? "too_short" : "too_long";
    return fail("gtin", "01", code, `An EAN-${digits} (${symbology}) carries a GTIN of ${digits} digits.`);
  }
  if (PLAIN_SYMBOLOGIES.has(symbology)) {
    if (/^https?:\/\//i.test(payload)) return readDigitalLink(payload, now);
    return fail(null, null, "not_gs1", `A plain symbol (${symbology}, no FNC1) carries GS1 data only as a Digital Link URI.`);
  }
  return fail(null, null, "not_gs1", `Symbology identifier ${symbology} does not carry GS1 data.`);
}

function readGtin(digits: string): Gs1Reading {
  const gtin = toGtin14(digits);
  if (gtin) return { ok: true, form: "gtin", elements: [{ ai: "01", title: "GTIN", value: gtin }] };
  return fail("gtin", "01", "check_digit", `${digits} is not a GTIN: its check digit should be ${gtinCheckDigit(digits.slice(0, -1))}.`);
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

/** GS1 Digital Link 1.2's convenience alphas of the AIs of UDI labels, in the path or the query. */
const DIGITAL_LINK_ALPHAS: Record<string, string> = { gtin: "01", cpv: "22", lot: "10", ser: "21", exp: "17" };

/**
 * The Digital Link primary keys read, each with the key qualifiers that may follow it in the path, in this order (the
 * syntax dictionary's `dlpkey`; one of the alternatives): a GTIN's CPV, lot and serial, or its TPX; a GLN's extension;
 * none after an SSCC or a GIAI. Every other AI is a data attribute, in the query.
 */
const DIGITAL_LINK_KEYS: Record<string, string[][]> = { "01": [["22", "10", "21"], ["235"]], "00": [], "414": [["254"]], "8004": [] };

const decodeSegment = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * A GS1 Digital Link URI (Digital Link 1.2, section 4): any host and path stem, then a primary key and its qualifiers
 * in the path, data attributes in the query. Read as strictly as GS1's Barcode Syntax Engine reads it, each refusal
 * naming the rule broken.
 */
function readDigitalLink(data: string, now: Date): Gs1Reading {
  const refuse = (element: string | null, message: string) => fail("digital-link", element, "bad_digital_link", message);
  const scheme = data.slice(0, data.indexOf(":"));
  if (scheme !== scheme.toLowerCase() && scheme !== scheme.toUpperCase()) {
    return fail("digital-link", null, "not_gs1", `A Digital Link's scheme is http or https in one case, not "${scheme}".`);
  }
  let url: URL;
  try {
    url = new URL(data);
  } catch {
    return fail("digital-link", null, "not_gs1", "Not a valid URI.");
  }
  const segments = url.pathname.slice(1).split("/").map(decodeSegment);
  if (segments.includes(null)) return refuse(null, "A path segment is not valid percent-encoding.");
  const empty = segments.indexOf("");
  if (empty >= 0 && segments.length > 1) {
    return refuse(
      null,
      empty === segments.length - 1
        ? "A Digital Link's path does not end with a slash."
        : "A Digital Link's path has no empty segment (//).",
    );
  }
  // The key is the last AI of the path that is a primary key; what precedes it is the path stem, any text at all.
  const path: [string, string][] = [];
  let key: string | undefined;
  for (let i = segments.length - 2; i >= 0 && key === undefined; i -= 2) {
    const ai = DIGITAL_LINK_ALPHAS[segments[i]!] ?? segments[i]!;
    if (!/^\d{2,4}$/.test(ai)) break;
    path.unshift([ai, segments[i + 1]!]);
    if (ai in DIGITAL_LINK_KEYS) key = ai;
  }
  const unknown = path.find(([ai]) => !BY_AI.has(ai));
  if (unknown) return fail("digital-link", unknown[0], "unknown_ai", `"${unknown[0]}" is not an Application Identifier Medparts reads.`);
  if (key === undefined) {
    return fail(
      "digital-link",
      null,
      "not_gs1",
      "A GS1 Digital Link names its key in its path: /01/<gtin>, /00/<sscc>, /414/<gln> or /8004/<giai>.",
    );
  }
  const alternatives = DIGITAL_LINK_KEYS[key]!;
  const qualifiers = path.slice(1).map(([ai]) => ai);
  const order = alternatives.map((alternative) => alternative.join(", ")).join(" or ") || "none";
  const stray = qualifiers.find((ai) => !alternatives.some((alternative) => alternative.includes(ai)));
  if (stray) return refuse(stray, `(${stray}) is not a key qualifier of (${key}) (${order}): it goes in the query, not the path.`);
  // The alternatives the path's qualifiers fit: an AI of one of them in the query belongs in the path.
  const fitting = alternatives.filter((alternative) => qualifiers.every((ai) => alternative.includes(ai)));
  const inOrder =
    qualifiers.length === 0 ||
    fitting.some((alternative) =>
      qualifiers.every((ai, j) => j === 0 || alternative.indexOf(ai) > alternative.indexOf(qualifiers[j - 1]!)),
    );
  if (!inOrder) return refuse(qualifiers.join(","), `The key qualifiers of (${key}) follow it in the path in the order ${order}.`);
  const values: [AiDefinition, string][] = [];
  const seen = new Set<string>();
  const add = (ai: string, value: string): Gs1Reading | null => {
    const definition = BY_AI.get(ai);
    if (!definition) return fail("digital-link", ai, "unknown_ai", `"${ai}" is not an Application Identifier Medparts reads.`);
    if (seen.has(ai)) return fail("digital-link", ai, "repeated_ai", `AI (${ai}) appears twice in the Digital Link.`);
    seen.add(ai);
    // A GTIN-8, -12 or -13 in a Digital Link is the GTIN-14 padded with zeros (Digital Link 1.2, 4.3).
    values.push([definition, ai === "01" && /^\d{8}$|^\d{12,13}$/.test(value) ? value.padStart(14, "0") : value]);
    return null;
  };
  for (const [ai, value] of path) add(ai, value); // distinct AIs (the key and qualifiers in order), all read
  for (const [name, value] of url.searchParams) {
    const ai = DIGITAL_LINK_ALPHAS[name] ?? name;
    if (!/^\d{2,4}$/.test(ai)) continue; // other query parameters are not GS1 data
    const refused = add(ai, value);
    if (refused) return refused;
    if (fitting.some((alternative) => alternative.includes(ai))) {
      return refuse(ai, `(${ai}) is a key qualifier of (${key}): it goes in the path, not the query.`);
    }
  }
  return elementsOf("digital-link", values, now, false);
}

/** Pairs of AIs the syntax dictionary forbids together (`ex=`): a trade item is not a logistic unit's content. */
const INVALID_PAIRS = [
  ["01", "02"],
  ["01", "37"],
  ["21", "235"],
];
/** AIs that differ only in their decimal position: a label holds one of each (`ex=310n`, `ex=330n`). */
const ONE_DECIMAL_POSITION = ["310", "330"];

/**
 * The associations enforced (the syntax dictionary's `req=` of the AIs of refurbished and serviced parts): a
 * refurbishment lot names the product and where it was refurbished; a functional and revision status name the product.
 * A lot, serial or date alone is read: it may come from a second barcode of the label, and resolves to no product.
 */
const REQUISITES: Record<string, string[]> = { "7020": ["01", "416"], "7021": ["01"], "7022": ["01", "7021"] };

/** The first pair or association of AIs the code breaks, or null. */
function associationProblem(form: Gs1Form, ais: Set<string>): Gs1Reading | null {
  const pairs = [
    ...INVALID_PAIRS,
    ...ONE_DECIMAL_POSITION.map((prefix) => [...ais].filter((ai) => ai.length === 4 && ai.startsWith(prefix))),
  ];
  const pair = pairs.find((candidate) => candidate.length >= 2 && candidate.every((ai) => ais.has(ai)));
  if (pair)
    return fail(form, pair[1]!, "invalid_pair", `AI (${pair[1]}) and AI (${pair[0]}) are not valid together (GS1 syntax dictionary).`);
  for (const [ai, required] of Object.entries(REQUISITES)) {
    const missing = required.filter((other) => !ais.has(other));
    if (ais.has(ai) && missing.length > 0) {
      const names = missing.map((other) => `(${other})`).join(" and ");
      return fail(form, ai, "missing_requisite", `(${ai}) ${BY_AI.get(ai)!.title} needs ${names} in the same code.`);
    }
  }
  return null;
}

/** Each value against its AI, then the AIs together; the first fault refuses the whole code, named. */
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
        return fail(form, ai, "bad_date", `(${ai}) ${definition.title}: ${value} is not a date (${DATE_FORMATS[definition.date]}).`);
      element.date = date;
    }
    elements.push(element);
  }
  return associationProblem(form, new Set(seen.keys())) ?? { ok: true, form, elements };
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

const DATE_FORMATS: Record<DateKind, string> = {
  YYMMD0: "YYMMDD",
  YYMMDD: "YYMMDD, day 00 is none",
  YYMMDDHHMM: "YYMMDDHHMM, day 00 is none",
};

/**
 * YYMMDD (or YYMMDDHHMM) as an ISO date (or date-time, UTC). The century is the one that puts the year within 49 years
 * before and 50 years after `now` (General Specifications 7.12); day 00 means the last day of the month in YYMMD0 only
 * (the dates of AIs 11 to 17, not AI 7003's).
 */
export function calendarDate(value: string, kind: DateKind, now = new Date()): string | null {
  const match = (kind === "YYMMDDHHMM" ? /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/ : /^(\d\d)(\d\d)(\d\d)$/).exec(value);
  if (!match) return null;
  const [, yy, mm, dd, hh, mi] = match;
  const thisYear = now.getUTCFullYear();
  const difference = Number(yy) - (thisYear % 100);
  const century = Math.floor(thisYear / 100) + (difference >= 51 ? -1 : difference <= -50 ? 1 : 0);
  const year = century * 100 + Number(yy);
  const date = isoDate(year, Number(mm), Number(dd) === 0 && kind === "YYMMD0" ? null : Number(dd));
  if (!date || kind !== "YYMMDDHHMM") return date;
  if (Number(hh) > 23 || Number(mi) > 59) return null;
  return `${date}T${hh}:${mi}Z`;
}

/** The AIs Medparts reads, for documentation and tests. */
export const GS1_AIS: readonly Pick<AiDefinition, "ai" | "title">[] = DEFINITIONS.map(({ ai, title }) => ({ ai, title }));

/** Whether an AI's element string has a predefined length (no GS after it). */
export const hasPredefinedLength = (ai: string) => PREDEFINED_LENGTH[ai.slice(0, 2)] !== undefined;

/** The definition's format, for generating test data. */
export const formatOf = (ai: string) => BY_AI.get(ai)?.format;
