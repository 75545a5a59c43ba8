import { amountAsText, rewriteAmounts } from "../../platform/amount-paths";
import { inSlices } from "../../platform/let-others-in";
import { OFFER_INPUT_AMOUNTS } from "../../versions/changes/2026-12-07-money-as-decimal-strings";
import { rowsAppliedStatement, stagedRecords } from "../imports/apply";
import { checkCsvColumns, csvFieldsOf } from "../imports/formats/csv";
import { ROWS_PER_SLICE, type WindowRead, type WindowRow } from "../imports/formats/window";
import type { JobRow } from "../imports/jobs";
import type { ImportKind, KindEnv } from "../imports/kinds";
import { parseRow, type Rejection, RowRejected } from "../imports/records";
import { type CsvShape, commitWindow, type ImportFile, type ValidationCursor, type ValidationStep } from "../imports/staging";
import { currentOffers, type OfferWrite, planOfferWrite, resolveProducts, writeOffers } from "./offers";
import { OfferBatchRowSchema, type OfferInput } from "./schemas";

/**
 * A vendor's price file (docs/api.md, "Price files"): an offer import job, a kind of job of the import machinery
 * (src/operator/imports/kinds.ts) run by its Workflow (src/operator/imports/workflow.ts). Each row is an offer of the batch API (OfferBatchRow), in NDJSON or CSV. Validation stages
 * one row per SKU (offer_import_rows, catalog-migrations/0008) with what it will do to the vendor's current offer; the
 * apply pass writes the staged rows through writeOffers, the same write as the batch API, a chunk per step.
 */

/** The CSV columns of a price file: OfferBatchRow's fields, futurePrice split in two, customFields as JSON. */
export const OFFER_CSV_COLUMNS = [
  "sku",
  "productId",
  "gtin",
  "manufacturer",
  "partNumber",
  "condition",
  "purchaseChoice",
  "warranty",
  "price",
  "unitOfMeasure",
  "packQuantity",
  "leadTimeDays",
  "quantityAvailable",
  "quantityCountedAt",
  "effectiveFrom",
  "effectiveTo",
  "futurePrice",
  "futurePriceEffectiveFrom",
  "customFields",
] as const;

const REQUIRED_COLUMNS = ["sku", "condition", "purchaseChoice", "warranty", "price", "leadTimeDays"] as const;
const NUMBER_COLUMNS: readonly string[] = ["price", "packQuantity", "leadTimeDays", "quantityAvailable"];
/** Columns read their own way below: the future price's two, and custom fields as JSON. */
const OWN_WAY_COLUMNS: readonly string[] = ["futurePrice", "futurePriceEffectiveFrom", "customFields"];
const TEXT_COLUMNS = OFFER_CSV_COLUMNS.filter((name) => !NUMBER_COLUMNS.includes(name) && !OWN_WAY_COLUMNS.includes(name));
/** A number as CSV writes it; anything else stays text, for the schema to refuse with the field's own message. */
const NUMBER = /^-?\d{1,15}(\.\d+)?$/;
const numberOf = (field: string) => (NUMBER.test(field) ? Number(field) : field);

/** The offer input of one CSV row: an empty field is an absent one. */
export function offerCsvInput(header: string[], fields: string[]): unknown {
  const value = csvFieldsOf(header, fields);
  const offer: Record<string, unknown> = {};
  for (const name of TEXT_COLUMNS) {
    const field = value(name);
    if (field !== undefined) offer[name] = field;
  }
  for (const name of NUMBER_COLUMNS) {
    const field = value(name);
    if (field !== undefined) offer[name] = numberOf(field);
  }
  const futurePrice = value("futurePrice");
  const futureFrom = value("futurePriceEffectiveFrom");
  if (futurePrice !== undefined || futureFrom !== undefined) {
    offer.futurePrice = {
      ...(futurePrice === undefined ? {} : { price: numberOf(futurePrice) }),
      ...(futureFrom === undefined ? {} : { effectiveFrom: futureFrom }),
    };
  }
  const customFields = value("customFields");
  if (customFields !== undefined) {
    try {
      offer.customFields = JSON.parse(customFields);
    } catch {
      throw new RowRejected({ field: "customFields", code: "invalid_value", message: "Must be a JSON array of custom fields." });
    }
  }
  return offer;
}

/** The CSV column of an offer field named in a rejection (`futurePrice.price` is futurePrice). */
const offerCsvColumnOf = (field: string | null) =>
  field === null
    ? null
    : field === "futurePrice.effectiveFrom"
      ? "futurePriceEffectiveFrom"
      : field.startsWith("customFields")
        ? "customFields"
        : field.split(".")[0]!;

export const OFFER_CSV: CsvShape = {
  checkHeader: (header) => checkCsvColumns(header, OFFER_CSV_COLUMNS, REQUIRED_COLUMNS),
  input: offerCsvInput,
};

const OFFER_FIELDS = Object.keys(OfferBatchRowSchema.shape);
const json = (value: unknown) => JSON.stringify(value);

/** The codes of a row whose fields were valid but whose product did not hold (src/operator/offers/offers.ts resolveProducts). */
const PRODUCT_PROBLEMS = ["invalid_gtin", "unknown_product", "ambiguous_product", "product_withdrawn"] as const;

/** The offer a staged row writes. */
type StagedOffer = OfferWrite & { productId: string };

/**
 * Validates and stages one window of a price file, after three reads: the job's cancel flag and the lines of the
 * window's SKUs staged before (catalog database), the products the rows name (catalog), the vendor's current offers
 * of those SKUs (main database). The first line with a SKU wins; a later one is rejected.
 */
export async function stageOfferWindow(
  env: KindEnv,
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
  window: WindowRead,
): Promise<ValidationStep> {
  const vendorId = job.vendor_id!;
  const csvField = job.format === "csv" ? offerCsvColumnOf : (field: string | null) => field;
  const slices = await inSlices(window.rows, ROWS_PER_SLICE, (rows) => parseOfferRows(rows, csvField));
  const rejections = slices.flatMap((slice) => slice.rejections);
  const parsed = slices.flatMap((slice) => slice.parsed);

  const skus = [...new Set(parsed.map((row) => row.sku))];
  // The lines that claimed these SKUs before this window: staged rows, and rows whose product did not hold (rejected
  // after their SKU was read, as a batch rejects them), so that a SKU's first line wins whichever window it is in.
  const [jobRead, staged, refused] = await env.CATALOG.batch([
    env.CATALOG.prepare("SELECT cancel_requested FROM catalog_imports WHERE id = ?").bind(job.id),
    env.CATALOG.prepare(
      "SELECT s.sku, s.seq AS line FROM json_each(?2) j CROSS JOIN offer_import_rows s ON s.job_id = ?1 AND s.sku = j.value",
    ).bind(job.id, json(skus)),
    env.CATALOG.prepare(
      "SELECT product_key AS sku, min(line) AS line FROM catalog_import_errors WHERE job_id = ?1 AND file = ?3 " +
        `AND code IN (${PRODUCT_PROBLEMS.map((code) => `'${code}'`).join(", ")}) AND product_key IN (SELECT value FROM json_each(?2)) GROUP BY product_key`,
    ).bind(job.id, json(skus), file.name),
  ]);
  if ((jobRead!.results[0] as { cancel_requested: number } | undefined)?.cancel_requested) return { outcome: "cancelled" };
  const firstLine = new Map<string, number>();
  for (const row of [...(staged!.results as { sku: string; line: number }[]), ...(refused!.results as { sku: string; line: number }[])]) {
    firstLine.set(row.sku, Math.min(row.line, firstLine.get(row.sku) ?? row.line));
  }
  const unique = parsed.filter(({ line, sku }) => {
    const first = firstLine.get(sku);
    if (first !== undefined && first !== line) {
      const message = `SKU ${sku} is also on line ${first}; the first line with a SKU wins.`;
      rejections.push({ line, key: sku, problem: { field: csvField("sku"), code: "duplicate_key", message } });
      return false;
    }
    firstLine.set(sku, line);
    return true;
  });

  const resolutions = await resolveProducts(
    env.CATALOG,
    unique.map((row) => row.input),
  );
  const writes: (StagedOffer & { line: number })[] = [];
  unique.forEach((row, i) => {
    const resolution = resolutions[i]!;
    if ("problem" in resolution) rejections.push({ line: row.line, key: row.sku, problem: resolution.problem });
    else writes.push({ ...row, productId: resolution.productId });
  });
  const current = await currentOffers(
    env.DB,
    vendorId,
    writes.map((w) => w.sku),
  );
  const rows = writes.map((write) => {
    const { outcome } = planOfferWrite(current.get(write.sku), write);
    const action = outcome === "created" ? "create" : outcome === "updated" ? "update" : "unchanged";
    const record: StagedOffer | null = action === "unchanged" ? null : { sku: write.sku, productId: write.productId, input: write.input };
    return [write.line, write.sku, action, record === null ? null : json(record)];
  });

  const result = { next: window.next, done: window.done, rowsRead: cursor.rows + window.rows.length, rejections };
  return commitWindow(env.CATALOG, job, file, cursor, result, [
    env.CATALOG.prepare(
      "INSERT INTO offer_import_rows (job_id, seq, sku, action, record) SELECT ?1, value ->> '$[0]', value ->> '$[1]', " +
        "value ->> '$[2]', value ->> '$[3]' FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
    ).bind(job.id, json(rows)),
  ]);
}

/** The offers of a window's rows, and the rejections of the rows that are not one. */
function parseOfferRows(rows: WindowRow[], csvField: (field: string | null) => string | null) {
  const rejections: Rejection[] = [];
  const parsed: { line: number; sku: string; input: OfferInput }[] = [];
  for (const row of rows) {
    if ("problem" in row) {
      rejections.push({ line: row.line, key: null, problem: row.problem });
      continue;
    }
    try {
      // A price file's amounts may be JSON numbers, as the offers API took them before 2026-12-07: read as their text.
      rewriteAmounts(row.value, OFFER_INPUT_AMOUNTS, amountAsText);
      const { sku, ...input } = parseRow(OfferBatchRowSchema, OFFER_FIELDS, row.value);
      parsed.push({ line: row.line, sku, input });
    } catch (err) {
      if (!(err instanceof RowRejected)) throw err;
      rejections.push({ line: row.line, key: skuOf(row.value), problem: { ...err.problem, field: csvField(err.problem.field) } });
    }
  }
  return { parsed, rejections };
}

const skuOf = (value: unknown): string | null => {
  const sku = typeof value === "object" && value !== null ? (value as { sku?: unknown }).sku : undefined;
  return typeof sku === "string" && sku.length <= 64 ? sku : null;
};

/**
 * Writes the staged offers of (afterSeq, lastSeq] to the vendor's offers (main database), then the job's progress
 * (catalog database). The two commit apart: a step that runs again after its offers committed finds them written,
 * and writeOffers writes nothing for an offer equal to the current one.
 */
export async function applyOfferChunk(
  env: KindEnv,
  job: Pick<JobRow, "id" | "vendor_id">,
  afterSeq: number,
  lastSeq: number,
  appliedBefore: number,
): Promise<void> {
  const writes = await stagedRecords<StagedOffer>(env.CATALOG, "offers", job.id, afterSeq, lastSeq);
  if (writes.length > 0) await writeOffers(env.DB, job.vendor_id!, writes, new Date());
  await rowsAppliedStatement(env.CATALOG, job.id, appliedBefore + writes.length).run();
}

/** A vendor's price files as a kind of import job. */
export const PRICE_FILES: ImportKind = {
  csv: OFFER_CSV,
  stageWindow: stageOfferWindow,
  applyChunk: (env, job, afterSeq, lastSeq, appliedBefore) => applyOfferChunk(env, job, afterSeq, lastSeq, appliedBefore),
};
