import { inSlices } from "../../platform/let-others-in";
import { ROWS_PER_SLICE, type WindowRow } from "./formats/window";
import { type CatalogMatches, deviceKey } from "./keys";
import { contentOf, type ImportRecord, type Rejection, RowRejected, recordOf, sourceHash } from "./records";

/**
 * The decisions of a catalog window's staging that read nothing (src/operator/imports/catalog-staging.ts reads and writes): which
 * rows are unchanged without validation, which are valid records, and what each valid row stages or why it is rejected.
 */

/** The field a rejection names: a record path (NDJSON, GUDID) or its CSV column (src/operator/imports/formats/csv.ts). */
export type FieldOf = (field: string | null) => string | null;

/** A row read from the file, with the hash of its source and the id it names as sent. */
export interface ReadRow {
  line: number;
  value: unknown;
  source: string;
  sourceHash: string;
  rawId: string | undefined;
}

/** The rows of a window that were read, and the rejections of those that were not (malformed lines, CSV rows). */
export function readRows(rows: WindowRow[]): { read: ReadRow[]; rejections: Rejection[] } {
  const read: ReadRow[] = [];
  const rejections: Rejection[] = [];
  for (const row of rows) {
    if ("problem" in row) rejections.push({ line: row.line, key: null, problem: row.problem });
    else read.push({ ...row, sourceHash: sourceHash(row.source), rawId: rawIdOf(row.value) });
  }
  return { read, rejections };
}

/** The record's own id as sent, if it is a string (the fast path's key; validation decides whether it is a valid one). */
const rawIdOf = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string"
    ? (value as { id: string }).id
    : undefined;

/** What the catalog and the job's staging hold of product ids. */
export interface ProductStates {
  /** Existing products by id: their content and source hashes ("" when written otherwise: never equal to a record's). */
  existing: Map<string, { hash: string; sourceHash: string }>;
  /** The line that staged each product id in an earlier window of the job. */
  stagedLines: Map<string, number>;
}

export interface UnchangedRow {
  line: number;
  productId: string;
  hash: string;
  sourceHash: string;
}

export interface ValidRow {
  line: number;
  record: ImportRecord;
  sourceHash: string;
}

/**
 * Splits the rows read: a row whose source hashes to what its product was last written from is unchanged without
 * being validated again (re-importing a file costs a parse and a hash per row); the others are validated into records
 * or rejected.
 */
export function triageRows(
  read: ReadRow[],
  existing: ProductStates["existing"],
  fieldOf: FieldOf,
): { unchanged: UnchangedRow[]; valid: ValidRow[]; rejections: Rejection[] } {
  const unchanged: UnchangedRow[] = [];
  const valid: ValidRow[] = [];
  const rejections: Rejection[] = [];
  for (const row of read) {
    const product = row.rawId ? existing.get(row.rawId) : undefined;
    if (row.rawId && product?.sourceHash === row.sourceHash) {
      unchanged.push({ line: row.line, productId: row.rawId, hash: product.hash, sourceHash: row.sourceHash });
      continue;
    }
    try {
      valid.push({ line: row.line, record: recordOf(row.value), sourceHash: row.sourceHash });
    } catch (err) {
      if (!(err instanceof RowRejected)) throw err;
      rejections.push({ line: row.line, key: row.rawId ?? null, problem: { ...err.problem, field: fieldOf(err.problem.field) } });
    }
  }
  return { unchanged, valid, rejections };
}

/** What the catalog and the job's staging say about a window's valid records (read by catalog-staging.ts). */
export interface WindowContext {
  matches: CatalogMatches;
  /** The line that staged each device identifier ("agency deviceId") in an earlier window of the job. */
  stagedDeviceLines: Map<string, number>;
  /** The catalog's spelling of each category name, by its lower case. */
  canonicalCategory: Map<string, string>;
  known: ProductStates;
}

/** What a window stages: catalog_import_rows and catalog_import_device_ids rows (as JSON arrays), and its rejections. */
export interface StagingPlan {
  staged: unknown[];
  stagedDeviceRows: unknown[];
  rejections: Rejection[];
  /**
   * Whether a row staged here would be validated again if the file were read again after this job: one without its
   * own id (matched through the catalog), or one unchanged in content but not in source (its source hash is not
   * stored). Such a row may then come out otherwise, so the job's result is not taken for the same file
   * (src/operator/imports/same-file.ts).
   */
  revalidated: boolean;
}

/**
 * What each row stages, in line order: the first line with a product id wins (in this window or an earlier one), a
 * device identifier another product has or another line claimed is refused, categories take the catalog's spelling,
 * and the content hash decides between create, update and unchanged. Lets other work in every ROWS_PER_SLICE rows.
 */
export async function planStaging(
  unchanged: UnchangedRow[],
  valid: (ValidRow & { productId: string })[],
  context: WindowContext,
  fieldOf: FieldOf,
): Promise<StagingPlan> {
  const { matches, stagedDeviceLines, canonicalCategory, known } = context;
  const plan: StagingPlan = { staged: [], stagedDeviceRows: [], rejections: [], revalidated: false };
  const keyLines = new Map<string, number>();
  const deviceLines = new Map<string, number>();
  /** The first line with a key wins: a later one (in this window or an earlier one) is rejected. */
  const isDuplicate = (productId: string, line: number, field: string | null) => {
    const firstLine = keyLines.get(productId) ?? known.stagedLines.get(productId);
    if (firstLine === undefined || firstLine === line) return false;
    const message = `Product ${productId} is also on line ${firstLine}; the first line with a key wins.`;
    plan.rejections.push({ line, key: productId, problem: { field, code: "duplicate_key", message } });
    return true;
  };
  const candidates = [...unchanged.map((row) => ({ ...row, record: undefined })), ...valid.map((row) => ({ ...row, hash: "" }))].sort(
    (a, b) => a.line - b.line,
  );
  // One slice after another: the maps above carry the first-line-wins state from each slice to the next.
  await inSlices(candidates, ROWS_PER_SLICE, (slice) => {
    for (const row of slice) {
      const { line, productId, record } = row;
      if (isDuplicate(productId, line, !record || record.id ? "id" : null)) continue;
      if (!record) {
        keyLines.set(productId, line);
        plan.staged.push([line, productId, "unchanged", row.hash, null, row.sourceHash]);
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
        plan.rejections.push({
          line,
          key: productId,
          problem: {
            field: fieldOf(`deviceIdentifiers.${conflict}.deviceId`),
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
        plan.stagedDeviceRows.push([di.agency, di.deviceId, line]);
      }
      const { json, hash } = stagedContentOf(record, canonicalCategory);
      const existing = known.existing.get(productId);
      const action = existing === undefined ? "create" : existing.hash === hash ? "unchanged" : "update";
      plan.staged.push([line, productId, action, hash, action === "unchanged" ? null : json, row.sourceHash]);
      if (!record.id || action === "unchanged") plan.revalidated = true;
    }
  });
  return plan;
}

/** A record's content as it is staged and hashed: its categories in the catalog's spelling where the catalog has them. */
export const stagedContentOf = (record: ImportRecord, canonicalCategory: Map<string, string>) =>
  contentOf({ ...record, categories: record.categories.map((name) => canonicalCategory.get(name.toLowerCase()) ?? name) });
