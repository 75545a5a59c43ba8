import type { Delimiters } from "./isa";
import type { Problem } from "./problems";

/** What the reader (./reader.ts) makes of a file: interchanges → groups → transaction sets → segments. */

export interface Segment {
  id: string;
  /** Data elements after the id: `elements[0]` is XX01. Components and repetitions stay joined (see ./elements.ts). */
  elements: string[];
}

export interface TransactionSet {
  id: string;
  controlNumber: string;
  /** ST03 (005010 and up), when given. */
  implementationReference: string | undefined;
  /** ST to SE, both included: a segment's position in the set (AK302/IK302) is its index + 1. */
  segments: Segment[];
  trailer: Segment | undefined;
  problems: Problem[];
}

export interface FunctionalGroup {
  header: Segment;
  functionalId: string;
  controlNumber: string;
  version: string;
  sets: TransactionSet[];
  trailer: Segment | undefined;
  problems: Problem[];
}

export interface Interchange {
  /** ISA01..ISA16 as read, trimmed. */
  isa: string[];
  /** ISA fields longer than their fixed width (refused with their TA105 code). */
  isaOverlongFields: number[];
  /** Whether the ISA had its fixed width of 106 characters (unpadded fields are accepted, not a problem). */
  isaFixedWidth: boolean;
  delimiters: Delimiters;
  senderQualifier: string;
  senderId: string;
  receiverQualifier: string;
  receiverId: string;
  /** ISA09 (YYMMDD) and ISA10 (HHMM). */
  date: string;
  time: string;
  version: string;
  controlNumber: string;
  acknowledgmentRequested: boolean;
  usage: string;
  /** ISB/ISE between ISA and the first GS. */
  serviceSegments: Segment[];
  /** TA1 segments carried by this interchange (acknowledgments of ours). */
  ta1: Segment[];
  groups: FunctionalGroup[];
  trailer: Segment | undefined;
  problems: Problem[];
}

export interface X12Document {
  interchanges: Interchange[];
}
