import { letOthersIn } from "../../platform/let-others-in";
import { CSV, readDelimitedWindow } from "./formats/delimited";
import { readNdjsonWindow } from "./formats/ndjson";
import { readOpenFdaWindow } from "./formats/openfda";
import { bomLength, type FileCursor, FileFault, WINDOW_BYTES, type WindowRow } from "./formats/window";
import { gudidCompanionWindow, gudidDeviceWindow } from "./gudid-windows";
import type { JobRow } from "./jobs";
import type { ImportKind, KindEnv } from "./kinds";
import { type Rejection, RowRejected } from "./records";
import { type CsvShape, errorWrites, type ImportFile, type ValidationCursor, type ValidationStep } from "./staging";

/**
 * The validation pass (docs/architecture.md, "Catalog imports"): one window of a file per Workflow step. It reads the
 * window's rows in the job's format, fails the job on a fault of the whole file, and hands the rows to the job's kind
 * to validate and stage (src/operator/imports/catalog-staging.ts, src/operator/offers/price-files.ts). GUDID companion files are staged
 * here, by PrimaryDI, for device.txt to read.
 */

export type ValidationEnv = KindEnv & { IMPORTS: R2Bucket };

export async function validateWindow(
  env: ValidationEnv,
  kind: ImportKind,
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
): Promise<ValidationStep> {
  const object = await env.IMPORTS.get(file.objectKey, { range: { offset: cursor.offset, length: WINDOW_BYTES } });
  if (!object) return { outcome: "fault", code: "file_missing", message: `The uploaded file ${file.name} is gone.` };
  const bytes = new Uint8Array(await object.arrayBuffer());
  const eof = cursor.offset + bytes.length >= file.size;
  try {
    if (file.size === 0 || (cursor.offset === 0 && eof && isBlank(bytes.subarray(bomLength(bytes, cursor))))) throw emptyFile(file);
    if (job.format === "gudid" && file.name !== "device.txt") {
      const window = await gudidCompanionWindow(env.CATALOG, job.id, file.name, bytes, eof, cursor);
      return await commitCompanion(env.CATALOG, job, file, cursor, window);
    }
    const window =
      job.format === "ndjson"
        ? readNdjsonWindow(bytes, eof, cursor)
        : job.format === "csv"
          ? csvWindow(bytes, eof, cursor, kind.csv)
          : job.format === "openfda"
            ? readOpenFdaWindow(bytes, eof, cursor)
            : await gudidDeviceWindow(env.CATALOG, job.id, bytes, eof, cursor);
    if (
      job.format === "ndjson" &&
      cursor.offset === 0 &&
      window.rows.length > 0 &&
      window.rows.every((row: WindowRow) => "problem" in row)
    ) {
      throw new FileFault("not_ndjson", `${file.name} is not NDJSON: no line of its first ${WINDOW_BYTES} bytes is a JSON object.`);
    }
    // Blank lines past the first window (or an empty records array): not one row in the whole file.
    if ((job.format === "ndjson" || job.format === "openfda") && window.done && cursor.rows + window.rows.length === 0)
      throw emptyFile(file);
    await letOthersIn(); // between the window's parse and its rows' decisions (formats/window.ts, ROWS_PER_SLICE)
    return await kind.stageWindow(env, job, file, cursor, window);
  } catch (err) {
    if (err instanceof FileFault) return { outcome: "fault", code: err.code, message: err.message };
    throw err;
  }
}

const isBlank = (bytes: Uint8Array) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
/** A file with nothing but a byte order mark and white space. */
const emptyFile = (file: ImportFile) => new FileFault("empty_file", `${file.name} is empty.`);

function csvWindow(bytes: Uint8Array, eof: boolean, cursor: FileCursor, shape: CsvShape) {
  const window = readDelimitedWindow(bytes, eof, cursor, CSV);
  if (!cursor.header) shape.checkHeader(window.header);
  const rows: WindowRow[] = window.rows.map(({ line, fields }) => {
    try {
      return { line, value: shape.input(window.header, fields), source: JSON.stringify([window.header, fields]) };
    } catch (err) {
      if (err instanceof RowRejected) return { line, problem: err.problem };
      throw err;
    }
  });
  return { rows, next: window.next, done: window.done };
}

/** Progress and rejections of a GUDID companion file's window (its rows are staged by gudidCompanionWindow). */
async function commitCompanion(
  catalog: D1Database,
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
  window: { writes: D1PreparedStatement[]; rejections: Rejection[]; next: FileCursor; done: boolean },
): Promise<ValidationStep> {
  const results = await catalog.batch([
    ...window.writes,
    ...errorWrites(catalog, job.id, file.name, window.rejections),
    catalog
      .prepare(
        "UPDATE catalog_imports SET bytes_done = max(bytes_done, ?2), progressed_at = ?3, " +
          "rejected = (SELECT count(*) FROM catalog_import_errors WHERE job_id = ?1) WHERE id = ?1 RETURNING rejected, cancel_requested",
      )
      .bind(job.id, cursor.bytesBefore + window.next.offset, new Date().toISOString()),
  ]);
  const row = results.at(-1)!.results[0] as { rejected: number; cancel_requested: number };
  if (row.cancel_requested) return { outcome: "cancelled" };
  if (row.rejected > job.max_errors) return { outcome: "too_many_errors" };
  return { outcome: "next", cursor: { ...window.next, rows: cursor.rows, bytesBefore: cursor.bytesBefore }, done: window.done };
}
