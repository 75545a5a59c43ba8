import { bomLength, type FileCursor, FileFault, utf8Text, WINDOW_BYTES, type WindowRead, type WindowRow } from "./window";

/**
 * An openFDA JSON document (format `openfda`): the API's answer or a bulk download, `{ "meta": ..., "results": [records] }`,
 * or a bare array of records, read a window at a time. The first window finds where the records begin (after the `[`
 * of `results`, or of the top-level array); each window then takes the whole records in it, and the next starts after
 * the last one. A small document (one window) is parsed whole, so that a single record (`{ "result": ... }`,
 * `{ "record": ... }` or the record itself) reads too. A row's `line` is the record's position in the array, from 1.
 *
 * The scanner walks bytes, not text: JSON's structural characters are ASCII, and no byte of a multi-byte UTF-8
 * character is below 0x80, so a `"`, `{` or `]` byte is always that character.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The index after the string starting at `i` (its opening quote), or -1 when the bytes end inside it. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    if (bytes[j] === BACKSLASH) j++;
    else if (bytes[j] === QUOTE) return j + 1;
  }
  return -1;
}

/** The index after the JSON value starting at `i`, or -1 when the bytes end inside it. */
function valueEnd(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return stringEnd(bytes, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let j = i;
    while (j < bytes.length && bytes[j] !== COMMA && bytes[j] !== CLOSE_BRACKET && bytes[j] !== CLOSE_BRACE && !isSpace(bytes[j])) j++;
    return j < bytes.length ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < bytes.length; j++) {
    const b = bytes[j];
    if (b === QUOTE) {
      j = stringEnd(bytes, j) - 1;
      if (j < 0) return -1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

const skipSpace = (bytes: Uint8Array, i: number) => {
  while (isSpace(bytes[i])) i++;
  return i;
};

const NOT_OPENFDA = (detail: string) => new FileFault("not_openfda", `The file is not an openFDA JSON document: ${detail}.`);

/** Where the records begin in a document's first window: after the `[` of `results` or of a top-level array. */
function recordsStart(bytes: Uint8Array, from: number): number {
  let i = skipSpace(bytes, from);
  if (bytes[i] === OPEN_BRACKET) return i + 1;
  if (bytes[i] !== OPEN_BRACE) throw NOT_OPENFDA("it starts with neither { nor [");
  i++;
  for (;;) {
    i = skipSpace(bytes, i);
    if (bytes[i] !== QUOTE) throw NOT_OPENFDA(`no "results" array in its first ${WINDOW_BYTES} bytes`);
    const keyEnd = stringEnd(bytes, i);
    if (keyEnd < 0) throw NOT_OPENFDA(`no "results" array in its first ${WINDOW_BYTES} bytes`);
    const key = new TextDecoder().decode(bytes.subarray(i + 1, keyEnd - 1));
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) throw NOT_OPENFDA(`a ":" is missing after "${key}"`);
    i = skipSpace(bytes, i + 1);
    if (key === "results") {
      if (bytes[i] !== OPEN_BRACKET) throw NOT_OPENFDA('"results" is not an array');
      return i + 1;
    }
    const end = valueEnd(bytes, i);
    if (end < 0) throw NOT_OPENFDA(`no "results" array in its first ${WINDOW_BYTES} bytes`);
    i = skipSpace(bytes, end);
    if (bytes[i] === COMMA) i++;
  }
}

const recordRow = (line: number, text: string): WindowRow => {
  try {
    return { line, value: JSON.parse(text), source: text };
  } catch (err) {
    return { line, problem: { field: null, code: "malformed_json", message: `Not JSON: ${(err as Error).message}` } };
  }
};

/** A document that fits one window, parsed whole: the records of `results`, of an array, or the one record it is. */
function wholeDocument(text: string): WindowRow[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (err) {
    throw new FileFault("not_json", `The file is not JSON: ${(err as Error).message}`);
  }
  const records = Array.isArray(document)
    ? document
    : document && typeof document === "object"
      ? (() => {
          const d = document as Record<string, unknown>;
          if ("results" in d) {
            if (!Array.isArray(d.results)) throw NOT_OPENFDA('"results" is not an array');
            return d.results;
          }
          for (const one of [d.result, d.record]) if (one && typeof one === "object" && !Array.isArray(one)) return [one];
          return [document];
        })()
      : null;
  if (records === null) throw NOT_OPENFDA("it is neither an object nor an array");
  return records.map((record, i) => ({ line: i + 1, value: record, source: JSON.stringify(record) }));
}

export function readOpenFdaWindow(bytes: Uint8Array, eof: boolean, cursor: FileCursor): WindowRead {
  const first = cursor.offset === 0;
  if (first && eof) {
    const rows = wholeDocument(utf8Text(bytes.subarray(bomLength(bytes, cursor)), 0));
    return { rows, next: { offset: bytes.length, line: rows.length }, done: true };
  }
  let i = first ? recordsStart(bytes, bomLength(bytes, cursor)) : 0;
  let line = cursor.line;
  const rows: WindowRow[] = [];
  for (;;) {
    i = skipSpace(bytes, i);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
    if (bytes[i] === CLOSE_BRACKET) return { rows, next: { offset: cursor.offset + bytes.length, line }, done: true };
    const end = i < bytes.length ? valueEnd(bytes, i) : -1;
    // A `}` or `]` where a record begins (`[{"a":1}}, ...`): no value at all, and nothing to move past.
    if (end === i) throw new FileFault("not_json", `The file is not JSON: "${String.fromCharCode(bytes[i]!)}" after record ${line}.`);
    if (end < 0) {
      if (eof) throw new FileFault("truncated", `The file ends inside its records (after record ${line}).`);
      if (rows.length === 0 && !first) throw new FileFault("record_too_long", `Record ${line + 1} is longer than ${WINDOW_BYTES} bytes.`);
      return { rows, next: { offset: cursor.offset + i, line }, done: false };
    }
    line++;
    rows.push(recordRow(line, utf8Text(bytes.subarray(i, end), line - 1)));
    i = end;
  }
}
