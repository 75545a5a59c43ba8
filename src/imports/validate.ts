import { checkCsvHeader, csvColumnOf, csvRecordInput } from "./formats/csv";
import { CSV, readDelimitedWindow } from "./formats/delimited";
import { readNdjsonWindow } from "./formats/ndjson";
import { type FileCursor, FileFault, WINDOW_BYTES, type WindowRow } from "./formats/window";
import { gudidCompanionWindow, gudidDeviceWindow } from "./gudid-windows";
import type { JobRow } from "./jobs";
import { type CatalogMatches, deviceKey, productIdOf } from "./keys";
import { contentHash, type ImportRecord, type Rejection, type RowProblem, RowRejected, recordOf } from "./records";

/**
 * The validation pass (docs/architecture.md, "Catalog imports"): one window of a file per Workflow step. It reads the
 * rows, validates them, resolves which product each one writes and decides against the catalog whether it creates,
 * updates or leaves it unchanged, and stages the result (catalog_import_rows); the catalog itself is not written. A
 * step that runs again (a crash after its batch committed) finds its own staged rows and stages the same again: the
 * staging writes ignore what is already there, and the progress columns take the larger value.
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

interface StagedRow {
  line: number;
  record: ImportRecord;
}

export interface ValidationEnv {
  CATALOG: D1Database;
  IMPORTS: R2Bucket;
}

export async function validateWindow(env: ValidationEnv, job: JobRow, file: ImportFile, cursor: ValidationCursor): Promise<ValidationStep> {
  const object = await env.IMPORTS.get(file.objectKey, { range: { offset: cursor.offset, length: WINDOW_BYTES } });
  if (!object) return { outcome: "fault", code: "file_missing", message: `The uploaded file ${file.name} is gone.` };
  const bytes = new Uint8Array(await object.arrayBuffer());
  const eof = cursor.offset + bytes.length >= file.size;
  try {
    if (file.size === 0 || (cursor.offset === 0 && eof && isBlank(bytes))) throw new FileFault("empty_file", `${file.name} is empty.`);
    if (job.format === "gudid" && file.name !== "device.txt") {
      const window = await gudidCompanionWindow(env.CATALOG, job.id, file.name, bytes, eof, cursor);
      return await commitCompanion(env.CATALOG, job, file, cursor, window);
    }
    const window =
      job.format === "ndjson"
        ? readNdjsonWindow(bytes, eof, cursor)
        : job.format === "csv"
          ? csvWindow(bytes, eof, cursor)
          : await gudidDeviceWindow(env.CATALOG, job.id, bytes, eof, cursor);
    if (
      job.format === "ndjson" &&
      cursor.offset === 0 &&
      window.rows.length > 0 &&
      window.rows.every((row: WindowRow) => "problem" in row)
    ) {
      throw new FileFault("not_ndjson", `${file.name} is not NDJSON: no line of its first ${WINDOW_BYTES} bytes is a JSON object.`);
    }
    return await stageWindow(env.CATALOG, job, file, cursor, window.rows, window.next, window.done);
  } catch (err) {
    if (err instanceof FileFault) return { outcome: "fault", code: err.code, message: err.message };
    throw err;
  }
}

const isBlank = (bytes: Uint8Array) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);

function csvWindow(bytes: Uint8Array, eof: boolean, cursor: FileCursor) {
  const window = readDelimitedWindow(bytes, eof, cursor, CSV);
  if (!cursor.header) checkCsvHeader(window.header);
  const rows: WindowRow[] = window.rows.map(({ line, fields }) => {
    try {
      return { line, value: csvRecordInput(window.header, fields) };
    } catch (err) {
      if (err instanceof RowRejected) return { line, problem: err.problem };
      throw err;
    }
  });
  return { rows, next: window.next, done: window.done };
}

const json = (value: unknown) => JSON.stringify(value);

/** Validates and stages the rows of one window, with its progress, in one batch after at most two reads. */
async function stageWindow(
  catalog: D1Database,
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
  rows: WindowRow[],
  next: FileCursor,
  done: boolean,
): Promise<ValidationStep> {
  const rejections: Rejection[] = [];
  const valid: StagedRow[] = [];
  const csvField = job.format === "csv" ? csvColumnOf : (field: string | null) => field;
  for (const row of rows) {
    if ("problem" in row) {
      rejections.push({ line: row.line, key: null, problem: row.problem });
      continue;
    }
    try {
      valid.push({ line: row.line, record: recordOf(row.value) });
    } catch (err) {
      if (!(err instanceof RowRejected)) throw err;
      const key = typeof row.value === "object" && row.value && "id" in row.value && typeof row.value.id === "string" ? row.value.id : null;
      rejections.push({ line: row.line, key, problem: { ...err.problem, field: csvField(err.problem.field) } });
    }
  }

  const deviceIds = valid.flatMap(({ record }) => record.deviceIdentifiers.map((di) => [di.agency, di.deviceId]));
  const idless = valid.filter(({ record }) => !record.id);
  const categories = [...new Set(valid.flatMap(({ record }) => record.categories))];
  const explicitIds = valid.flatMap(({ record }) => (record.id ? [record.id] : []));
  const reads = [
    catalog.prepare("SELECT cancel_requested FROM catalog_imports WHERE id = ?").bind(job.id),
    catalog
      .prepare(
        "SELECT d.agency, d.device_id, d.product_id FROM json_each(?) j JOIN device_identifiers d " +
          "ON d.agency = json_extract(j.value, '$[0]') AND d.device_id = json_extract(j.value, '$[1]')",
      )
      .bind(json(deviceIds)),
    catalog
      .prepare(
        "SELECT s.agency, s.device_id, s.line FROM json_each(?2) j JOIN catalog_import_device_ids s " +
          "ON s.job_id = ?1 AND s.agency = json_extract(j.value, '$[0]') AND s.device_id = json_extract(j.value, '$[1]')",
      )
      .bind(job.id, json(deviceIds)),
    catalog
      .prepare(
        "SELECT p.id, p.normalized_part_number AS part, m.name AS manufacturer FROM json_each(?) j " +
          "JOIN products p ON p.normalized_part_number = j.value JOIN manufacturers m ON m.id = p.manufacturer_id",
      )
      .bind(json([...new Set(idless.map(({ record }) => record.normalizedPartNumber))])),
    catalog
      .prepare("SELECT category FROM catalog_category_counts WHERE lower(category) IN (SELECT lower(value) FROM json_each(?))")
      .bind(json(categories)),
    ...productReads(catalog, job.id, explicitIds),
  ];
  const [jobRead, catalogDevices, stagedDevices, partNumbers, knownCategories, ...productResults] = await catalog.batch(reads);
  if ((jobRead!.results[0] as { cancel_requested: number } | undefined)?.cancel_requested) return { outcome: "cancelled" };

  const matches: CatalogMatches = { byDeviceId: new Map(), byPartNumber: new Map() };
  for (const row of catalogDevices!.results as { agency: string; device_id: string; product_id: string }[]) {
    matches.byDeviceId.set(deviceKey(row.agency, row.device_id), row.product_id);
  }
  for (const row of partNumbers!.results as { id: string; part: string; manufacturer: string }[]) {
    matches.byPartNumber.set(row.part, [...(matches.byPartNumber.get(row.part) ?? []), row]);
  }
  const stagedDeviceLines = new Map(
    (stagedDevices!.results as { agency: string; device_id: string; line: number }[]).map((row) => [
      deviceKey(row.agency, row.device_id),
      row.line,
    ]),
  );
  const canonicalCategory = new Map(
    (knownCategories!.results as { category: string }[]).map((row) => [row.category.toLowerCase(), row.category]),
  );

  const productIds = valid.map(({ record }) => productIdOf(record, matches));
  let known = productStates(productResults);
  const resolvedIds = [...new Set(productIds.filter((_id, i) => !valid[i]!.record.id))];
  if (resolvedIds.length > 0) {
    const more = productStates(await catalog.batch(productReads(catalog, job.id, resolvedIds)));
    known = { existing: new Map([...known.existing, ...more.existing]), stagedLines: new Map([...known.stagedLines, ...more.stagedLines]) };
  }

  const staged: unknown[] = [];
  const stagedDeviceRows: unknown[] = [];
  const keyLines = new Map<string, number>();
  const deviceLines = new Map<string, number>();
  for (const [i, { line, record }] of valid.entries()) {
    const productId = productIds[i]!;
    const reject = (problem: RowProblem) => rejections.push({ line, key: productId, problem });
    const firstLine = keyLines.get(productId) ?? known.stagedLines.get(productId);
    if (firstLine !== undefined && firstLine !== line) {
      reject({
        field: record.id ? "id" : null,
        code: "duplicate_key",
        message: `Product ${productId} is also on line ${firstLine}; the first line with a key wins.`,
      });
      continue;
    }
    const conflict = record.deviceIdentifiers.findIndex((di) => {
      const key = deviceKey(di.agency, di.deviceId);
      const owner = matches.byDeviceId.get(key);
      const other = deviceLines.get(key) ?? stagedDeviceLines.get(key);
      return (owner !== undefined && owner !== productId) || (other !== undefined && other !== line);
    });
    if (conflict >= 0) {
      const di = record.deviceIdentifiers[conflict]!;
      const key = deviceKey(di.agency, di.deviceId);
      const owner = matches.byDeviceId.get(key);
      reject({
        field: csvField(`deviceIdentifiers.${conflict}.deviceId`),
        code: owner !== undefined && owner !== productId ? "device_identifier_taken" : "duplicate_device_identifier",
        message:
          owner !== undefined && owner !== productId
            ? `${di.agency} ${di.deviceId} belongs to product ${owner}.`
            : `${di.agency} ${di.deviceId} is also on line ${deviceLines.get(key) ?? stagedDeviceLines.get(key)}.`,
      });
      continue;
    }
    keyLines.set(productId, line);
    for (const di of record.deviceIdentifiers) {
      deviceLines.set(deviceKey(di.agency, di.deviceId), line);
      stagedDeviceRows.push([di.agency, di.deviceId, line]);
    }
    const canonical: ImportRecord = {
      ...record,
      id: productId,
      categories: record.categories.map((name) => canonicalCategory.get(name.toLowerCase()) ?? name),
    };
    const hash = await contentHash(canonical);
    const existing = known.existing.get(productId);
    const action = existing === undefined ? "create" : existing === hash ? "unchanged" : "update";
    staged.push([line, productId, action, hash, action === "unchanged" ? null : json(canonical)]);
  }

  const rowsRead = cursor.rows + rows.length;
  const writes = [
    catalog
      .prepare(
        "INSERT INTO catalog_import_rows (job_id, seq, product_id, line, action, content_hash, record) " +
          "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[0]'), json_extract(value, '$[2]'), " +
          "json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
      )
      .bind(job.id, json(staged)),
    catalog
      .prepare(
        "INSERT INTO catalog_import_device_ids (job_id, agency, device_id, line) " +
          "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?2) WHERE true " +
          "ON CONFLICT DO NOTHING",
      )
      .bind(job.id, json(stagedDeviceRows)),
    ...errorWrites(catalog, job.id, file.name, rejections),
    catalog
      .prepare(
        "UPDATE catalog_imports SET bytes_done = max(bytes_done, ?2), rows_read = max(rows_read, ?3), " +
          "rejected = (SELECT count(*) FROM catalog_import_errors WHERE job_id = ?1) WHERE id = ?1 RETURNING rejected",
      )
      .bind(job.id, cursor.bytesBefore + next.offset, rowsRead),
  ];
  const results = await catalog.batch(writes);
  const rejected = (results.at(-1)!.results[0] as { rejected: number }).rejected;
  if (rejected > job.max_errors) return { outcome: "too_many_errors" };
  return { outcome: "next", cursor: { ...next, rows: rowsRead, bytesBefore: cursor.bytesBefore }, done };
}

/** Reads of the catalog's content hash and of the staged line of each product id (two statements). */
function productReads(catalog: D1Database, jobId: string, ids: string[]): D1PreparedStatement[] {
  return [
    catalog.prepare("SELECT p.id, p.content_hash AS hash FROM json_each(?) j JOIN products p ON p.id = j.value").bind(json(ids)),
    catalog
      .prepare(
        "SELECT r.product_id AS id, r.line FROM json_each(?2) j JOIN catalog_import_rows r ON r.job_id = ?1 AND r.product_id = j.value",
      )
      .bind(jobId, json(ids)),
  ];
}

function productStates(results: D1Result[]) {
  const [products, staged] = results;
  return {
    /** Existing products by id: their content hash ("" when written otherwise, so it never equals a record's). */
    existing: new Map((products!.results as { id: string; hash: string | null }[]).map((row) => [row.id, row.hash ?? ""])),
    stagedLines: new Map((staged!.results as { id: string; line: number }[]).map((row) => [row.id, row.line])),
  };
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
        "UPDATE catalog_imports SET bytes_done = max(bytes_done, ?2), rejected = (SELECT count(*) FROM catalog_import_errors WHERE job_id = ?1) " +
          "WHERE id = ?1 RETURNING rejected, cancel_requested",
      )
      .bind(job.id, cursor.bytesBefore + window.next.offset),
  ]);
  const row = results.at(-1)!.results[0] as { rejected: number; cancel_requested: number };
  if (row.cancel_requested) return { outcome: "cancelled" };
  if (row.rejected > job.max_errors) return { outcome: "too_many_errors" };
  return { outcome: "next", cursor: { ...window.next, rows: cursor.rows, bytesBefore: cursor.bytesBefore }, done: window.done };
}
