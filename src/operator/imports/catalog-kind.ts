import { productCodeWrites } from "../../shared/catalog/product-codes";
import { applyChunk, stagedProductCodes } from "./apply";
import { stageCatalogWindow } from "./catalog-staging";
import { checkCsvHeader, csvRecordInput } from "./formats/csv";
import type { ImportKind, KindEnv } from "./kinds";
import { buildStep, chooseApplyPath } from "./next-catalog/build";
import { SCAN_CODES_START, type ScanCodesCursor, scanCodesStep } from "./next-catalog/scan-codes";

/** The operator's catalog as a kind of import job (src/operator/imports/kinds.ts). */
export const CATALOG_IMPORT: ImportKind = {
  csv: { checkHeader: checkCsvHeader, input: csvRecordInput },
  stageWindow: stageCatalogWindow,
  sameFile: true,
  applyChunk: async (env, job, afterSeq, lastSeq, appliedBefore, rows) => {
    await applyChunk(env.CATALOG, job.id, afterSeq, lastSeq, appliedBefore, rows);
    await copyProductCodes(env, job.id, afterSeq, lastSeq);
  },
  bulk: {
    choose: async (env, jobId) => (await chooseApplyPath(env.CATALOG, jobId)) === "bulk",
    step: (env, jobId) => buildStep(env.CATALOG, jobId),
    afterSwitch: { start: SCAN_CODES_START, step: (env, cursor) => scanCodesStep(env, cursor as ScanCodesCursor) },
  },
};

/** The main database's copy of the codes of the staged rows in (afterSeq, lastSeq] (a step run again writes it again). */
async function copyProductCodes(env: KindEnv, jobId: string, afterSeq: number, lastSeq: number): Promise<void> {
  const { productIds, codes } = await stagedProductCodes(env.CATALOG, jobId, afterSeq, lastSeq);
  await env.DB.batch(productCodeWrites(env.DB, productIds, codes));
}
