import type { Segment } from "./document";

/**
 * The X12 writer: an interchange from its envelope values and its sets' segments, with the caller's delimiters and
 * control numbers. It computes the counts (SE01, GE01, IEA01), pads the ISA to its fixed width (106 characters), omits
 * trailing empty elements, and refuses delimiters that collide with each other or with the data (X12WriteError).
 */

export class X12WriteError extends Error {
  constructor(message: string) {
    super(`X12 write: ${message}`);
    this.name = "X12WriteError";
  }
}

export interface WriteDelimiters {
  element: string;
  component: string;
  /** ISA11 in 00402 and up; leave out for 00401, whose ISA11 is `U`. */
  repetition?: string;
  segment: string;
  /** Written after each terminator: "" (one line), "\n" or "\r\n". */
  lineBreak?: "" | "\n" | "\r\n";
}

/** An element: a value, a composite's components, or repetitions of either. */
export type WriteElement = string | { components: string[] } | { repetitions: (string | { components: string[] })[] };

export interface WriteSegment {
  id: string;
  elements: WriteElement[];
}

export interface InterchangeEnvelope {
  senderQualifier: string;
  senderId: string;
  receiverQualifier: string;
  receiverId: string;
  /** YYMMDD and HHMM. */
  date: string;
  time: string;
  /** ISA12, e.g. 00401 or 00501. */
  version: string;
  /** ISA13: 1 to 999999999, written as 9 digits. */
  controlNumber: number;
  acknowledgmentRequested: boolean;
  usage: "P" | "T";
}

export interface GroupEnvelope {
  functionalId: string;
  senderId: string;
  receiverId: string;
  /** CCYYMMDD and HHMM. */
  date: string;
  time: string;
  /** GS06: 1 to 999999999. */
  controlNumber: number;
  /** GS08, e.g. 004010 or 005010X231A1. */
  version: string;
}

export interface WriteSet {
  id: string;
  /** ST02: 1 to 999999999, written with at least 4 digits. */
  controlNumber: number;
  /** ST03 (005010 and up). */
  implementationReference?: string;
  /** The segments between ST and SE. */
  segments: WriteSegment[];
}

export interface WriteInterchange {
  delimiters: WriteDelimiters;
  envelope: InterchangeEnvelope;
  /** TA1 segments before the groups (a TA1-only interchange has no groups). */
  ta1?: WriteSegment[];
  groups: { envelope: GroupEnvelope; sets: WriteSet[] }[];
}

const ENVELOPE_IDS = new Set(["ISA", "IEA", "GS", "GE", "ST", "SE", "TA1", "ISB", "ISE"]);
const SEGMENT_ID = /^[A-Z][A-Z0-9]{1,2}$/;

export function writeInterchange({ delimiters, envelope, ta1 = [], groups }: WriteInterchange): string {
  const separators = checkDelimiters(delimiters);
  const segmentText = (segment: WriteSegment) => renderSegment(segment, delimiters, separators);
  const lines: string[] = [renderIsa(envelope, delimiters, separators), ...ta1.map((segment) => segmentText(checkedId(segment, ["TA1"])))];
  for (const group of groups) {
    const { envelope: gs } = group;
    const groupControl = controlNumber(gs.controlNumber, 1, "GS06");
    lines.push(
      segmentText({ id: "GS", elements: [gs.functionalId, gs.senderId, gs.receiverId, gs.date, gs.time, groupControl, "X", gs.version] }),
    );
    for (const set of group.sets) {
      const setControl = controlNumber(set.controlNumber, 4, "ST02");
      const header = [set.id, setControl, ...(set.implementationReference ? [set.implementationReference] : [])];
      lines.push(segmentText({ id: "ST", elements: header }));
      for (const segment of set.segments) lines.push(segmentText(checkedId(segment)));
      lines.push(segmentText({ id: "SE", elements: [String(set.segments.length + 2), setControl] }));
    }
    lines.push(segmentText({ id: "GE", elements: [String(group.sets.length), groupControl] }));
  }
  lines.push(segmentText({ id: "IEA", elements: [String(groups.length), controlNumber(envelope.controlNumber, 9, "ISA13")] }));
  return lines.join("");
}

/** Segments read back without their envelope: what `writeInterchange` takes, for a document we re-send. */
export const asWriteSegment = (segment: Segment): WriteSegment => ({ id: segment.id, elements: [...segment.elements] });

function checkDelimiters(delimiters: WriteDelimiters): string[] {
  const separators = [
    delimiters.element,
    delimiters.component,
    delimiters.segment,
    ...(delimiters.repetition ? [delimiters.repetition] : []),
  ];
  for (const separator of separators) {
    if (separator.length !== 1 || /^[A-Za-z0-9]$/.test(separator) || separator.trim() === "") {
      throw new X12WriteError(`delimiter '${separator}' must be one UTF-16 character, neither a letter, a digit nor whitespace`);
    }
  }
  if (new Set(separators).size !== separators.length) throw new X12WriteError(`delimiters collide: ${separators.join(" ")}`);
  return separators;
}

function checkedId(segment: WriteSegment, allowedEnvelopeIds: string[] = []): WriteSegment {
  if (!SEGMENT_ID.test(segment.id)) throw new X12WriteError(`'${segment.id}' is not a segment id`);
  if (ENVELOPE_IDS.has(segment.id) && !allowedEnvelopeIds.includes(segment.id)) {
    throw new X12WriteError(`${segment.id} is an envelope segment: the writer makes it`);
  }
  return segment;
}

function controlNumber(value: number, width: number, name: string): string {
  if (!Number.isInteger(value) || value < 1 || value > 999_999_999) throw new X12WriteError(`${name} ${value} is not 1 to 999999999`);
  return String(value).padStart(width, "0");
}

function checkedValue(value: string, separators: string[], where: string): string {
  const collision = separators.find((separator) => value.includes(separator));
  if (collision !== undefined) throw new X12WriteError(`${where} '${value}' contains the delimiter '${collision}'`);
  if (/[\r\n]/.test(value)) throw new X12WriteError(`${where} contains a line break`);
  return value;
}

function renderSegment(segment: WriteSegment, delimiters: WriteDelimiters, separators: string[]): string {
  const rendered = segment.elements.map((element, index) => {
    const where = `${segment.id}${String(index + 1).padStart(2, "0")}`;
    const simple = (value: string | { components: string[] }) =>
      typeof value === "string"
        ? checkedValue(value, separators, where)
        : value.components.map((component) => checkedValue(component, separators, where)).join(delimiters.component);
    if (typeof element === "string" || "components" in element) return simple(element);
    if (!delimiters.repetition) throw new X12WriteError(`${where} repeats but no repetition separator is set`);
    return element.repetitions.map(simple).join(delimiters.repetition);
  });
  while (rendered.length > 0 && rendered.at(-1) === "") rendered.pop();
  return [segment.id, ...rendered].join(delimiters.element) + delimiters.segment + (delimiters.lineBreak ?? "");
}

function renderIsa(envelope: InterchangeEnvelope, delimiters: WriteDelimiters, separators: string[]): string {
  const fixed = (value: string, width: number, name: string) => {
    checkedValue(value, separators, name);
    if (value.length > width) throw new X12WriteError(`${name} '${value}' is longer than ${width}`);
    return value.padEnd(width, " ");
  };
  const fields = [
    "00",
    fixed("", 10, "ISA02"),
    "00",
    fixed("", 10, "ISA04"),
    fixed(envelope.senderQualifier, 2, "ISA05"),
    fixed(envelope.senderId, 15, "ISA06"),
    fixed(envelope.receiverQualifier, 2, "ISA07"),
    fixed(envelope.receiverId, 15, "ISA08"),
    fixed(envelope.date, 6, "ISA09"),
    fixed(envelope.time, 4, "ISA10"),
    delimiters.repetition ?? "U",
    fixed(envelope.version, 5, "ISA12"),
    controlNumber(envelope.controlNumber, 9, "ISA13"),
    envelope.acknowledgmentRequested ? "1" : "0",
    envelope.usage,
    delimiters.component,
  ];
  return ["ISA", ...fields].join(delimiters.element) + delimiters.segment + (delimiters.lineBreak ?? "");
}
