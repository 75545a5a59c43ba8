import type { Segment } from "../x12/document";

/**
 * The segments of the loop a segment opens (an 855's PO1, an 832's LIN): those after it up to the next segment of one of
 * `ends` (the next loop's first, CTT, SE). A walk over indexes, not a copy of the rest of the set per loop, which made a
 * 10,000-line 832 quadratic (313 ms against 46 ms; docs/benchmarks.md, "X12 EDI").
 */
export function loopAfter(body: readonly Segment[], index: number, ends: readonly string[]): Segment[] {
  const loop: Segment[] = [];
  for (let next = index + 1; next < body.length; next++) {
    const segment = body[next]!;
    if (ends.includes(segment.id)) break;
    loop.push(segment);
  }
  return loop;
}
