import { ELEMENT_ERROR, SEGMENT_ERROR, SET_ERROR } from "./codes";
import type { Segment, TransactionSet } from "./document";
import { components } from "./elements";
import type { Delimiters } from "./isa";
import type { Problem } from "./problems";

/**
 * Segment and element syntax of the transaction sets this layer owns (the acknowledgments 997 and 999, the TA1) and
 * the syntax notes of the segments we check so far, as data: each failure is an AK3/AK4 (IK3/IK4) problem and makes its
 * set's AK502 5 (one or more segments in error). Sets without rules here are checked by their envelope only.
 */

type ElementType = "AN" | "ID" | "N0" | "DT" | "TM" | "C030";
interface ElementRule {
  required: boolean;
  type: ElementType;
  min: number;
  max: number;
  codes?: readonly string[];
}
/** P: all or none; C: if the first, then all the others; R: at least one; E: not more than one. */
interface SyntaxNote {
  kind: "P" | "C" | "R" | "E";
  elements: readonly number[];
}
interface SegmentRule {
  /** Empty: the elements are not checked (only the syntax notes). */
  elements: readonly ElementRule[];
  notes?: readonly SyntaxNote[];
}
interface SetRule {
  mandatory: readonly string[];
  segments: Readonly<Record<string, SegmentRule>>;
}

const rule = (required: boolean) => (type: ElementType, min: number, max: number, codes?: readonly string[]) => ({
  required,
  type,
  min,
  max,
  codes,
});
const m = rule(true);
const o = rule(false);
const numbered = (from: number, to: number, extra: string[] = []) => [
  ...Array.from({ length: to - from + 1 }, (_, i) => String(from + i)),
  ...extra,
];

const SET_STATUS = ["A", "E", "M", "R", "W", "X"];
const GROUP_STATUS = ["A", "E", "M", "P", "R", "W", "X"];
const SET_ERRORS = numbered(1, 27);
const GROUP_ERRORS = numbered(1, 27);
const SEGMENT_ERRORS = numbered(1, 8);
const ELEMENT_ERRORS = [...numbered(1, 10), "12", "13"];

const AK1: SegmentRule = { elements: [m("ID", 2, 2), m("N0", 1, 9), o("AN", 1, 12)] };
const AK2: SegmentRule = { elements: [m("ID", 3, 3), m("AN", 4, 9), o("AN", 1, 35)] };
const AK9: SegmentRule = {
  elements: [m("ID", 1, 1, GROUP_STATUS), m("N0", 1, 6), m("N0", 1, 6), m("N0", 1, 6), ...Array(5).fill(o("ID", 1, 3, GROUP_ERRORS))],
};
const segmentErrorRule = (codes: readonly string[]): SegmentRule => ({
  elements: [m("ID", 2, 3), m("N0", 1, 10), o("AN", 1, 4), o("ID", 1, 3, codes)],
});
const elementErrorRule = (codes: readonly string[]): SegmentRule => ({
  elements: [m("C030", 1, 2), o("N0", 1, 4), m("ID", 1, 3, codes), o("AN", 1, 99)],
});
const setResponseRule = (codes: readonly string[]): SegmentRule => ({
  elements: [m("ID", 1, 1, SET_STATUS), ...Array(5).fill(o("ID", 1, 3, codes))],
});

export const TA1_RULE: SegmentRule = {
  elements: [
    m("N0", 9, 9),
    m("DT", 6, 6),
    m("TM", 4, 4),
    m("ID", 1, 1, ["A", "E", "R"]),
    m(
      "ID",
      3,
      3,
      numbered(0, 31).map((n) => n.padStart(3, "0")),
    ),
  ],
};

/** PO1's paired product id qualifier/value elements (PO106/07 … PO124/25), and PO103 requires PO102. */
const PO1: SegmentRule = {
  elements: [],
  notes: [
    { kind: "C", elements: [3, 2] },
    ...Array.from({ length: 10 }, (_, i) => ({ kind: "P" as const, elements: [6 + 2 * i, 7 + 2 * i] })),
  ],
};

/** POC's paired product id qualifier/value elements (POC08/09 … POC24/25), and POC05 requires POC03. */
const POC: SegmentRule = {
  elements: [],
  notes: [
    { kind: "C", elements: [5, 3] },
    ...Array.from({ length: 9 }, (_, i) => ({ kind: "P" as const, elements: [8 + 2 * i, 9 + 2 * i] })),
  ],
};

const SET_RULES: Readonly<Record<string, SetRule>> = {
  "997": {
    mandatory: ["AK1", "AK9"],
    segments: {
      AK1,
      AK2,
      AK3: segmentErrorRule(SEGMENT_ERRORS),
      AK4: elementErrorRule(ELEMENT_ERRORS),
      AK5: setResponseRule(SET_ERRORS),
      AK9,
    },
  },
  "999": {
    mandatory: ["AK1", "AK9"],
    segments: {
      AK1,
      AK2,
      IK3: segmentErrorRule([...SEGMENT_ERRORS, "I4", "I6", "I7", "I8", "I9"]),
      IK4: elementErrorRule([...ELEMENT_ERRORS, "I6", "I9", "I10", "I11", "I12", "I13"]),
      IK5: setResponseRule([...SET_ERRORS, "I5", "I6"]),
      AK9,
    },
  },
  "850": { mandatory: [], segments: { PO1 } },
  "860": { mandatory: ["BCH"], segments: { POC } },
};

/** Whether transaction sets of this identifier have syntax rules here (others are checked by their envelope only). */
export const hasSyntaxRules = (setId: string) => setId in SET_RULES;

export function checkSetSyntax(set: TransactionSet, delimiters: Delimiters, report: (problem: Problem) => void) {
  const setRule = SET_RULES[set.id];
  if (!setRule) return;
  let inError = false;
  const reportSegment = (problem: Problem) => {
    inError = true;
    report(problem);
  };
  set.segments.forEach((segment, index) => {
    const segmentRule = setRule.segments[segment.id];
    if (segmentRule) checkSegment(segment, segmentRule, delimiters, index + 1, reportSegment);
  });
  const sePosition = set.segments.length;
  for (const id of setRule.mandatory) {
    if (!set.segments.some((segment) => segment.id === id)) {
      reportSegment({
        severity: "error",
        list: "AK304",
        code: SEGMENT_ERROR.mandatorySegmentMissing,
        message: `mandatory segment ${id} missing`,
        segmentId: id,
        segmentPosition: sePosition,
      });
    }
  }
  if (inError)
    report({ severity: "error", list: "AK502", code: SET_ERROR.segmentsInError, message: `ST ${set.controlNumber} has segments in error` });
}

/** Element problems of one segment against its rule (AK403 codes). */
export function checkSegment(
  segment: Segment,
  segmentRule: SegmentRule,
  delimiters: Delimiters,
  segmentPosition: number,
  report: (problem: Problem) => void,
) {
  const elementProblem = (elementPosition: number, code: string, message: string) =>
    report({
      severity: "error",
      list: "AK403",
      code,
      message: `${segment.id}${String(elementPosition).padStart(2, "0")} ${message}`,
      segmentId: segment.id,
      segmentPosition,
      elementPosition,
    });
  segmentRule.elements.forEach((elementRule, index) => {
    const value = segment.elements[index] ?? "";
    const code =
      value === "" ? (elementRule.required ? ELEMENT_ERROR.mandatoryMissing : undefined) : elementError(value, elementRule, delimiters);
    if (code) elementProblem(index + 1, code, `'${value.slice(0, 40)}' fails ${elementRule.type} ${elementRule.min}/${elementRule.max}`);
  });
  const defined = segmentRule.elements.length;
  if (defined > 0 && segment.elements.length > defined && segment.elements.slice(defined).some((value) => value !== "")) {
    elementProblem(defined + 1, ELEMENT_ERROR.tooManyElements, "is more than the segment defines");
  }
  for (const note of segmentRule.notes ?? []) {
    const present = note.elements.map((position) => (segment.elements[position - 1] ?? "") !== "");
    const [first, ...others] = note.elements;
    const missing = note.elements.find((_, i) => !present[i]);
    if (note.kind === "P" && present.some(Boolean) && missing !== undefined) {
      elementProblem(missing, ELEMENT_ERROR.conditionalMissing, `missing: ${note.kind}${note.elements.join("")} pairs it`);
    } else if (note.kind === "C" && present[0] && missing !== undefined) {
      elementProblem(missing, ELEMENT_ERROR.conditionalMissing, `missing: ${segment.id}${first} requires ${others.join(", ")}`);
    } else if (note.kind === "R" && !present.some(Boolean)) {
      elementProblem(first!, ELEMENT_ERROR.conditionalMissing, `missing: one of ${note.elements.join(", ")} is required`);
    } else if (note.kind === "E" && present.filter(Boolean).length > 1) {
      elementProblem(note.elements.filter((_, i) => present[i])[1]!, ELEMENT_ERROR.exclusionViolated, "excluded by another element");
    }
  }
}

function elementError(value: string, { type, min, max, codes }: ElementRule, delimiters: Delimiters): string | undefined {
  if (type === "C030") {
    const parts = components(value, delimiters);
    return parts.every((part) => /^[0-9]{0,4}$/.test(part)) && parts[0] !== "" ? undefined : ELEMENT_ERROR.invalidCharacter;
  }
  if (value.length < min) return ELEMENT_ERROR.tooShort;
  if (value.length > max) return ELEMENT_ERROR.tooLong;
  if (type === "N0" && !/^-?[0-9]+$/.test(value)) return ELEMENT_ERROR.invalidCharacter;
  if (type === "DT" && !isDate(value)) return ELEMENT_ERROR.invalidDate;
  if (type === "TM" && !/^([01][0-9]|2[0-3])[0-5][0-9]([0-5][0-9][0-9]{0,2})?$/.test(value)) return ELEMENT_ERROR.invalidTime;
  if (codes && !codes.includes(value)) return ELEMENT_ERROR.invalidCode;
  return undefined;
}

function isDate(value: string): boolean {
  if (!/^([0-9]{2}){3,4}$/.test(value)) return false;
  const month = Number(value.slice(-4, -2));
  const day = Number(value.slice(-2));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}
