import { GROUP_ERROR, SEGMENT_ERROR, SET_ERROR, TA1_NOTE } from "./codes";
import type { FunctionalGroup, Interchange, TransactionSet } from "./document";
import { ISA_WIDTHS } from "./isa";
import type { Problem } from "./problems";

/**
 * Envelope checks, each failure in the code the acknowledgment carries: the interchange's in TA105 (TA1), the group's
 * in AK905 (997/999 AK9), the transaction set's in AK502/IK502. Counts and control numbers are compared as text, never
 * allocated from: a declared count of 999999999 costs nothing.
 */

type Report = (problem: Problem) => void;

const DIGITS = /^[0-9]+$/;
const SEGMENT_ID = /^[A-Z0-9]{2,3}$/;
const isCount = (value: string | undefined, actual: number) => value !== undefined && DIGITS.test(value) && Number(value) === actual;

/** `seenControlNumbers`: the ST02s of the group's sets before this one (a set, so a group of 100,000 sets stays linear). */
export function checkTransactionSet(set: TransactionSet, seenControlNumbers: Set<string>, report: Report) {
  const error = (code: string, message: string) => report({ severity: "error", list: "AK502", code, message });
  if (!/^[0-9]{3}$/.test(set.id)) error(SET_ERROR.identifierInvalid, `ST01 '${set.id}' is not a transaction set identifier`);
  if (!/^[A-Za-z0-9]{4,9}$/.test(set.controlNumber))
    error(SET_ERROR.controlNumberInvalid, `ST02 '${set.controlNumber}' is not 4 to 9 characters`);
  else if (seenControlNumbers.has(set.controlNumber)) {
    // A warning: senders reuse 0001 for every set, and each set stays unambiguous by its position.
    report({
      severity: "warning",
      list: "AK502",
      code: SET_ERROR.controlNumberNotUnique,
      message: `ST02 ${set.controlNumber} appears twice in the group`,
    });
  }
  seenControlNumbers.add(set.controlNumber);
  set.segments.forEach((segment, index) => {
    if (!SEGMENT_ID.test(segment.id)) {
      report({
        severity: "error",
        list: "AK304",
        code: SEGMENT_ERROR.unrecognizedSegment,
        message: `segment id '${segment.id.slice(0, 20)}' at position ${index + 1}`,
        segmentPosition: index + 1,
        segmentId: segment.id.slice(0, 3),
      });
    }
  });
  if (!set.trailer) {
    error(SET_ERROR.trailerMissing, `no SE for ST ${set.controlNumber}`);
    return;
  }
  const [count, controlNumber] = set.trailer.elements;
  if (!isCount(count, set.segments.length)) {
    error(SET_ERROR.segmentCountMismatch, `SE01=${count ?? ""} but ${set.segments.length} segments in ST ${set.controlNumber}`);
  }
  if (controlNumber !== set.controlNumber)
    error(SET_ERROR.controlNumberMismatch, `SE02 ${controlNumber ?? ""} != ST02 ${set.controlNumber}`);
}

export function checkGroup(group: FunctionalGroup, report: Report) {
  const error = (code: string, message: string) => report({ severity: "error", list: "AK905", code, message });
  if (!/^[0-9]{1,9}$/.test(group.controlNumber))
    error(GROUP_ERROR.controlNumberInvalid, `GS06 '${group.controlNumber}' is not 1 to 9 digits`);
  if (!group.trailer) {
    error(GROUP_ERROR.trailerMissing, `no GE for GS ${group.controlNumber}`);
    return;
  }
  const [count, controlNumber] = group.trailer.elements;
  if (!isCount(count, group.sets.length)) error(GROUP_ERROR.setCountMismatch, `GE01=${count ?? ""} but ${group.sets.length} sets`);
  if (controlNumber !== group.controlNumber)
    error(GROUP_ERROR.controlNumberMismatch, `GE02 ${controlNumber ?? ""} != GS06 ${group.controlNumber}`);
}

/** ISA field checks: [field number, pattern, TA105 code]. ISA02/04/06/08 may come unpadded, never longer than their width. */
const ISA_FIELD_RULES: [number, RegExp, string][] = [
  [1, /^[0-9]{2}$/, TA1_NOTE.authorizationQualifierInvalid],
  [2, /^.{0,10}$/, TA1_NOTE.authorizationInvalid],
  [3, /^[0-9]{2}$/, TA1_NOTE.securityQualifierInvalid],
  [4, /^.{0,10}$/, TA1_NOTE.securityInvalid],
  [5, /^[A-Z0-9]{2}$/, TA1_NOTE.senderQualifierInvalid],
  [6, /^.{1,15}$/, TA1_NOTE.senderIdInvalid],
  [7, /^[A-Z0-9]{2}$/, TA1_NOTE.receiverQualifierInvalid],
  [8, /^.{1,15}$/, TA1_NOTE.receiverIdInvalid],
  [9, /^[0-9]{6}$/, TA1_NOTE.dateInvalid],
  [10, /^[0-9]{4}$/, TA1_NOTE.timeInvalid],
  [12, /^[0-9]{5}$/, TA1_NOTE.versionInvalid],
  [13, /^[0-9]{9}$/, TA1_NOTE.controlNumberInvalid],
  [14, /^[01]$/, TA1_NOTE.acknowledgmentRequestedInvalid],
  [15, /^[PTI]$/, TA1_NOTE.testIndicatorInvalid],
];

export function checkInterchange(interchange: Interchange, report: Report) {
  const error = (code: string, message: string) => report({ severity: "error", list: "TA105", code, message });
  for (const [field, pattern, code] of ISA_FIELD_RULES) {
    const value = interchange.isa[field - 1] ?? "";
    const name = `ISA${String(field).padStart(2, "0")}`;
    if (!pattern.test(value)) error(code, `${name} '${value}' is invalid`);
    else if (interchange.isaOverlongFields.includes(field)) error(code, `${name} is longer than its fixed width ${ISA_WIDTHS[field - 1]}`);
  }
  const standards = interchange.isa[10] ?? "";
  if (interchange.delimiters.repetition === undefined && standards !== "U")
    error(TA1_NOTE.standardsIdentifierInvalid, `ISA11 '${standards}'`);
  const seen = new Set<string>();
  for (const group of interchange.groups) {
    if (seen.has(group.controlNumber)) {
      group.problems.push({
        severity: "warning",
        list: "AK905",
        code: GROUP_ERROR.controlNumberNotUnique,
        message: `GS06 ${group.controlNumber} appears twice in the interchange`,
      });
    }
    seen.add(group.controlNumber);
  }
  const trailer = interchange.trailer;
  if (!trailer) return;
  const [count, controlNumber] = trailer.elements;
  // A TA1-only interchange: senders count its TA1 segments in IEA01 as often as they write 0.
  const groupCountAccepted =
    isCount(count, interchange.groups.length) || (interchange.groups.length === 0 && isCount(count, interchange.ta1.length));
  if (!groupCountAccepted) error(TA1_NOTE.groupCountInvalid, `IEA01=${count ?? ""} but ${interchange.groups.length} groups`);
  if (controlNumber !== interchange.controlNumber) {
    error(TA1_NOTE.controlNumberMismatch, `IEA02 ${controlNumber ?? ""} != ISA13 ${interchange.controlNumber}`);
  }
}

/** The key under which an interchange received twice is acknowledged once and applied once. */
export function duplicateKey(interchange: Interchange): string {
  return [interchange.senderQualifier, interchange.senderId, interchange.controlNumber, interchange.date].join("|");
}

/** Every problem of the interchange, its groups and their sets. */
export function allProblems(interchange: Interchange): Problem[] {
  return [
    ...interchange.problems,
    ...interchange.groups.flatMap((group) => [...group.problems, ...group.sets.flatMap((set) => set.problems)]),
  ];
}
