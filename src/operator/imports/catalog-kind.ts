import { applyChunk } from "./apply";
import { stageCatalogWindow } from "./catalog-staging";
import { checkCsvHeader, csvRecordInput } from "./formats/csv";
import type { ImportKind } from "./kinds";

/** The operator's catalog as a kind of import job (src/operator/imports/kinds.ts). */
export const CATALOG_IMPORT: ImportKind = {
  csv: { checkHeader: checkCsvHeader, input: csvRecordInput },
  stageWindow: stageCatalogWindow,
  applyChunk: (env, job, afterSeq, lastSeq, appliedBefore, rows) => applyChunk(env.CATALOG, job.id, afterSeq, lastSeq, appliedBefore, rows),
};
