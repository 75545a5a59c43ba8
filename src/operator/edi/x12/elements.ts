import type { Segment } from "./document";
import type { Delimiters } from "./isa";

/** Components and repetitions of an element, split on demand with the interchange's own separators. */

export function components(element: string, delimiters: Pick<Delimiters, "component">): string[] {
  return delimiters.component === undefined ? [element] : element.split(delimiters.component);
}

export function repetitions(element: string, delimiters: Pick<Delimiters, "repetition">): string[] {
  return delimiters.repetition === undefined ? [element] : element.split(delimiters.repetition);
}

/** XXnn of a segment, 1-based as X12 numbers them (`element(po1, 2)` is PO102); "" when absent. */
export const element = (segment: Segment, position: number): string => segment.elements[position - 1] ?? "";
