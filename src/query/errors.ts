import { invalidSearchQuery } from "../platform/errors";

/** A problem with the query text itself, located at a 0-based index (reported 1-based). */
export function syntaxError(message: string, index: number, input: string) {
  const where = index >= input.length ? `at the end of the query (position ${index + 1})` : `at position ${index + 1}`;
  return invalidSearchQuery(`${message} ${where}.`);
}

export { invalidSearchQuery as queryError };
