import { bomLength, completeLines, type FileCursor, utf8Text, type WindowRead, type WindowRow } from "./window";

/**
 * NDJSON (one JSON object per line, LF or CRLF; a UTF-8 byte order mark and blank lines are ignored): the rows of one
 * window. A line that is not JSON is a rejected row; the file fails only when it is not UTF-8 or a line exceeds a window.
 */
export function readNdjsonWindow(bytes: Uint8Array, eof: boolean, cursor: FileCursor): WindowRead {
  const skip = bomLength(bytes, cursor);
  const complete = completeLines(bytes, eof, cursor);
  const text = utf8Text(complete.subarray(skip), cursor.line);
  const lines = text.split("\n");
  if (!eof || text.endsWith("\n")) lines.pop(); // what follows the last newline belongs to the next window
  const rows: WindowRow[] = [];
  lines.forEach((raw, i) => {
    const line = cursor.line + i + 1;
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (content.trim() === "") return;
    try {
      rows.push({ line, value: JSON.parse(content), source: content });
    } catch (err) {
      rows.push({ line, problem: { field: null, code: "malformed_json", message: `Not JSON: ${(err as Error).message}` } });
    }
  });
  return { rows, next: { offset: cursor.offset + complete.length, line: cursor.line + lines.length }, done: eof };
}
