import type { RowProblem } from "../records";

/**
 * A file is read in windows of at most WINDOW_BYTES (one Workflow step each, docs/architecture.md "Catalog imports"):
 * a window ends at the last complete record in it, and the next starts there.
 */
export const WINDOW_BYTES = 1024 * 1024;

/**
 * Rows of a window decided between two moments that let other work in (src/platform/let-others-in.ts): a 1 MiB
 * catalog window is about 2,900 rows and 100 ms of JavaScript, which would otherwise hold every search on the same
 * thread for all of it.
 */
export const ROWS_PER_SLICE = 500;

/** Where the next window of a file starts: its byte offset and the number of lines before it. */
export interface FileCursor {
  offset: number;
  line: number;
  /** CSV and GUDID files: the header row's fields, read by the first window. */
  header?: string[];
}

/**
 * One row of a window: its first line number and either the parsed value, with the source text it was read from
 * (what the source hash covers), or why it was rejected.
 */
export type WindowRow = { line: number; value: unknown; source: string } | { line: number; problem: RowProblem };

export interface WindowRead {
  rows: WindowRow[];
  next: FileCursor;
  done: boolean;
}

/** A fault of the whole file (empty, not UTF-8, not the declared format, a record over a window): the job fails. */
export class FileFault extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const NEWLINE = 0x0a;

/** The bytes of a window up to and including its last newline (all of them at the end of the file). */
export function completeLines(bytes: Uint8Array, eof: boolean, cursor: FileCursor): Uint8Array {
  if (eof) return bytes;
  const last = bytes.lastIndexOf(NEWLINE);
  if (last < 0) {
    throw new FileFault("record_too_long", `Line ${cursor.line + 1} is longer than ${WINDOW_BYTES} bytes.`);
  }
  return bytes.subarray(0, last + 1);
}

/** UTF-8 text of `bytes`; a file that is not UTF-8 fails, naming the first line that is not. */
export function utf8Text(bytes: Uint8Array, firstLine: number): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let line = firstLine + 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === NEWLINE) {
        try {
          UTF8.decode(bytes.subarray(start, i));
        } catch {
          break;
        }
        line++;
        start = i + 1;
      }
    }
    throw new FileFault("not_utf8", `The file is not UTF-8 text (line ${line}).`);
  }
}

const BOM = [0xef, 0xbb, 0xbf];

/** The length of a UTF-8 byte order mark at the start of the file (0 or 3). */
export const bomLength = (bytes: Uint8Array, cursor: FileCursor): number =>
  cursor.offset === 0 && BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
