import { deviceKey, gtin14, NO_IDENTIFIER } from "./identifiers";

/**
 * FDA `code_info` read into clauses (docs/recalls.md, "Reading code_info"): the free text in which a recall notice
 * states its scope, with no grammar (test-data/recalls/README.md lists the forms). What is read becomes a Scope: the
 * identifiers that gate it (device identifiers, product, catalog, model or part numbers), the lots (with their
 * expiry), serials, "all lots" windows, and conditions a shipment record cannot evaluate; per group where the notice
 * groups them (`1) ... 2) ...`, `P/N: ...`). Nothing is dropped: text that no rule reads is kept in `unread`.
 */

export interface LotEntry {
  lot: string;
  /** The expiry the notice gives the lot, YYYY-MM-DD. */
  expiry?: string;
}

export interface SerialRange {
  from: string;
  to: string;
}

/** Lots, serials and identifiers of one group of a notice (or of the whole notice). */
export interface ScopePart {
  deviceIds: string[];
  products: string[];
  lots: LotEntry[];
  /** Lot ranges (`001-120`): not a list, and not comparable to a unit's lot as written. */
  lotRanges: string[];
  /** Lots written masked (`xxxxx`, `2007xxxxx to 2012xxxxx`): present but unreadable. */
  lotsMasked: boolean;
  /** "All lots" (null bounds: every lot), within production dates when given. */
  allLots: { from: string | null; to: string | null } | null;
  serials: string[];
  serialRanges: SerialRange[];
  /** "All serial numbers up to N". */
  serialsUpTo: string | null;
  /** Serials named but not readable (pending, in an attachment, a range mixing formats). */
  serialsUnreadable: string | null;
  /** Element strings with a lot: a device identifier and the lot printed with it (and expiry). */
  labels: { deviceId: string; lot: string; expiry?: string }[];
}

export interface Scope extends ScopePart {
  groups: ScopePart[];
  /** Identifiers that look like device identifiers but are not valid ones (a 13-digit GTIN typo). */
  deviceIdTypos: string[];
  /** Conditions a shipment record cannot evaluate (a firmware a unit runs). */
  conditions: string[];
  unread: string[];
}

export const emptyPart = (): ScopePart => ({
  deviceIds: [],
  products: [],
  lots: [],
  lotRanges: [],
  lotsMasked: false,
  allLots: null,
  serials: [],
  serialRanges: [],
  serialsUpTo: null,
  serialsUnreadable: null,
  labels: [],
});

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const pad = (n: number) => String(n).padStart(2, "0");
const fullYear = (year: string) => (year.length === 2 ? `20${year}` : year);

/** A date as notices write it (MM/DD/YYYY, MM/DD/YY, YYYY/MM/DD, DD-MON-YYYY, Mon. DD, YYYY), as YYYY-MM-DD; null otherwise. */
export function noticeDate(text: string): string | null {
  const t = text.trim().replace(/[.,;)]+$/, "");
  let m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(t);
  if (m) return `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(t);
  if (m) return `${fullYear(m[3]!)}-${pad(Number(m[1]))}-${pad(Number(m[2]))}`;
  m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(t);
  if (m && MONTHS.includes(m[2]!.toUpperCase())) return `${m[3]}-${pad(MONTHS.indexOf(m[2]!.toUpperCase()) + 1)}-${pad(Number(m[1]))}`;
  m = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(t);
  if (m && MONTHS.includes(m[1]!.toUpperCase())) return `${m[3]}-${pad(MONTHS.indexOf(m[1]!.toUpperCase()) + 1)}-${pad(Number(m[2]))}`;
  return null;
}

/** A GS1 date (YYMMDD; day 00 is the month's end) as YYYY-MM-DD. */
const gs1Date = (yymmdd: string) => {
  const [yy, mm, dd] = [yymmdd.slice(0, 2), yymmdd.slice(2, 4), yymmdd.slice(4, 6)];
  const year = 2000 + Number(yy);
  const day = dd === "00" ? new Date(Date.UTC(year, Number(mm), 0)).getUTCDate() : Number(dd);
  return `${year}-${mm}-${pad(day)}`;
};

/** A lot or serial as compared: upper case, without inner whitespace. */
export const codeKey = (code: string) => code.toUpperCase().replace(/\s+/g, "");

/** The labels that start a field, in the order tried at each position (longer first). */
const FIELDS: { kind: "di" | "lot" | "serial" | "product" | "version" | "expiry" | "pi"; label: RegExp }[] = [
  { kind: "pi", label: /UDI[-\s]?PI\s*:?/iy },
  { kind: "di", label: /(?:Shelfbox|Pouch|Case|Box|Each|Package|Unit)\s+UDI[-\s/]?DI\s*(?:\((?:each|case|box)\))?\s*(?:codes?)?\s*:?/iy },
  { kind: "di", label: /UDI[-\s/]?DI\s*(?:\((?:each|case|box|unit)\))?\s*(?:codes?|numbers?)?\s*:?/iy },
  { kind: "di", label: /UDI\s*(?:codes?|numbers?)?\s*:?/iy },
  { kind: "di", label: /(?:GS1\s+)?GTIN\s*(?:codes?)?\s*:?/iy },
  { kind: "lot", label: /Lot\s*\/\s*Serial\s*Numbers?\s*:?/iy },
  { kind: "lot", label: /Lot\s*(?:\/\s*Batch)?\s*(?:Numbers?|Nos?\.?|Codes?)?\s*:?\s*\/?/iy },
  { kind: "lot", label: /Lots\s*:?/iy },
  { kind: "lot", label: /Batch(?:es)?\s*(?:Numbers?)?\s*:?/iy },
  { kind: "serial", label: /Serial\s*(?:Numbers?|Nos?\.?|#)?\s*:?/iy },
  { kind: "serial", label: /SN\s*:/iy },
  {
    kind: "product",
    label: /(?:Model\s*\/\s*Catalog|Catalog|Cat\.?|Product|Part|Model|Material|Item|Reference|REF)\s*(?:Numbers?|Nos?\.?|Codes?|#)?\s*:?/iy,
  },
  { kind: "version", label: /(?:Software|Firmware|App)\s*(?:Versions?|Revisions?)\s*:?/iy },
  { kind: "version", label: /Affected\s+Versions?\s*:?/iy },
  { kind: "expiry", label: /Expiration\s+Dates?\s*:?/iy },
];

interface Field {
  kind: (typeof FIELDS)[number]["kind"] | "bare";
  value: string;
}

/** The notice's text split into labelled fields (what precedes the first label is a `bare` field). */
function fieldsOf(text: string): Field[] {
  const fields: Field[] = [];
  let kind: Field["kind"] = "bare";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    // A label starts a word, and is no phrase's noun ("All lots produced", "All serial numbers up to").
    if (i > 0 && /[A-Za-z0-9]/.test(text[i - 1]!)) continue;
    if (/\ball\s+$/i.test(text.slice(Math.max(0, i - 8), i))) continue;
    for (const field of FIELDS) {
      field.label.lastIndex = i;
      const match = field.label.exec(text);
      if (!match) continue;
      // "Product Code: 60-1060" yes; "Products" in prose no: a label ends at a non-letter.
      const after = text[i + match[0].length];
      if (after !== undefined && /[A-Za-z]/.test(after) && !/[\s:/]$/.test(match[0])) continue;
      fields.push({ kind, value: text.slice(start, i) });
      kind = field.kind;
      start = i + match[0].length;
      i = start - 1;
      break;
    }
  }
  fields.push({ kind, value: text.slice(start) });
  return fields.filter((field) => field.value.trim() !== "" || field.kind !== "bare");
}

/** A field's items: split on commas, semicolons, `&`, `and`, double spaces and slashes between codes. */
function itemsOf(value: string): string[] {
  return value
    .split(/\s*(?:[,;&]|\band\b|\s{2,}|\s\/\s)\s*/i)
    .flatMap((item) => {
      const pieces = item.trim().split(/\s+/);
      // "AB4005 AB4006": codes of the same shape side by side are two; "2015/08 BH" is one lot.
      const sameShape =
        pieces.length > 1 &&
        pieces.every((piece) => /^[A-Z0-9]*\d[A-Z0-9]*$/i.test(piece) && piece.length >= 4 && piece.length === pieces[0]!.length);
      return sameShape ? pieces : [item.trim()];
    })
    .map((item) => item.replace(/^["“”']+|["“”'.:/]+$/g, "").trim())
    .filter((item) => item !== "");
}

const EXPIRY =
  /\(?\s*exp(?:iry|iration)?\.?\s*(?:date)?\s*:?\s*([0-9A-Za-z][0-9A-Za-z/.\- ]*?\d{2,4})\s*\)?\.?(?=$|[,;]|\s{2}|\s+(?:and\b|[A-Z0-9]{4,}))/i;

/** Lots of a lot field, each with the expiry written after it. */
function lotsOf(value: string, part: ScopePart): void {
  const text = value.trim();
  if (/^all\s+lots?\b/i.test(text) || /^all\b/i.test(text)) {
    const between = /between\s+(.+?)\s+and\s+(.+?)(?:$|[.;]\s)/i.exec(text);
    const upTo = /(?:up\s+to|through|before)\s+(.+?)(?:$|\s{2}|[;]|\s+(?:Serial|Software|Expiration))/i.exec(text);
    part.allLots = between
      ? { from: noticeDate(between[1]!), to: noticeDate(between[2]!) }
      : upTo
        ? { from: null, to: noticeDate(upTo[1]!) }
        : { from: null, to: null };
    return;
  }
  if (/x{3,}/i.test(text)) {
    part.lotsMasked = true;
    return;
  }
  // "Lot 001-120": a range of lots, not a list.
  const range = /^(?:Lot\s+)?(\d+)\s*-\s*(\d+)\.?$/i.exec(text);
  if (range) {
    part.lotRanges.push(`${range[1]}-${range[2]}`);
    return;
  }
  let rest = text;
  const entries: LotEntry[] = [];
  while (rest.trim() !== "") {
    const expiry = EXPIRY.exec(rest);
    const before = expiry ? rest.slice(0, expiry.index) : rest;
    const lots = itemsOf(before.replace(/^Lots?\s+/i, ""));
    const date = expiry ? noticeDate(expiry[1]!) : null;
    lots.forEach((lot, i) => {
      entries.push({ lot, ...(date && i === lots.length - 1 ? { expiry: date } : {}) });
    });
    if (!expiry) break;
    rest = rest.slice(expiry.index + expiry[0].length);
  }
  part.lots.push(...entries.filter((entry) => /\d/.test(entry.lot) && !/^exp/i.test(entry.lot)));
}

/** Serials of a serial field: a list, ranges (`A to B`, `A through B`), a cutoff, or unreadable. */
function serialsOf(value: string, part: ScopePart): void {
  const text = value.trim();
  if (/^(pending|refer|see|to be)\b/i.test(text) || /attach/i.test(text)) {
    part.serialsUnreadable = text;
    return;
  }
  const upTo = /^all\s+serial\s+numbers?\s+(?:up\s+to|through|below)\s+(\S+)/i.exec(text);
  if (upTo) {
    part.serialsUpTo = upTo[1]!.replace(/[.,;]$/, "");
    return;
  }
  if (/^all\b/i.test(text)) return;
  const range = /^(\S+)\s+(?:to|through|thru)\s+(\S+?)[.,;]?(?:\s|$)/i.exec(text);
  if (range) {
    const [from, to] = [range[1]!, range[2]!];
    if (from.length === to.length) part.serialRanges.push({ from, to });
    else part.serialsUnreadable = `${from} through ${to}`;
    return;
  }
  part.serials.push(...itemsOf(text));
}

/** Device identifiers of a field: GTINs (check digit valid), HIBCC codes after a UDI label, typos kept apart. */
function deviceIdsOf(value: string, part: ScopePart, scope: Scope, labelled: boolean): void {
  for (const token of value.split(/[\s,;/]+/)) {
    const code = token.replace(/\((?:each|case|box|unit)\)$/i, "").replace(/^[("']+|[)"'.:]+$/g, "");
    if (code === "" || NO_IDENTIFIER.test(code)) continue;
    if (/^\d{8,14}$/.test(code)) {
      const gtin = gtin14(code);
      if (gtin) part.deviceIds.push(gtin);
      else if (code.length >= 12) scope.deviceIdTypos.push(code);
      continue;
    }
    if (labelled && /^[A-Z][A-Z0-9]{3}/.test(code) && /\d/.test(code) && code.length >= 6) {
      const key = deviceKey(code);
      if (key) part.deviceIds.push(key);
    }
  }
}

/** GS1 element strings, bracketed (`(01)...(10)...`, spaces allowed after an AI) or not (`01...11...21...`). */
function elementStrings(text: string, part: ScopePart): string {
  let rest = text.replace(/\(01\)\s*(\d{14})((?:\(\d{2}\)\s*[^()\s,;]+)*)/g, (_all, gtin: string, ais: string) => {
    const key = gtin14(gtin);
    if (!key) return " ";
    part.deviceIds.push(key);
    const values = new Map([...ais.matchAll(/\((\d{2})\)\s*([^()\s,;]+)/g)].map((m) => [m[1]!, m[2]!.replace(/[/.]+$/, "")]));
    const lot = values.get("10");
    if (lot) {
      const expiry = values.get("17");
      part.labels.push({ deviceId: key, lot, ...(expiry && /^\d{6}$/.test(expiry) ? { expiry: gs1Date(expiry) } : {}) });
    }
    return " ";
  });
  rest = rest.replace(/\b01(\d{14})((?:1[1357]\d{6})*)(?:(?:10|21)(\S+))?/g, (all, gtin: string) => {
    const key = gtin14(gtin);
    if (!key || all.length <= 16) return all;
    part.deviceIds.push(key);
    return " ";
  });
  // A UDI-PI (production identifier) element string names no device: its lot is the lot field's.
  return rest.replace(/\((?:10|11|17|21)\)\s*\S+/g, " ");
}

/** The text a notice groups: `1) ... 2) ...`, or per part number (`PN X/Lot Numbers ... P/N:Y Lot Numbers`). */
function groupTexts(text: string): { preamble: string; groups: string[]; byPartNumber: boolean } {
  const numbered = text.split(/(?:^|\s)\d{1,2}\)\s+/);
  if (numbered.length > 2) return { preamble: numbered[0]!, groups: numbered.slice(1), byPartNumber: false };
  const byPart = text.split(/\s(?=P\/?N\s*:?\s*[A-Z0-9])/);
  if (byPart.length > 1 && /^P\/?N/.test(byPart[1]!)) {
    return { preamble: byPart[0]!, groups: byPart.slice(1).map((g) => g.replace(/^P\/?N\s*:?\s*/, "Part Number: ")), byPartNumber: true };
  }
  return { preamble: text, groups: [], byPartNumber: false };
}

const CONDITION = /\b(?:all\s+units\s+)?operating\s+with\s+(?:firmware|software)\s+versions?\s+[^/;,]+/i;

/** One part of a notice (a group, or the whole) read field by field into `part`. */
function readPart(text: string, part: ScopePart, scope: Scope, bareIsLots: boolean): void {
  const condition = CONDITION.exec(text);
  if (condition) {
    scope.conditions.push(condition[0].trim());
    text = text.replace(condition[0], " ");
  }
  const rest = elementStrings(text, part);
  for (const field of fieldsOf(rest)) {
    const value = field.value.replace(/[¿\uFFFD]+/g, " ");
    switch (field.kind) {
      case "di":
        deviceIdsOf(value, part, scope, true);
        break;
      case "lot":
        lotsOf(value, part);
        break;
      case "serial":
        serialsOf(value, part);
        break;
      case "product": {
        const products = itemsOf(value.replace(/\([^)]*\)/g, " "))
          .map((item) => item.split(/\s+/)[0]!)
          .filter((item) => /\d/.test(item) && !NO_IDENTIFIER.test(item));
        part.products.push(...products.map((product) => product.toUpperCase()));
        deviceIdsOf(value, part, scope, false);
        break;
      }
      case "bare": {
        deviceIdsOf(value, part, scope, false);
        const codes = itemsOf(value).filter((item) => /^[A-Z0-9][A-Z0-9/.\- ]*\d[A-Z0-9/.-]*$/i.test(item) && !gtin14(item));
        if (bareIsLots && codes.length > 0 && codes.length === itemsOf(value).length) part.lots.push(...codes.map((lot) => ({ lot })));
        else if (value.trim() !== "" && !/^[\s:;,./]*$/.test(value)) {
          // A leading product number ("LS-749:", "SOP30SPBCC,") names the group.
          const lead = /^\s*([A-Z0-9][A-Z0-9.-]{2,})\s*[:,]/i.exec(value);
          if (lead && /\d/.test(lead[1]!)) part.products.push(lead[1]!.toUpperCase());
          else scope.unread.push(value.trim());
        }
        break;
      }
      case "pi":
      case "version":
      case "expiry":
        break;
    }
  }
}

/** Reads a notice's code_info (and the catalog numbers its product description gives, if any) into a Scope. */
export function parseCodeInfo(codeInfo: string, catalogNumbers: readonly string[] = []): Scope {
  const scope: Scope = { ...emptyPart(), groups: [], deviceIdTypos: [], conditions: [], unread: [] };
  const text = codeInfo.replace(/[¿\uFFFD]+/g, " ").replace(/\r?\n/g, "  ");
  const { preamble, groups, byPartNumber } = groupTexts(text);
  const noLabels = fieldsOf(text).every((field) => field.kind === "bare");
  readPart(preamble, scope, scope, noLabels);
  for (const groupText of groups) {
    const group = emptyPart();
    readPart(groupText, group, scope, false);
    scope.groups.push(group);
  }
  // Per part number, the identifiers before the first group are the first group's.
  if (byPartNumber && scope.groups.length > 0) {
    scope.groups[0]!.deviceIds.push(...scope.deviceIds);
    scope.deviceIds = [];
  }
  scope.products.push(...catalogNumbers.map((number) => number.toUpperCase()));
  return scope;
}
