import type { CodeList } from "./codes";

/**
 * What the reader found wrong, in the code list of the acknowledgment that carries it: TA105 for the interchange,
 * AK905 for a group, AK502/IK502 for a transaction set, AK304/AK403 for a segment or element. `reader` problems are
 * deviations a tolerant reader accepts (always warnings).
 */
export interface Problem {
  severity: "error" | "warning";
  list: CodeList;
  code: string;
  message: string;
  /** Position of the segment in its transaction set (ST = 1), for AK3/IK3. */
  segmentPosition?: number;
  segmentId?: string;
  /** Position of the element in its segment (1-based), for AK4/IK4. */
  elementPosition?: number;
  /** The element's data element reference number (AK402/IK402), when known. */
  elementReference?: string;
}

export type RefusalReason = "size" | "not-x12" | "delimiters" | "structure" | "bounds";

/** What a TA1 needs of an interchange: ISA13, ISA09, ISA10. */
export interface IsaIdentity {
  controlNumber: string;
  date: string;
  time: string;
}

/** Input the reader will not read at all: too large, not X12, or an ISA it cannot make sense of. */
export class X12Refused extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly detail: string,
    /** The TA105 note code to send back, when there is an ISA to acknowledge. */
    readonly ta1Note?: string,
    /** The refused ISA's identity, when it could be read: a TA1 can then answer it. */
    readonly isa?: IsaIdentity,
  ) {
    super(`X12 refused (${reason}): ${detail}`);
    this.name = "X12Refused";
  }

  withIsa(isa: IsaIdentity | undefined): X12Refused {
    return new X12Refused(this.reason, this.detail, this.ta1Note, isa);
  }
}

export const isError = (problem: Problem) => problem.severity === "error";
