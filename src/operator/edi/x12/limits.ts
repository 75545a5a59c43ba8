/**
 * Bounds of the X12 reader. Beyond any of them the input is refused (X12Refused) before or as soon as the bound is
 * crossed, so a hostile file costs at most one linear pass over at most `maxInputChars` characters.
 * The largest files we expect (a 10,000-line 832 price catalog) are about 60,000 segments and 3 MB.
 */
export const X12_LIMITS = {
  /** Characters of the decoded input (UTF-16 code units, so at most twice as many bytes of UTF-8). */
  maxInputChars: 16 * 1024 * 1024,
  /** Segments in the whole input, envelopes included. */
  maxSegments: 500_000,
  /** Data elements of one segment (X12 segments define at most a few dozen). */
  maxElementsPerSegment: 256,
  /** Characters of one data element (X12 maximum lengths stay far below; binary segments are not supported). */
  maxElementChars: 4096,
  maxInterchanges: 1_000,
  maxGroupsPerInterchange: 1_000,
  maxSetsPerGroup: 100_000,
  /** Problems kept per input: warnings beyond it are dropped, an error beyond it refuses the input. */
  maxProblems: 1_000,
} as const;
