import type { FileCursor } from "./formats/window";
import type { JobRow } from "./jobs";
import type { Rejection } from "./records";

/**
 * What every kind of import job's validation shares (src/operator/imports/catalog-staging.ts, src/operator/offers/price-files.ts): where a
 * file's validation stands, what a window step answers, and the batch that commits a window with its rejected rows
 * and the job's progress.
 */

/** Where validation stands in a file: the window cursor, the file's rows so far and the bytes of the files before it. */
export interface ValidationCursor extends FileCursor {
  rows: number;
  bytesBefore: number;
}

export interface ImportFile {
  name: string;
  objectKey: string;
  size: number;
}

export type ValidationStep =
  | { outcome: "next"; cursor: ValidationCursor; done: boolean }
  | { outcome: "cancelled" }
  | { outcome: "fault"; code: string; message: string }
  | { outcome: "too_many_errors" };

/** How a kind of job reads a CSV file: its header's check, and a row's record input (validated like an NDJSON line). */
export interface CsvShape {
  checkHeader(header: string[]): void;
  input(header: string[], fields: string[]): unknown;
}

const json = (value: unknown) => JSON.stringify(value);

/** What a window read: where the next one starts, whether the file ended, the rows so far, the rows rejected. */
export interface WindowResult {
  next: FileCursor;
  done: boolean;
  rowsRead: number;
  rejections: Rejection[];
}

/**
 * Commits a window in one batch: its staged rows (`writes`), its rejected rows and the job's progress. More rejected
 * rows than the job allows end validation.
 */
export async function commitWindow(
  catalog: D1Database,
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
  { next, done, rowsRead, rejections }: WindowResult,
  writes: D1PreparedStatement[],
): Promise<ValidationStep> {
  const results = await catalog.batch([
    ...writes,
    ...errorWrites(catalog, job.id, file.name, rejections),
    catalog
      .prepare(
        "UPDATE catalog_imports SET bytes_done = max(bytes_done, ?2), rows_read = max(rows_read, ?3), progressed_at = ?4, " +
          "rejected = (SELECT count(*) FROM catalog_import_errors WHERE job_id = ?1) WHERE id = ?1 RETURNING rejected",
      )
      .bind(job.id, cursor.bytesBefore + next.offset, rowsRead, new Date().toISOString()),
  ]);
  const rejected = (results.at(-1)!.results[0] as { rejected: number }).rejected;
  if (rejected > job.max_errors) return { outcome: "too_many_errors" };
  return { outcome: "next", cursor: { ...next, rows: rowsRead, bytesBefore: cursor.bytesBefore }, done };
}

/** The rejected rows of a window, each kept once (a step that runs again writes the same rows). */
export function errorWrites(catalog: D1Database, jobId: string, file: string, rejections: Rejection[]): D1PreparedStatement[] {
  if (rejections.length === 0) return [];
  const rows = rejections.map(({ line, key, problem }) => [line, key, problem.field, problem.code, problem.message.slice(0, 500)]);
  return [
    catalog
      .prepare(
        "INSERT INTO catalog_import_errors (job_id, file, line, product_key, field, code, message) " +
          "SELECT ?1, ?2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), " +
          "json_extract(value, '$[4]') FROM json_each(?3) WHERE true ON CONFLICT DO NOTHING",
      )
      .bind(jobId, file, json(rows)),
  ];
}
