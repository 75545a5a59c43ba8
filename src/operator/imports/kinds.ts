import type { ImportBindings } from "./bindings";
import type { WindowRead } from "./formats/window";
import type { JobKind, JobRow } from "./jobs";
import type { CsvShape, ImportFile, ValidationCursor, ValidationStep } from "./staging";

/**
 * What a kind of import job brings to the machinery the kinds share (src/operator/imports: tables, routes, uploads, the
 * Workflow, progress and errors): how its CSV files read, how a window of rows is validated and staged, and how a
 * chunk of staged rows is applied. The catalog's is src/operator/imports/catalog-kind.ts; a vendor's price files' is
 * src/operator/offers/price-files.ts. The operator plane puts them together (src/operator/import-workflow.ts), so that the
 * machinery depends on no kind.
 */
/** The bindings a kind's staging and apply use: the catalog database, and the main one (a vendor's offers). */
export type KindEnv = Pick<ImportBindings, "CATALOG" | "DB">;

export interface ImportKind {
  csv: CsvShape;
  /** Validates and stages the rows of one window, with the job's progress; safe to run again. */
  stageWindow(env: KindEnv, job: JobRow, file: ImportFile, cursor: ValidationCursor, window: WindowRead): Promise<ValidationStep>;
  /** Writes the staged rows of (afterSeq, lastSeq], `rows` of them, with the job's progress; safe to run again. */
  applyChunk(
    env: KindEnv,
    job: Pick<JobRow, "id" | "vendor_id">,
    afterSeq: number,
    lastSeq: number,
    appliedBefore: number,
    rows: number,
  ): Promise<void>;
  /**
   * What follows the apply pass of a job that wrote (not a dry run), as one Workflow step that must not fail the job:
   * the recalls' offer to the tenant stores (src/operator/recalls/offer.ts).
   */
  afterApply?(env: ImportBindings): Promise<unknown>;
  /**
   * Whether a job whose files are byte for byte an earlier job's may take that job's result instead of reading its rows
   * (src/operator/imports/same-file.ts): the catalog's, whose version says whether anything changed since.
   */
  sameFile?: boolean;
  /**
   * The bulk path, for a kind that has one (the catalog: src/operator/imports/next-catalog/build.ts): whether this job
   * takes it, a step of the build (true once switched and cleaned up), and a step of what follows the switch (the
   * catalog's: the main database's copy of its scan codes), from the cursor the step before returned (`start` first);
   * null once done. Each step is safe to run again.
   */
  bulk?: {
    choose(env: KindEnv, jobId: string): Promise<boolean>;
    step(env: KindEnv, jobId: string): Promise<boolean>;
    afterSwitch: { start: AfterSwitchCursor; step(env: KindEnv, cursor: AfterSwitchCursor): Promise<AfterSwitchCursor | null> };
  };
}

/** Where the work after a bulk switch stands: a kind's own JSON-serializable cursor. */
export type AfterSwitchCursor = { phase: string } & Record<string, string | number | (string | number)[]>;

export type ImportKinds = Record<JobKind, ImportKind>;
