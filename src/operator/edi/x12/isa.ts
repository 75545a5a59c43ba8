import { TA1_NOTE } from "./codes";
import { type IsaIdentity, type Problem, X12Refused } from "./problems";

/**
 * The interchange header (ISA) and the delimiters it declares. ISA is fixed width (16 elements of widths
 * 2,10,2,10,2,15,2,15,6,4,1,5,9,1,1,1, the terminator at character 106), but real files pad it short, wrap it at 80
 * columns or leave ISA16 out, so a tolerant fallback reads it element by element.
 */

export interface Delimiters {
  element: string;
  /** ISA16; undefined when the sender left it out. */
  component: string | undefined;
  /** ISA11 when it is a separator (00402 and up) rather than the standards identifier `U`. */
  repetition: string | undefined;
  /** One character; "\n" stands for any line break (CR, LF or CRLF) when lines end segments. */
  segment: string;
}

export interface IsaHeader {
  /** ISA01..ISA16, trimmed of their padding. */
  fields: string[];
  /** Numbers of the fields longer than their fixed width (only an ISA read element by element can have them). */
  overlongFields: number[];
  /** The ISA has its fixed width of 106 characters; real senders often leave fields unpadded, which we accept. */
  fixedWidth: boolean;
  /**
   * Line breaks end segments too: set when ISA16 is missing (`…*P*~` + newline), whose senders write one segment per
   * line and sometimes forget the `~`.
   */
  lineBreaksEndSegments: boolean;
  delimiters: Delimiters;
  /** Index of the first character after the ISA's terminator. */
  end: number;
  problems: Problem[];
}

export const ISA_LENGTH = 106;
export const ISA_WIDTHS = [2, 10, 2, 10, 2, 15, 2, 15, 6, 4, 1, 5, 9, 1, 1, 1] as const;
/** The fallback never looks further than this for the ISA's 16 elements (NBSP padding, wrapped lines). */
const ISA_SCAN_LIMIT = 400;

const isLineBreak = (char: string | undefined) => char === "\n" || char === "\r";
const isAlphanumeric = (char: string) => /^[A-Za-z0-9]$/.test(char);
const isBlank = (char: string) => char.trim() === "";

const fixedSeparatorOffsets: number[] = (() => {
  const offsets = [3];
  let at = 3;
  for (const width of ISA_WIDTHS.slice(0, 15)) {
    at += 1 + width;
    offsets.push(at);
  }
  return offsets;
})();

export function readIsa(text: string, start: number): IsaHeader {
  try {
    const element = text[start + 3];
    if (element === undefined || isAlphanumeric(element) || isBlank(element)) {
      throw new X12Refused("delimiters", `ISA4 '${element ?? ""}' cannot be an element separator`, TA1_NOTE.elementSeparatorInvalid);
    }
    const fixed = fixedSeparatorOffsets.every((offset) => text[start + offset] === element) && start + ISA_LENGTH <= text.length;
    const header = fixed ? readFixedIsa(text, start, element) : readIsaByElements(text, start, element);
    checkDelimiters(header.delimiters);
    return header;
  } catch (error) {
    if (error instanceof X12Refused && error.ta1Note) throw error.withIsa(isaIdentity(text, start));
    throw error;
  }
}

/**
 * ISA13, ISA09 and ISA10 of an ISA the reader refuses, so a TA1 can still answer it: at their fixed offsets, else as
 * the 13th, 9th and 10th fields split at character 4; undefined when neither gives plausible values.
 */
function isaIdentity(text: string, start: number): IsaIdentity | undefined {
  const plausible = (controlNumber = "", date = "", time = "") =>
    /^[0-9]{9}$/.test(controlNumber) && /^[0-9]{6}$/.test(date) && /^[0-9]{4}$/.test(time) ? { controlNumber, date, time } : undefined;
  const atOffsets = plausible(text.slice(start + 90, start + 99), text.slice(start + 70, start + 76), text.slice(start + 77, start + 81));
  if (atOffsets) return atOffsets;
  const fields = text
    .slice(start, start + ISA_SCAN_LIMIT)
    .split(text[start + 3] ?? "*")
    .map((field) => field.replace(/[\r\n]/g, "").trim());
  return plausible(fields[13], fields[9], fields[10]);
}

function readFixedIsa(text: string, start: number, element: string): IsaHeader {
  const problems: Problem[] = [];
  const fields = text.slice(start + 4, start + 104).split(element);
  const { component, segment, end } = afterIsa15(text, start + 104, problems);
  if (fields.some((field) => field.includes("\u00a0"))) problems.push(warning("ISA fields padded with no-break spaces"));
  return {
    ...finishIsa(fields, element, component, segment, end, problems),
    overlongFields: [],
    fixedWidth: true,
    lineBreaksEndSegments: component === undefined,
  };
}

/**
 * ISA16 and the terminator from the characters after ISA15's separator. ISA16 is missing when a line break follows
 * at once, or in `…*P*~` + newline when the next line (GS) ends with that `~` too: then `~` ends the segments.
 */
function afterIsa15(text: string, at: number, problems: Problem[]): { component: string | undefined; segment: string; end: number } {
  const first = text[at];
  const second = text[at + 1];
  if (first === undefined || second === undefined)
    throw new X12Refused("structure", "input ends inside the ISA", TA1_NOTE.prematureEndOfFile);
  if (isLineBreak(first) || (isLineBreak(second) && nextLineEndsWith(text, at + 1, first))) {
    problems.push(warning("ISA16 (component separator) is missing: the segment terminator follows ISA15"));
    return { component: undefined, segment: first, end: at + 1 };
  }
  return { component: first, segment: second, end: at + 2 };
}

function readIsaByElements(text: string, start: number, element: string): IsaHeader {
  const problems: Problem[] = [];
  const fields: string[] = [];
  let fieldStart = start + 4;
  const limit = Math.min(text.length, start + ISA_SCAN_LIMIT);
  for (let at = fieldStart; at < limit && fields.length < 15; at++) {
    if (text[at] === element) {
      fields.push(text.slice(fieldStart, at));
      fieldStart = at + 1;
    }
  }
  if (fields.length < 15) {
    throw new X12Refused("structure", "ISA has fewer than 16 elements", TA1_NOTE.controlStructureInvalid);
  }
  const { component, segment, end } = afterIsa15(text, fieldStart, problems);
  const wrapped = fields.some((field) => /[\r\n]/.test(field));
  if (wrapped && isLineBreak(segment)) {
    throw new X12Refused("structure", "ISA is broken across lines while line breaks end segments", TA1_NOTE.controlStructureInvalid);
  }
  if (wrapped) problems.push(warning("ISA wrapped across lines: line breaks removed"));
  fields.push(component ?? "");
  const unwrapped = fields.map((field) => field.replace(/[\r\n]/g, ""));
  if (unwrapped.some((field) => field.includes("\u00a0"))) problems.push(warning("ISA fields padded with no-break spaces"));
  const overlongFields = unwrapped.flatMap((field, index) => (field.length > ISA_WIDTHS[index]! ? [index + 1] : []));
  return {
    ...finishIsa(unwrapped, element, component, segment, end, problems),
    overlongFields,
    fixedWidth: false,
    lineBreaksEndSegments: component === undefined,
  };
}

function finishIsa(
  rawFields: string[],
  element: string,
  component: string | undefined,
  segmentChar: string,
  end: number,
  problems: Problem[],
): Omit<IsaHeader, "overlongFields" | "fixedWidth" | "lineBreaksEndSegments"> {
  const fields = rawFields.map((field) => field.trim());
  const isa11 = fields[10] ?? "";
  const repetition = isa11.length === 1 && !isAlphanumeric(isa11) && !isBlank(isa11) ? isa11 : undefined;
  const segment = isLineBreak(segmentChar) ? "\n" : segmentChar;
  return { fields, delimiters: { element, component, repetition, segment }, end, problems };
}

function nextLineEndsWith(text: string, from: number, char: string): boolean {
  let at = from;
  while (isLineBreak(text[at])) at++;
  const lineEnd = text.slice(at, at + ISA_SCAN_LIMIT).search(/[\r\n]/);
  return lineEnd > 0 && text[at + lineEnd - 1] === char;
}

function checkDelimiters({ element, component, repetition, segment }: Delimiters) {
  if (isAlphanumeric(segment) || (isBlank(segment) && segment !== "\n")) {
    throw new X12Refused("delimiters", `'${segment}' cannot end segments`, TA1_NOTE.segmentTerminatorInvalid);
  }
  if (segment === element)
    throw new X12Refused("delimiters", "segment terminator equals the element separator", TA1_NOTE.segmentTerminatorInvalid);
  if (component !== undefined && (isAlphanumeric(component) || isBlank(component) || component === element || component === segment)) {
    throw new X12Refused("delimiters", `ISA16 '${component}' cannot be a component separator here`, TA1_NOTE.componentSeparatorInvalid);
  }
  if (repetition !== undefined && (repetition === element || repetition === segment || repetition === component)) {
    throw new X12Refused("delimiters", `ISA11 '${repetition}' collides with another delimiter`, TA1_NOTE.controlStructureInvalid);
  }
}

const warning = (message: string): Problem => ({ severity: "warning", list: "reader", code: "lenient", message });
