import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenFdaWindow } from "../../src/operator/imports/formats/openfda";
import { type FileCursor, FileFault, WINDOW_BYTES, type WindowRow } from "../../src/operator/imports/formats/window";

const shared = path.join(import.meta.dirname, "../../../shared/test-data/recalls/openfda");
const encoder = new TextEncoder();

/** Every row of a file read window after window, as the validation pass reads it (`size` bytes at most per window). */
function readAll(bytes: Uint8Array, size = WINDOW_BYTES): WindowRow[] {
  const rows: WindowRow[] = [];
  let cursor: FileCursor = { offset: 0, line: 0 };
  for (let windows = 0; windows < 10_000; windows++) {
    const slice = bytes.subarray(cursor.offset, cursor.offset + size);
    const read = readOpenFdaWindow(slice, cursor.offset + slice.length >= bytes.length, cursor);
    rows.push(...read.rows);
    if (read.done) return rows;
    cursor = read.next;
  }
  throw new Error("no end");
}

const record = (n: number) => ({
  recall_number: `Z-${String(n).padStart(4, "0")}-2026`,
  code_info: `Lot ${n}, "quoted" \\ back slash, ünïcødé ✓ ] } [ {`,
  nested: { list: [1, { deeper: "]" }] },
});

describe("openFDA JSON documents read in windows", () => {
  it("a bulk download's { meta, results } over many windows gives every record once, in order, numbered from 1", () => {
    const records = Array.from({ length: 900 }, (_, i) => record(i + 1));
    const document = encoder.encode(JSON.stringify({ meta: { disclaimer: "x", results: { total: 900 } }, results: records }, null, 1));
    for (const size of [4096, 10_000, 65_536]) {
      const rows = readAll(document, size);
      expect(rows.map((row) => row.line)).toEqual(records.map((_, i) => i + 1));
      expect(rows.map((row) => ("value" in row ? row.value : null))).toEqual(records);
    }
  });

  it("a bare array reads as the records; a document of one window is parsed whole, a single record too", () => {
    const records = [record(1), record(2)];
    expect(readAll(encoder.encode(JSON.stringify(records))).map((row) => ("value" in row ? row.value : null))).toEqual(records);
    expect(readAll(encoder.encode(JSON.stringify(records)), 200).length).toBe(2);
    expect(readAll(encoder.encode(JSON.stringify(record(7)))).map((row) => ("value" in row ? row.value : null))).toEqual([record(7)]);
    const answer = readFileSync(path.join(shared, "device-enforcement.api-answers.json"));
    const whole = readAll(answer);
    const windowed = readAll(answer, 2048);
    expect(windowed.map((row) => ("value" in row ? row.value : null))).toEqual(whole.map((row) => ("value" in row ? row.value : null)));
  });

  it("faults: not JSON, no results array, a file that ends inside its records, a record over a window", () => {
    const fault = (text: string, size?: number) => {
      try {
        readAll(encoder.encode(text), size);
        return null;
      } catch (err) {
        expect(err).toBeInstanceOf(FileFault);
        return (err as FileFault).code;
      }
    };
    expect(fault("not json")).toBe("not_json");
    expect(fault('{"meta": {}, "other": [1, 2, 3]}', 8)).toBe("not_openfda");
    expect(fault('"text"', 4)).toBe("not_openfda");
    const many = Array.from({ length: 20 }, (_, i) => JSON.stringify(record(i))).join(", ");
    expect(fault(`{"results": [${many}, {"recall_number": "Z-0002`, 512)).toBe("truncated");
    expect(fault(`{"results": [{"a": 1}, ${JSON.stringify({ long: "x".repeat(200) })}]}`, 64)).toBe("record_too_long");
    // A stray } or a second comma where a record begins: a fault, never a loop.
    expect(fault(`{"results": [{"a": 1}}, ${many}]}`, 512)).toBe("not_json");
    expect(fault(`[{"a": 1},, ${many}]`, 512)).toBe("not_json");
  });
});
