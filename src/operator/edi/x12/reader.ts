import { TA1_NOTE } from "./codes";
import type { FunctionalGroup, Interchange, Segment, TransactionSet, X12Document } from "./document";
import { checkGroup, checkInterchange, checkTransactionSet } from "./envelope";
import { type Delimiters, readIsa } from "./isa";
import { X12_LIMITS } from "./limits";
import { type Problem, X12Refused } from "./problems";
import { checkSegment, checkSetSyntax, TA1_RULE } from "./syntax";

/**
 * The X12 reader: pure functions from the decoded text to interchanges → groups → transaction sets → segments, with the
 * envelope's problems in the standard codes (./envelope.ts). One linear pass, bounded by X12_LIMITS; no regular
 * expression runs over untrusted text longer than an ISA.
 */

const BYTE_ORDER_MARK = "\ufeff";
const ENVELOPE_SEGMENTS = new Set(["GS", "GE", "ST", "SE", "TA1", "ISB", "ISE"]);

export interface ReadOptions {
  /**
   * Check the element syntax and syntax notes of the sets ./syntax.ts has rules for (997, 999, TA1, 850's PO1) on top
   * of the envelope. Default true; false reads the envelope only.
   */
  syntax?: boolean;
}

export function readX12(input: string, options: ReadOptions = {}): X12Document {
  const syntax = options.syntax ?? true;
  if (input.length > X12_LIMITS.maxInputChars) {
    throw new X12Refused("size", `${input.length} characters, more than ${X12_LIMITS.maxInputChars}`);
  }
  const text = input.startsWith(BYTE_ORDER_MARK) ? input.slice(1) : input;
  const budget = { segments: 0, problems: 0 };
  const interchanges: Interchange[] = [];
  let at = skipWhitespace(text, 0);
  if (at >= text.length) throw new X12Refused("not-x12", "empty input");
  while (at < text.length) {
    if (!text.startsWith("ISA", at)) {
      if (interchanges.length === 0) throw new X12Refused("not-x12", "input does not begin with an ISA segment");
      addProblem(interchanges.at(-1)!.problems, budget, {
        severity: "error",
        list: "TA105",
        code: TA1_NOTE.contentInvalid,
        message: "content after IEA that is not an interchange",
      });
      break;
    }
    if (interchanges.length >= X12_LIMITS.maxInterchanges) {
      throw new X12Refused("bounds", `more than ${X12_LIMITS.maxInterchanges} interchanges`);
    }
    const { interchange, end } = readInterchange(text, at, budget, syntax);
    interchanges.push(interchange);
    at = skipWhitespace(text, end);
  }
  return { interchanges };
}

/**
 * A problem kept within the input's budget: warnings beyond it are dropped, an error beyond it refuses the input (an
 * error must never be lost, or its set would be acknowledged as accepted).
 */
function addProblem(problems: Problem[], budget: { problems: number }, problem: Problem) {
  if (budget.problems >= X12_LIMITS.maxProblems) {
    if (problem.severity === "error") throw new X12Refused("bounds", `more than ${X12_LIMITS.maxProblems} problems`);
    return;
  }
  budget.problems++;
  problems.push(problem);
}

interface Budget {
  segments: number;
  problems: number;
}

function readInterchange(text: string, start: number, budget: Budget, syntax: boolean): { interchange: Interchange; end: number } {
  const header = readIsa(text, start);
  const { fields, delimiters } = header;
  const field = (n: number) => fields[n - 1] ?? "";
  const interchange: Interchange = {
    isa: fields,
    isaOverlongFields: header.overlongFields,
    isaFixedWidth: header.fixedWidth,
    delimiters,
    senderQualifier: field(5),
    senderId: field(6),
    receiverQualifier: field(7),
    receiverId: field(8),
    date: field(9),
    time: field(10),
    version: field(12),
    controlNumber: field(13),
    acknowledgmentRequested: field(14) === "1",
    usage: field(15),
    serviceSegments: [],
    ta1: [],
    groups: [],
    trailer: undefined,
    problems: [],
  };
  const report = (problem: Problem) => addProblem(interchange.problems, budget, problem);
  header.problems.forEach(report);
  const tokens = new SegmentTokens(text, header.end, delimiters, header.lineBreaksEndSegments);
  let group: FunctionalGroup | undefined;
  let set: TransactionSet | undefined;
  let groupSetControlNumbers = new Set<string>();
  const closeSet = () => {
    if (set) {
      const reportInSet = (problem: Problem) => addProblem(set!.problems, budget, problem);
      checkTransactionSet(set, groupSetControlNumbers, reportInSet);
      if (syntax) checkSetSyntax(set, delimiters, reportInSet);
    }
    set = undefined;
  };
  const closeGroup = () => {
    closeSet();
    if (group) checkGroup(group, (problem) => addProblem(group!.problems, budget, problem));
    group = undefined;
  };
  // Reported once per interchange and kind: an envelope segment out of place breaks the control structure (022),
  // any other segment outside its envelope is invalid content (024).
  const reported = new Set<string>();
  const stray = (segment: Segment, where: string) => {
    const code = ENVELOPE_SEGMENTS.has(segment.id) ? TA1_NOTE.controlStructureInvalid : TA1_NOTE.contentInvalid;
    if (reported.has(code)) return;
    reported.add(code);
    report({ severity: "error", list: "TA105", code, message: `${segment.id} ${where}`, segmentId: segment.id });
  };
  for (;;) {
    const segment = tokens.next();
    if (segment === undefined) {
      closeGroup();
      report({ severity: "error", list: "TA105", code: TA1_NOTE.prematureEndOfFile, message: "input ends before IEA" });
      break;
    }
    if (++budget.segments > X12_LIMITS.maxSegments) throw new X12Refused("bounds", `more than ${X12_LIMITS.maxSegments} segments`);
    if (segment.id === "IEA") {
      closeGroup();
      interchange.trailer = segment;
      break;
    }
    if (segment.id === "ISA") {
      // A new interchange before this one's IEA: end this one here and read the next from its own ISA.
      closeGroup();
      report({
        severity: "error",
        list: "TA105",
        code: TA1_NOTE.prematureEndOfFile,
        message: "ISA before the IEA of the previous interchange",
      });
      return { interchange: finish(interchange, report), end: tokens.lastStart };
    }
    switch (segment.id) {
      case "GS":
        closeGroup();
        if (interchange.groups.length >= X12_LIMITS.maxGroupsPerInterchange) {
          throw new X12Refused("bounds", `more than ${X12_LIMITS.maxGroupsPerInterchange} groups in an interchange`);
        }
        group = {
          header: segment,
          functionalId: segment.elements[0] ?? "",
          controlNumber: segment.elements[5] ?? "",
          version: segment.elements[7] ?? "",
          sets: [],
          trailer: undefined,
          problems: [],
        };
        interchange.groups.push(group);
        groupSetControlNumbers = new Set();
        break;
      case "GE":
        if (!group) stray(segment, "without GS");
        else {
          closeSet();
          group.trailer = segment;
          closeGroup();
        }
        break;
      case "ST":
        if (!group) {
          stray(segment, "outside a functional group");
          break;
        }
        closeSet();
        if (group.sets.length >= X12_LIMITS.maxSetsPerGroup) {
          throw new X12Refused("bounds", `more than ${X12_LIMITS.maxSetsPerGroup} transaction sets in a group`);
        }
        set = {
          id: segment.elements[0] ?? "",
          controlNumber: segment.elements[1] ?? "",
          implementationReference: segment.elements[2] || undefined,
          segments: [segment],
          trailer: undefined,
          problems: [],
        };
        group.sets.push(set);
        break;
      case "SE":
        if (!set) stray(segment, "without ST");
        else {
          set.segments.push(segment);
          set.trailer = segment;
          closeSet();
        }
        break;
      case "TA1":
      case "ISB":
      case "ISE":
        if (group) stray(segment, "inside a functional group");
        else if (segment.id === "TA1") {
          interchange.ta1.push(segment);
          if (syntax)
            checkSegment(segment, TA1_RULE, delimiters, 0, (problem) =>
              report({ ...problem, list: "TA105", code: TA1_NOTE.contentInvalid, message: `TA1: ${problem.message}` }),
            );
        } else interchange.serviceSegments.push(segment);
        break;
      default:
        if (set) set.segments.push(segment);
        else stray(segment, group ? "outside a transaction set" : "outside a functional group");
    }
  }
  if (tokens.wrapped) report(lenient("line breaks inside segments removed (wrapped lines)"));
  return { interchange: finish(interchange, report), end: tokens.position };
}

function finish(interchange: Interchange, report: (problem: Problem) => void): Interchange {
  checkInterchange(interchange, report);
  return interchange;
}

const lenient = (message: string): Problem => ({ severity: "warning", list: "reader", code: "lenient", message });

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && text[at]!.trim() === "") at++;
  return at;
}

/**
 * Segments one after another from `start`: split at the terminator (and at any line break when lines end segments),
 * trimmed of whitespace around them; otherwise line breaks inside a segment are wrapping (80-column files) and removed.
 */
class SegmentTokens {
  position: number;
  lastStart: number;
  wrapped = false;

  constructor(
    private readonly text: string,
    start: number,
    private readonly delimiters: Delimiters,
    private readonly lineBreaksEndSegments: boolean,
  ) {
    this.position = start;
    this.lastStart = start;
  }

  next(): Segment | undefined {
    for (;;) {
      const raw = this.nextRaw();
      if (raw === undefined) return undefined;
      const trimmed = raw.trim();
      if (trimmed === "") continue;
      return this.split(this.unwrap(trimmed));
    }
  }

  private nextRaw(): string | undefined {
    const { text } = this;
    const start = skipWhitespace(text, this.position);
    if (start >= text.length) {
      this.position = text.length;
      return undefined;
    }
    this.lastStart = start;
    let end: number;
    if (this.delimiters.segment === "\n" || this.lineBreaksEndSegments) {
      const terminator = this.delimiters.segment;
      end = start;
      while (end < text.length && text[end] !== "\n" && text[end] !== "\r" && text[end] !== terminator) end++;
    } else {
      end = text.indexOf(this.delimiters.segment, start);
      if (end === -1) end = text.length;
    }
    this.position = end + 1;
    return text.slice(start, end);
  }

  private unwrap(segment: string): string {
    if (this.delimiters.segment === "\n" || (!segment.includes("\n") && !segment.includes("\r"))) return segment;
    this.wrapped = true;
    return segment.replaceAll("\r", "").replaceAll("\n", "");
  }

  private split(raw: string): Segment {
    const { element } = this.delimiters;
    const parts: string[] = [];
    let from = 0;
    for (;;) {
      const at = raw.indexOf(element, from);
      const part = at === -1 ? raw.slice(from) : raw.slice(from, at);
      if (part.length > X12_LIMITS.maxElementChars) {
        throw new X12Refused("bounds", `an element of more than ${X12_LIMITS.maxElementChars} characters`);
      }
      parts.push(part);
      if (parts.length > X12_LIMITS.maxElementsPerSegment + 1) {
        throw new X12Refused("bounds", `a segment of more than ${X12_LIMITS.maxElementsPerSegment} elements`);
      }
      if (at === -1) break;
      from = at + 1;
    }
    const [id = "", ...elements] = parts;
    return { id, elements };
  }
}
