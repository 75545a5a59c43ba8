import { type AckStatus, SEGMENT_ERROR, SET_ERROR, TA1_NOTE } from "./codes";
import type { FunctionalGroup, Interchange, TransactionSet } from "./document";
import { allProblems } from "./envelope";
import type { Problem, X12Refused } from "./problems";
import type { WriteSegment, WriteSet } from "./writer";

/**
 * Acknowledgments of what we read: a 997 or 999 per functional group (AK1, then per set AK2, AK3/IK3 and AK4/IK4 for
 * each segment and element in error, AK5/IK5, then AK9), and a TA1 per interchange. They are WriteSets and
 * WriteSegments: ./writer.ts puts them in an envelope with the caller's control numbers.
 */

export type FunctionalAckKind = "997" | "999";

/** 999's implementation guide (ST03), the one 005010 partners expect. */
export const IMPLEMENTATION_999 = "005010X231A1";

/** At most five codes fit AK502..AK506 and AK905..AK909. */
const MAX_CODES = 5;

export interface FunctionalAckOptions {
  kind: FunctionalAckKind;
  /** ST02 of the acknowledgment. */
  controlNumber: number;
  /**
   * Segment and element problems found beyond the envelope (e.g. by a transaction set's mapping), per set; each
   * needs its segmentId and segmentPosition, and elementPosition for an element (AK4/IK4).
   */
  additionalProblems?: (set: TransactionSet) => Problem[];
}

export function functionalAcknowledgment(group: FunctionalGroup, options: FunctionalAckOptions): WriteSet {
  const { kind } = options;
  const is999 = kind === "999";
  const segments: WriteSegment[] = [{ id: "AK1", elements: [group.functionalId, group.controlNumber, ...(is999 ? [group.version] : [])] }];
  let accepted = 0;
  let acceptedWithErrors = false;
  for (const set of group.sets) {
    const problems = [...set.problems, ...(options.additionalProblems?.(set) ?? [])];
    segments.push({
      id: "AK2",
      elements: [set.id, set.controlNumber, ...(is999 && set.implementationReference ? [set.implementationReference] : [])],
    });
    segments.push(...segmentErrors(problems, is999));
    const status = setStatus(problems);
    if (status !== "R") accepted++;
    if (status === "E") acceptedWithErrors = true;
    segments.push({ id: is999 ? "IK5" : "AK5", elements: [status, ...setCodes(problems)] });
  }
  const groupCodes = codesOf(group.problems, "AK905");
  const groupErrors = group.problems.some((problem) => problem.severity === "error" && problem.list === "AK905");
  const declared = group.trailer?.elements[0] ?? "";
  const included = /^[0-9]{1,6}$/.test(declared) ? declared : String(group.sets.length);
  const groupStatus: AckStatus =
    groupErrors || accepted === 0 ? "R" : accepted < group.sets.length ? "P" : groupCodes.length > 0 || acceptedWithErrors ? "E" : "A";
  segments.push({
    id: "AK9",
    elements: [groupStatus, included, String(group.sets.length), String(groupErrors ? 0 : accepted), ...groupCodes],
  });
  return {
    id: kind,
    controlNumber: options.controlNumber,
    ...(is999 ? { implementationReference: IMPLEMENTATION_999 } : {}),
    segments,
  };
}

/** AK3/IK3 per segment in error, each followed by its AK4/IK4 element errors, in the order of the set. */
function segmentErrors(problems: Problem[], is999: boolean): WriteSegment[] {
  // Keyed by position and id: missing mandatory segments share the position where they were due.
  const bySegment = new Map<string, { id: string; position: number; segmentCode?: string; elements: Problem[] }>();
  for (const problem of problems) {
    if (problem.severity !== "error" || problem.segmentPosition === undefined) continue;
    if (problem.list !== "AK304" && problem.list !== "AK403") continue;
    const id = problem.segmentId ?? "";
    const key = `${problem.segmentPosition}|${id}`;
    const entry = bySegment.get(key) ?? { id, position: problem.segmentPosition, elements: [] };
    if (problem.list === "AK304") entry.segmentCode ??= problem.code;
    else entry.elements.push(problem);
    bySegment.set(key, entry);
  }
  return [...bySegment.values()]
    .sort((a, b) => a.position - b.position)
    .flatMap((entry) => [
      {
        id: is999 ? "IK3" : "AK3",
        elements: [entry.id, String(entry.position), "", entry.segmentCode ?? SEGMENT_ERROR.segmentHasElementErrors],
      },
      ...entry.elements.map((problem) => ({
        id: is999 ? "IK4" : "AK4",
        elements: [String(problem.elementPosition ?? ""), problem.elementReference ?? "", problem.code],
      })),
    ]);
}

function setStatus(problems: Problem[]): AckStatus {
  if (problems.some((problem) => problem.severity === "error" && problem.list !== "reader")) return "R";
  return setCodes(problems).length > 0 ? "E" : "A";
}

/** AK502.. codes: the set's own, plus 5 when a segment or element is in error. */
function setCodes(problems: Problem[]): string[] {
  const codes = codesOf(problems, "AK502");
  const segmentsInError = problems.some(
    (problem) => problem.severity === "error" && (problem.list === "AK304" || problem.list === "AK403"),
  );
  if (segmentsInError && !codes.includes(SET_ERROR.segmentsInError)) codes.push(SET_ERROR.segmentsInError);
  return codes.slice(0, MAX_CODES);
}

function codesOf(problems: Problem[], list: Problem["list"]): string[] {
  return [...new Set(problems.filter((problem) => problem.list === list).map((problem) => problem.code))].slice(0, MAX_CODES);
}

/** A TA1 is owed when the sender asked for one (ISA14 = 1) or the interchange's envelope is broken. */
export const ta1Owed = (interchange: Interchange): boolean =>
  interchange.acknowledgmentRequested || interchange.problems.some((problem) => problem.severity === "error" && problem.list === "TA105");

/** TA1: accepted (000), accepted with errors (a warning's code) or rejected with the first envelope error's code. */
export function interchangeAcknowledgment(interchange: Interchange): WriteSegment {
  const envelopeProblems = interchange.problems.filter((problem) => problem.list === "TA105");
  const error = envelopeProblems.find((problem) => problem.severity === "error");
  const note = error ?? envelopeProblems[0];
  const status: AckStatus = error ? "R" : note ? "E" : "A";
  return { id: "TA1", elements: [interchange.controlNumber, interchange.date, interchange.time, status, note?.code ?? TA1_NOTE.noError] };
}

/** The TA1 rejecting an interchange the reader refused, when its ISA could be identified (`X12Refused.isa`). */
export function refusalAcknowledgment(refusal: X12Refused): WriteSegment | undefined {
  if (!refusal.ta1Note || !refusal.isa) return undefined;
  const { controlNumber, date, time } = refusal.isa;
  return { id: "TA1", elements: [controlNumber, date, time, "R", refusal.ta1Note] };
}

/** Whether the interchange and everything in it read without an error (warnings allowed). */
export const readCleanly = (interchange: Interchange): boolean => !allProblems(interchange).some((problem) => problem.severity === "error");
