import { productCodeWrites } from "../../shared/catalog/product-codes";
import { applyChunk, stagedProductCodes } from "./apply";
import { stageCatalogWindow } from "./catalog-staging";
import { checkCsvHeader, csvRecordInput } from "./formats/csv";
import type { ImportKind } from "./kinds";

/** The operator's catalog as a kind of import job (src/operator/imports/kinds.ts). */
export const CATALOG_IMPORT: ImportKind = {
  csv: { checkHeader: checkCsvHeader, input: csvRecordInput },
  stageWindow: stageCatalogWindow,
  applyChunk: async (env, job, afterSeq, lastSeq, appliedBefore, rows) => {
    await applyChunk(env.CATALOG, job.id, afterSeq, lastSeq, appliedBefore, rows);
    // Then the main database's copy of the chunk's codes, from the staged rows (a step run again writes it again).
    const { productIds, codes } = await stagedProductCodes(env.CATALOG, job.id, afterSeq, lastSeq);
    await env.DB.batch(productCodeWrites(env.DB, productIds, codes));
  },
};
