import { jsonGroups, MAX_PARAMETER_BYTES } from "../../db/bulk-insert";
import { inSlices } from "../../platform/let-others-in";
import { withCatalogKeys } from "../../shared/catalog/recall-keys";
import { hashed, type RecallWrite, recallWrite, recallWrites, storedHashes } from "../../shared/recalls/records";
import { offerRecallsToStores } from "../../shared/tenants/recall-offer";
import { rowsAppliedStatement, stagedRecords } from "../imports/apply";
import { ROWS_PER_SLICE, type WindowRead } from "../imports/formats/window";
import type { JobRow } from "../imports/jobs";
import type { ImportKind, KindEnv } from "../imports/kinds";
import type { Rejection } from "../imports/records";
import { commitWindow, type ImportFile, type ValidationCursor, type ValidationStep } from "../imports/staging";
import { readRecall } from "./openfda";

/**
 * FDA recall records as a kind of import job (docs/recalls.md, "Loading recalls"): an openFDA JSON document or NDJSON
 * of records, any of the three shapes openfda.ts reads. Validation reads each record, its code_info into a scope, and
 * stages one row per product number with what it changes (the first record of a number wins); the apply pass writes
 * the staged recalls to the main database (src/shared/recalls/records.ts); after the job every tenant store is offered
 * the recalls changed (./offer.ts).
 */

const FDA = "fda" as const;
const json = (value: unknown) => JSON.stringify(value);

/** A readRecall error (`field: message`) as a row's problem. */
const problemOf = (error: string) => {
  const colon = error.indexOf(":");
  return { field: colon > 0 ? error.slice(0, colon) : null, code: "invalid_value", message: error };
};

async function stageRecallWindow(
  env: KindEnv,
  job: JobRow,
  file: ImportFile,
  cursor: ValidationCursor,
  window: WindowRead,
): Promise<ValidationStep> {
  const rejections: Rejection[] = [];
  const read = await inSlices(window.rows, ROWS_PER_SLICE, (rows) => {
    const writes: { line: number; write: Omit<RecallWrite, "hash"> }[] = [];
    for (const row of rows) {
      if ("problem" in row) {
        rejections.push({ line: row.line, key: null, problem: row.problem });
        continue;
      }
      const recall = readRecall(row.value);
      if ("errors" in recall) {
        const [first, ...more] = recall.errors;
        const problem = problemOf(first!);
        rejections.push({ line: row.line, key: null, problem: { ...problem, message: [first, ...more].join("; ") } });
        continue;
      }
      const { source: _, ...input } = recall.record;
      writes.push({ line: row.line, write: recallWrite(FDA, null, input) });
    }
    return writes;
  });
  // The hash is of the record alone: where it stands in the file changes nothing.
  const parsed = await Promise.all(read.flat().map(async ({ line, write }) => ({ ...(await hashed(write)), line })));
  const numbers = [...new Set(parsed.map((write) => write.productNumber))];
  const [jobRead, staged] = await env.CATALOG.batch([
    env.CATALOG.prepare("SELECT cancel_requested FROM catalog_imports WHERE id = ?").bind(job.id),
    env.CATALOG.prepare(
      "SELECT s.product_number AS number, s.seq AS line FROM json_each(?2) j " +
        "CROSS JOIN recall_import_rows s ON s.job_id = ?1 AND s.product_number = j.value",
    ).bind(job.id, json(numbers)),
  ]);
  if ((jobRead!.results[0] as { cancel_requested: number } | undefined)?.cancel_requested) return { outcome: "cancelled" };
  const firstLine = new Map((staged!.results as { number: string; line: number }[]).map((row) => [row.number, row.line]));
  const unique = parsed.filter((write) => {
    const first = firstLine.get(write.productNumber);
    if (first !== undefined && first !== write.line) {
      const message = `Product number ${write.productNumber} is also record ${first}; the first record with a number wins.`;
      rejections.push({ line: write.line, key: write.productNumber, problem: { field: "recall_number", code: "duplicate_key", message } });
      return false;
    }
    firstLine.set(write.productNumber, write.line);
    return true;
  });
  const hashes = await storedHashes(
    env.DB,
    FDA,
    unique.map((write) => write.productNumber),
  );
  const rows = unique.map(({ line, ...write }) => {
    const stored = hashes.get(write.productNumber);
    const action = stored === undefined ? "create" : stored === write.hash ? "unchanged" : "update";
    return [line, write.productNumber, action, action === "unchanged" ? null : json(write)];
  });
  const result = { next: window.next, done: window.done, rowsRead: cursor.rows + window.rows.length, rejections };
  // Records carry their code_info and scope: the window's rows go in groups that keep each parameter under D1's limit.
  return commitWindow(
    env.CATALOG,
    job,
    file,
    cursor,
    result,
    jsonGroups(rows, MAX_PARAMETER_BYTES).map((group) =>
      env.CATALOG.prepare(
        "INSERT INTO recall_import_rows (job_id, seq, product_number, action, record) SELECT ?1, value ->> '$[0]', value ->> '$[1]', " +
          "value ->> '$[2]', value ->> '$[3]' FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
      ).bind(job.id, group),
    ),
  );
}

/**
 * Writes the staged recalls of (afterSeq, lastSeq] to the main database, then the job's progress. A step that runs
 * again after its recalls committed writes nothing new: each has the hash it was written with.
 */
async function applyRecallChunk(env: KindEnv, job: Pick<JobRow, "id">, afterSeq: number, lastSeq: number, appliedBefore: number) {
  const staged = await stagedRecords<RecallWrite>(env.CATALOG, "recalls", job.id, afterSeq, lastSeq);
  const writes = await withCatalogKeys(env.CATALOG, staged);
  if (writes.length > 0) await env.DB.batch(recallWrites(env.DB, writes, new Date()));
  await rowsAppliedStatement(env.CATALOG, job.id, appliedBefore + writes.length).run();
}

/** FDA recall records as a kind of import job. */
export const RECALL_IMPORTS: ImportKind = {
  csv: {
    checkHeader: () => {
      throw new Error("recall imports take no CSV");
    },
    input: () => null,
  },
  stageWindow: stageRecallWindow,
  applyChunk: (env, job, afterSeq, lastSeq, appliedBefore) => applyRecallChunk(env, job, afterSeq, lastSeq, appliedBefore),
  afterApply: (env) => offerRecallsToStores(env),
};
