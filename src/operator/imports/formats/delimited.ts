import { CsvError, parse } from "csv-parse/sync";
import { bomLength, completeLines, type FileCursor, FileFault, utf8Text } from "./window";

/** Options of a delimited file: CSV (RFC 4180) or the pipe-delimited AccessGUDID release. */
export interface Dialect {
  delimiter: string;
  /** RFC 4180 quoting; the AccessGUDID release has none, and its text carries bare quotes (`5" tip`, `"Soft" tip`). */
  quoted: boolean;
}

export const CSV: Dialect = { delimiter: ",", quoted: true };
export const PIPES: Dialect = { delimiter: "|", quoted: false };

export interface DelimitedWindow {
  header: string[];
  rows: { line: number; fields: string[] }[];
  next: FileCursor;
  done: boolean;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The records of one window of a delimited file (csv-parse: quoted fields, embedded delimiters, newlines and quotes,
 * CRLF). The window is cut after its last newline; a quoted field still open there continues in the next window, so
 * the window ends after the last record csv-parse completed. The first record of the file is the header.
 */
export function readDelimitedWindow(bytes: Uint8Array, eof: boolean, cursor: FileCursor, dialect: Dialect): DelimitedWindow {
  const skip = bomLength(bytes, cursor);
  const complete = completeLines(bytes, eof, cursor).subarray(skip);
  utf8Text(complete, cursor.line); // fails the file when it is not UTF-8, naming the line
  const records: { fields: string[]; end: number }[] = [];
  let consumed = complete.length;
  try {
    parse(complete, {
      delimiter: dialect.delimiter,
      quote: dialect.quoted ? '"' : false,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (fields: string[], context: { bytes: number }) => {
        records.push({ fields, end: context.bytes });
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    // A quoted field open at the cut continues in the next window; at the end of the file it is a broken file.
    const open = err.code === "CSV_QUOTE_NOT_CLOSED";
    if (eof || !open || records.length === 0) {
      const kind = dialect.delimiter === "," ? "CSV" : "pipe-delimited text";
      const after = new LineCounter(complete, cursor.line).at(records.at(-1)?.end ?? 0);
      throw new FileFault("malformed_file", `Not ${kind} after line ${after}: ${err.message}`);
    }
    consumed = records.at(-1)!.end;
  }
  let header = cursor.header;
  const lines = new LineCounter(complete, cursor.line);
  const rows: DelimitedWindow["rows"] = [];
  let start = 0;
  for (const record of records) {
    const line = lines.at(firstContent(complete, start)) + 1;
    if (!header) header = record.fields.map((name) => name.trim());
    else rows.push({ line, fields: record.fields });
    start = record.end;
  }
  if (!header) throw new FileFault("empty_file", "The file has no header row.");
  return { header, rows, next: { offset: cursor.offset + skip + consumed, line: lines.at(consumed), header }, done: eof };
}

/** Line numbers of offsets in ascending order, counting newlines once. */
class LineCounter {
  private counted = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private lines: number,
  ) {}

  /** The number of lines before `offset` (offsets asked in ascending order). */
  at(offset: number): number {
    for (; this.counted < offset; this.counted++) if (this.bytes[this.counted] === NEWLINE) this.lines++;
    return this.lines;
  }
}

/** The offset of the first byte at or after `offset` that is not a line break (csv-parse skips empty lines). */
function firstContent(bytes: Uint8Array, offset: number): number {
  let at = offset;
  while (at < bytes.length && (bytes[at] === NEWLINE || bytes[at] === CARRIAGE_RETURN)) at++;
  return at;
}
