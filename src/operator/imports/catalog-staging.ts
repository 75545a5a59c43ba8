import { inSlices } from "../../platform/let-others-in";
import { type ProductStates, planStaging, readRows, stagedContentOf, triageRows, type ValidRow, type WindowContext } from "./catalog-rows";
import { csvColumnOf } from "./formats/csv";
import { ROWS_PER_SLICE, type WindowRead } from "./formats/window";
import type { JobRow } from "./jobs";
import { type CatalogMatches, deviceKey, type PartNumberMatch, productIdOf } from "./keys";
import { commitWindow, type ImportFile, type ValidationCursor, type ValidationStep } from "./staging";

/**
 * The staging of a catalog window (docs/architecture.md, "Catalog imports"): it validates the rows, resolves which
 * product each one writes, decides against the catalog whether it creates, updates or leaves it unchanged
 * (src/operator/imports/catalog-rows.ts), and stages the result (catalog_import_rows); the catalog itself is not written. A
 * step that runs again (a crash after its batch committed) finds its own staged rows and stages the same again: the
 * staging writes ignore what is already there, and the progress columns take the larger value.
 */

const json = (value: unknown) => JSON.stringify(value);

/** Validates and stages the rows of one window, with its progress, in one batch after two or three reads. */
export async function stageCatalogWindow(
  env: { CATALOG: D1Database },
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
  window: WindowRead,
): Promise<ValidationStep> {
  const catalog = env.CATALOG;
  const fieldOf = job.format === "csv" ? csvColumnOf : (field: string | null) => field;
  const readSlices = await inSlices(window.rows, ROWS_PER_SLICE, readRows);
  const read = readSlices.flatMap((slice) => slice.read);
  const rejections = readSlices.flatMap((slice) => slice.rejections);

  const rawIds = new Set(read.flatMap((row) => (row.rawId ? [row.rawId] : [])));
  const [jobRead, ...rawProducts] = await catalog.batch([
    catalog.prepare("SELECT cancel_requested FROM catalog_imports WHERE id = ?").bind(job.id),
    ...productReads(catalog, job.id, [...rawIds]),
  ]);
  if ((jobRead!.results[0] as { cancel_requested: number } | undefined)?.cancel_requested) return { outcome: "cancelled" };
  let known = productStates(rawProducts);
  const existing = known.existing;
  const triagedSlices = await inSlices(read, ROWS_PER_SLICE, (slice) => triageRows(slice, existing, fieldOf));
  const triaged = {
    unchanged: triagedSlices.flatMap((slice) => slice.unchanged),
    valid: triagedSlices.flatMap((slice) => slice.valid),
    rejections: triagedSlices.flatMap((slice) => slice.rejections),
  };

  const context = await readWindowContext(catalog, job.id, triaged.valid);
  const valid = triaged.valid.map((row) => ({
    ...row,
    productId: productIdOf(row.record, context.matches, row.sourceHash, () => stagedContentOf(row.record, context.canonicalCategory).hash),
  }));
  const resolvedIds = [
    ...new Set(valid.map((row) => row.productId).filter((id) => !known.existing.has(id) && !known.stagedLines.has(id) && !rawIds.has(id))),
  ];
  if (resolvedIds.length > 0) {
    const more = productStates(await catalog.batch(productReads(catalog, job.id, resolvedIds)));
    known = { existing: new Map([...known.existing, ...more.existing]), stagedLines: new Map([...known.stagedLines, ...more.stagedLines]) };
  }
  const plan = await planStaging(triaged.unchanged, valid, { ...context, known }, fieldOf);

  const result = {
    next: window.next,
    done: window.done,
    rowsRead: cursor.rows + window.rows.length,
    rejections: [...rejections, ...triaged.rejections, ...plan.rejections],
  };
  return commitWindow(catalog, job, file, cursor, result, [
    catalog
      .prepare(
        "INSERT INTO catalog_import_rows (job_id, seq, product_id, line, action, content_hash, record, source_hash) " +
          "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[0]'), json_extract(value, '$[2]'), " +
          "json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]') FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
      )
      .bind(job.id, json(plan.staged)),
    catalog
      .prepare(
        "INSERT INTO catalog_import_device_ids (job_id, agency, device_id, line) " +
          "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?2) WHERE true " +
          "ON CONFLICT DO NOTHING",
      )
      .bind(job.id, json(plan.stagedDeviceRows)),
    ...(plan.revalidated ? [catalog.prepare("UPDATE catalog_imports SET rows_revalidated = 1 WHERE id = ?").bind(job.id)] : []),
  ]);
}

/**
 * What the catalog and the job's staging say about a window's valid records, in one batch (none without records): the
 * products holding their device identifiers, the lines of the job that staged them before, the products with their
 * part numbers (records without an id), the catalog's spelling of their categories.
 */
export async function readWindowContext(catalog: D1Database, jobId: string, valid: ValidRow[]): Promise<Omit<WindowContext, "known">> {
  const matches: CatalogMatches = { byDeviceId: new Map(), byPartNumber: new Map() };
  const stagedDeviceLines = new Map<string, number>();
  const canonicalCategory = new Map<string, string>();
  if (valid.length === 0) return { matches, stagedDeviceLines, canonicalCategory };
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
      .bind(jobId, json(deviceIds)),
    catalog
      .prepare(
        "SELECT p.id, p.normalized_part_number AS part, m.name AS manufacturer, p.source_hash AS source, p.content_hash AS content " +
          "FROM json_each(?) j " +
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
  for (const row of partNumbers!.results as (PartNumberMatch & { part: string })[]) {
    matches.byPartNumber.set(row.part, [...(matches.byPartNumber.get(row.part) ?? []), row]);
  }
  for (const row of stagedDevices!.results as { agency: string; device_id: string; line: number }[]) {
    stagedDeviceLines.set(deviceKey(row.agency, row.device_id), row.line);
  }
  for (const row of knownCategories!.results as { category: string }[]) canonicalCategory.set(row.category.toLowerCase(), row.category);
  return { matches, stagedDeviceLines, canonicalCategory };
}

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

function productStates(results: D1Result[]): ProductStates {
  const [products, staged] = results;
  return {
    existing: new Map(
      (products!.results as { id: string; hash: string | null; source: string | null }[]).map((row) => [
        row.id,
        { hash: row.hash ?? "", sourceHash: row.source ?? "" },
      ]),
    ),
    stagedLines: new Map((staged!.results as { id: string; line: number }[]).map((row) => [row.id, row.line])),
  };
}
