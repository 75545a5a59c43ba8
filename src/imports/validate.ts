import { checkCsvHeader, csvColumnOf, csvRecordInput } from "./formats/csv";
import { CSV, readDelimitedWindow } from "./formats/delimited";
import { readNdjsonWindow } from "./formats/ndjson";
import { bomLength, type FileCursor, FileFault, WINDOW_BYTES, type WindowRow } from "./formats/window";
import { gudidCompanionWindow, gudidDeviceWindow } from "./gudid-windows";
import type { JobRow } from "./jobs";
import { type CatalogMatches, deviceKey, productIdOf } from "./keys";
import { OFFER_CSV, stageOfferWindow } from "./price-files";
import { contentHash, type ImportRecord, type Rejection, RowRejected, recordOf, sourceHash } from "./records";
import { type CsvShape, commitWindow, errorWrites, type ImportFile, type ValidationCursor, type ValidationStep } from "./staging";

/**
 * The validation pass (docs/architecture.md, "Catalog imports"): one window of a file per Workflow step. It reads the
 * rows, validates them, resolves which product each one writes and decides against the catalog whether it creates,
 * updates or leaves it unchanged, and stages the result (catalog_import_rows); the catalog itself is not written. A
 * step that runs again (a crash after its batch committed) finds its own staged rows and stages the same again: the
 * staging writes ignore what is already there, and the progress columns take the larger value.
 */

interface StagedRow {
  line: number;
  record: ImportRecord;
}

export interface ValidationEnv {
  CATALOG: D1Database;
  DB: D1Database;
  IMPORTS: R2Bucket;
}

export async function validateWindow(env: ValidationEnv, job: JobRow, file: ImportFile, cursor: ValidationCursor): Promise<ValidationStep> {
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
    const shape = job.kind === "offers" ? OFFER_CSV : CATALOG_CSV;
    const window =
      job.format === "ndjson"
        ? readNdjsonWindow(bytes, eof, cursor)
        : job.format === "csv"
          ? csvWindow(bytes, eof, cursor, shape)
          : await gudidDeviceWindow(env.CATALOG, job.id, bytes, eof, cursor);
    if (
      job.format === "ndjson" &&
      cursor.offset === 0 &&
      window.rows.length > 0 &&
      window.rows.every((row: WindowRow) => "problem" in row)
    ) {
      throw new FileFault("not_ndjson", `${file.name} is not NDJSON: no line of its first ${WINDOW_BYTES} bytes is a JSON object.`);
    }
    // Blank lines past the first window: not one row in the whole file.
    if (job.format === "ndjson" && window.done && cursor.rows + window.rows.length === 0) throw emptyFile(file);
    if (job.kind === "offers") return await stageOfferWindow(env, job, file, cursor, window);
    return await stageWindow(env.CATALOG, job, file, cursor, window.rows, window.next, window.done);
  } catch (err) {
    if (err instanceof FileFault) return { outcome: "fault", code: err.code, message: err.message };
    throw err;
  }
}

const isBlank = (bytes: Uint8Array) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
/** A file with nothing but a byte order mark and white space. */
const emptyFile = (file: ImportFile) => new FileFault("empty_file", `${file.name} is empty.`);

const CATALOG_CSV: CsvShape = { checkHeader: checkCsvHeader, input: csvRecordInput };

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

const json = (value: unknown) => JSON.stringify(value);

/**
 * Validates and stages the rows of one window, with its progress, in one batch after one or two reads. A row whose
 * source (its line, or its fields and the header) hashes to what the product was last written from is unchanged
 * without being validated again: re-importing a file costs a parse and a hash per row.
 */
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
  const csvField = job.format === "csv" ? csvColumnOf : (field: string | null) => field;
  const read = rows.flatMap((row) => ("problem" in row ? [] : [{ ...row, sourceHash: sourceHash(row.source), rawId: rawIdOf(row.value) }]));
  for (const row of rows) if ("problem" in row) rejections.push({ line: row.line, key: null, problem: row.problem });

  const rawIds = [...new Set(read.flatMap((row) => (row.rawId ? [row.rawId] : [])))];
  const [jobRead, ...rawProducts] = await catalog.batch([
    catalog.prepare("SELECT cancel_requested FROM catalog_imports WHERE id = ?").bind(job.id),
    ...productReads(catalog, job.id, rawIds),
  ]);
  if ((jobRead!.results[0] as { cancel_requested: number } | undefined)?.cancel_requested) return { outcome: "cancelled" };
  let known = productStates(rawProducts);

  const unchanged: { line: number; productId: string; hash: string; sourceHash: string }[] = [];
  const valid: (StagedRow & { sourceHash: string })[] = [];
  for (const row of read) {
    const existing = row.rawId ? known.existing.get(row.rawId) : undefined;
    if (row.rawId && existing?.sourceHash === row.sourceHash) {
      unchanged.push({ line: row.line, productId: row.rawId, hash: existing.hash, sourceHash: row.sourceHash });
      continue;
    }
    try {
      valid.push({ line: row.line, record: recordOf(row.value), sourceHash: row.sourceHash });
    } catch (err) {
      if (!(err instanceof RowRejected)) throw err;
      rejections.push({ line: row.line, key: row.rawId ?? null, problem: { ...err.problem, field: csvField(err.problem.field) } });
    }
  }

  const matches: CatalogMatches = { byDeviceId: new Map(), byPartNumber: new Map() };
  const stagedDeviceLines = new Map<string, number>();
  const canonicalCategory = new Map<string, string>();
  if (valid.length > 0) {
    const deviceIds = valid.flatMap(({ record }) => record.deviceIdentifiers.map((di) => [di.agency, di.deviceId]));
    const idless = valid.filter(({ record }) => !record.id);
    const categories = [...new Set(valid.flatMap(({ record }) => record.categories))];
    const [catalogDevices, stagedDevices, partNumbers, knownCategories] = await catalog.batch([
      catalog
        .prepare(
          "SELECT d.agency, d.device_id, d.product_id FROM json_each(?) j CROSS JOIN device_identifiers d " +
            "ON d.agency = json_extract(j.value, '$[0]') AND d.device_id = json_extract(j.value, '$[1]')",
        )
        .bind(json(deviceIds)),
      catalog
        .prepare(
          "SELECT s.agency, s.device_id, s.line FROM json_each(?2) j CROSS JOIN catalog_import_device_ids s " +
            "ON s.job_id = ?1 AND s.agency = json_extract(j.value, '$[0]') AND s.device_id = json_extract(j.value, '$[1]')",
        )
        .bind(job.id, json(deviceIds)),
      catalog
        .prepare(
          "SELECT p.id, p.normalized_part_number AS part, m.name AS manufacturer FROM json_each(?) j " +
            "CROSS JOIN products p ON p.normalized_part_number = j.value JOIN manufacturers m ON m.id = p.manufacturer_id",
        )
        .bind(json([...new Set(idless.map(({ record }) => record.normalizedPartNumber))])),
      catalog
        .prepare("SELECT category FROM catalog_category_counts WHERE lower(category) IN (SELECT lower(value) FROM json_each(?))")
        .bind(json(categories)),
    ]);
    for (const row of catalogDevices!.results as { agency: string; device_id: string; product_id: string }[]) {
      matches.byDeviceId.set(deviceKey(row.agency, row.device_id), row.product_id);
    }
    for (const row of partNumbers!.results as { id: string; part: string; manufacturer: string }[]) {
      matches.byPartNumber.set(row.part, [...(matches.byPartNumber.get(row.part) ?? []), row]);
    }
    for (const row of stagedDevices!.results as { agency: string; device_id: string; line: number }[]) {
      stagedDeviceLines.set(deviceKey(row.agency, row.device_id), row.line);
    }
    for (const row of knownCategories!.results as { category: string }[]) canonicalCategory.set(row.category.toLowerCase(), row.category);
  }

  const productIds = valid.map(({ record }) => productIdOf(record, matches));
  const resolvedIds = [
    ...new Set(productIds.filter((id) => !known.existing.has(id) && !known.stagedLines.has(id) && !rawIds.includes(id))),
  ];
  if (resolvedIds.length > 0) {
    const more = productStates(await catalog.batch(productReads(catalog, job.id, resolvedIds)));
    known = { existing: new Map([...known.existing, ...more.existing]), stagedLines: new Map([...known.stagedLines, ...more.stagedLines]) };
  }

  const staged: unknown[] = [];
  const stagedDeviceRows: unknown[] = [];
  const keyLines = new Map<string, number>();
  const deviceLines = new Map<string, number>();
  /** The first line with a key wins: a later one (in this window or an earlier one) is rejected. */
  const isDuplicate = (productId: string, line: number, field: string | null) => {
    const firstLine = keyLines.get(productId) ?? known.stagedLines.get(productId);
    if (firstLine === undefined || firstLine === line) return false;
    const message = `Product ${productId} is also on line ${firstLine}; the first line with a key wins.`;
    rejections.push({ line, key: productId, problem: { field, code: "duplicate_key", message } });
    return true;
  };
  const candidates = [
    ...unchanged.map((row) => ({ ...row, record: undefined })),
    ...valid.map((row, i) => ({ ...row, productId: productIds[i]!, hash: "" })),
  ].sort((a, b) => a.line - b.line);
  for (const row of candidates) {
    const { line, productId, record } = row;
    if (isDuplicate(productId, line, !record || record.id ? "id" : null)) continue;
    if (!record) {
      keyLines.set(productId, line);
      staged.push([line, productId, "unchanged", row.hash, null, row.sourceHash]);
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
      const taken = owner !== undefined && owner !== productId;
      rejections.push({
        line,
        key: productId,
        problem: {
          field: csvField(`deviceIdentifiers.${conflict}.deviceId`),
          code: taken ? "device_identifier_taken" : "duplicate_device_identifier",
          message: taken
            ? `${di.agency} ${di.deviceId} belongs to product ${owner}.`
            : `${di.agency} ${di.deviceId} is also on line ${deviceLines.get(key) ?? stagedDeviceLines.get(key)}.`,
        },
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
    const hash = contentHash(canonical);
    const existing = known.existing.get(productId);
    const action = existing === undefined ? "create" : existing.hash === hash ? "unchanged" : "update";
    staged.push([line, productId, action, hash, action === "unchanged" ? null : json(canonical), row.sourceHash]);
  }

  return commitWindow(catalog, job, file, cursor, { next, done, rowsRead: cursor.rows + rows.length, rejections }, [
    catalog
      .prepare(
        "INSERT INTO catalog_import_rows (job_id, seq, product_id, line, action, content_hash, record, source_hash) " +
          "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[0]'), json_extract(value, '$[2]'), " +
          "json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]') FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
      )
      .bind(job.id, json(staged)),
    catalog
      .prepare(
        "INSERT INTO catalog_import_device_ids (job_id, agency, device_id, line) " +
          "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?2) WHERE true " +
          "ON CONFLICT DO NOTHING",
      )
      .bind(job.id, json(stagedDeviceRows)),
  ]);
}

/** The record's own id as sent, if it is a string (the fast path's key; validation decides whether it is a valid one). */
const rawIdOf = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string"
    ? (value as { id: string }).id
    : undefined;

/** Reads of the catalog's content hash and of the staged line of each product id (two statements). */
function productReads(catalog: D1Database, jobId: string, ids: string[]): D1PreparedStatement[] {
  return [
    catalog
      .prepare("SELECT p.id, p.content_hash AS hash, p.source_hash AS source FROM json_each(?) j CROSS JOIN products p ON p.id = j.value")
      .bind(json(ids)),
    catalog
      .prepare(
        "SELECT r.product_id AS id, r.line FROM json_each(?2) j CROSS JOIN catalog_import_rows r ON r.job_id = ?1 AND r.product_id = j.value",
      )
      .bind(jobId, json(ids)),
  ];
}

function productStates(results: D1Result[]) {
  const [products, staged] = results;
  return {
    /** Existing products by id: their content and source hashes ("" when written otherwise: never equal to a record's). */
    existing: new Map(
      (products!.results as { id: string; hash: string | null; source: string | null }[]).map((row) => [
        row.id,
        { hash: row.hash ?? "", sourceHash: row.source ?? "" },
      ]),
    ),
    stagedLines: new Map((staged!.results as { id: string; line: number }[]).map((row) => [row.id, row.line])),
  };
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
