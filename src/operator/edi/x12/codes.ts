/**
 * The standard code lists the envelope layer and the acknowledgments speak (ASC X12 data elements). Each problem the
 * reader finds names one code of one list, so a 997, 999 or TA1 can carry it as is.
 */

/** TA105, interchange note code (data element I18). */
export const TA1_NOTE = {
  noError: "000",
  controlNumberMismatch: "001",
  segmentTerminatorInvalid: "004",
  senderQualifierInvalid: "005",
  senderIdInvalid: "006",
  receiverQualifierInvalid: "007",
  receiverIdInvalid: "008",
  authorizationQualifierInvalid: "010",
  authorizationInvalid: "011",
  securityQualifierInvalid: "012",
  securityInvalid: "013",
  dateInvalid: "014",
  timeInvalid: "015",
  standardsIdentifierInvalid: "016",
  versionInvalid: "017",
  controlNumberInvalid: "018",
  acknowledgmentRequestedInvalid: "019",
  testIndicatorInvalid: "020",
  groupCountInvalid: "021",
  controlStructureInvalid: "022",
  prematureEndOfFile: "023",
  contentInvalid: "024",
  elementSeparatorInvalid: "026",
  componentSeparatorInvalid: "027",
} as const;

/** AK905, functional group syntax error code (data element 716), the same in a 997 and a 999. */
export const GROUP_ERROR = {
  notSupported: "1",
  versionNotSupported: "2",
  trailerMissing: "3",
  controlNumberMismatch: "4",
  setCountMismatch: "5",
  controlNumberInvalid: "6",
  controlNumberNotUnique: "19",
} as const;

/** AK502 / IK502, transaction set syntax error code (data element 718). */
export const SET_ERROR = {
  notSupported: "1",
  trailerMissing: "2",
  controlNumberMismatch: "3",
  segmentCountMismatch: "4",
  segmentsInError: "5",
  identifierInvalid: "6",
  controlNumberInvalid: "7",
  controlNumberNotUnique: "23",
} as const;

/** AK304 / IK304, segment syntax error code (data element 720). */
export const SEGMENT_ERROR = {
  unrecognizedSegment: "1",
  unexpectedSegment: "2",
  mandatorySegmentMissing: "3",
  loopOverMaximum: "4",
  segmentOverMaximumUse: "5",
  segmentNotInSet: "6",
  segmentOutOfSequence: "7",
  segmentHasElementErrors: "8",
} as const;

/** AK403 / IK403, element syntax error code (data element 723). */
export const ELEMENT_ERROR = {
  mandatoryMissing: "1",
  conditionalMissing: "2",
  tooManyElements: "3",
  tooShort: "4",
  tooLong: "5",
  invalidCharacter: "6",
  invalidCode: "7",
  invalidDate: "8",
  invalidTime: "9",
  exclusionViolated: "10",
  tooManyRepetitions: "12",
  tooManyComponents: "13",
} as const;

/** AK501 / IK501 and AK901: accepted, accepted with errors, partially accepted (groups only), rejected. */
export type AckStatus = "A" | "E" | "P" | "R";

export type CodeList = "TA105" | "AK905" | "AK502" | "AK304" | "AK403" | "reader";
