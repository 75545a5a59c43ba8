/**
 * Catalog import jobs: their rows in the catalog database (catalog-migrations/0005) and what the API shows of them.
 * The job's life: awaiting_upload -> validating -> running -> succeeded, or failed / cancelled on the way
 * (docs/api.md, "Catalog import").
 */

export const IMPORT_FORMATS = ["ndjson", "csv", "gudid", "openfda"] as const;
/** The formats of the operator's catalog files. */
export const CATALOG_FORMATS = ["ndjson", "csv", "gudid"] as const satisfies readonly ImportFormat[];
/** What a job imports: the operator's catalog, a vendor's offers (its price file), or the FDA's recalls. */
export const JOB_KINDS = ["catalog", "offers", "recalls"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const IMPORT_MODES = ["upsert", "replace"] as const;
export const ERROR_POLICIES = ["rejectAll", "skipFailedRows"] as const;
export const JOB_STATES = ["awaiting_upload", "validating", "running", "succeeded", "failed", "cancelled"] as const;

export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export type JobState = (typeof JOB_STATES)[number];
export const FINAL_STATES: readonly JobState[] = ["succeeded", "failed", "cancelled"];

export interface JobRow {
  id: string;
  kind: JobKind;
  /** The vendor that owns an offer job (null for catalog jobs). */
  vendor_id: number | null;
  format: ImportFormat;
  mode: (typeof IMPORT_MODES)[number];
  dry_run: number;
  on_error: (typeof ERROR_POLICIES)[number];
  max_errors: number;
  max_withdraw_percent: number;
  state: JobState;
  failure_code: string | null;
  failure_message: string | null;
  client_id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  bytes_total: number;
  bytes_done: number;
  rows_read: number;
  rows_to_apply: number;
  rows_applied: number;
  validated_at: string | null;
  upkeep_started_at: string | null;
  created: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  rejected: number;
  cancel_requested: number;
  progressed_at: string | null;
  apply_path: "rows" | "bulk" | null;
  build_phase: BuildPhase | null;
  /** The uploaded files' fingerprint, and the earlier job with the same files whose result this one took (same-file.ts). */
  files_fingerprint: string | null;
  same_as: string | null;
  /** The catalog version when a catalog job ended (succeeded, not a dry run). */
  catalog_version_after: string | null;
  /** 1 once a staged row would be validated again if the files were read again (catalog-rows.ts planStaging). */
  rows_revalidated: number;
}

/** The phases of a bulk import's build (src/operator/imports/next-catalog/build.ts), as a person reads them. */
export const BUILD_STEPS = {
  prepare: "preparing the next catalog version",
  copy: "copying the live catalog",
  create: "adding the new products",
  sort: "sorting categories and device identifiers",
  indexes: "building the indexes",
  index: "building the full-text index",
  positions: "computing sort positions",
  merge: "merging the full-text index",
  switch: "switching to the new version",
  cleanup: "removing the old version",
  // built and switched: what remains is the main database's copy of the scan codes (src/shared/catalog/product-codes.ts)
  done: "copying the scan codes",
} as const;
export type BuildPhase = keyof typeof BUILD_STEPS;

export interface FileRow {
  job_id: string;
  name: string;
  object_key: string;
  size: number | null;
  gzip: number;
  upload_id: string | null;
  uploaded_at: string | null;
}

/** The files a job of each format takes: one of any name for ndjson and csv; the AccessGUDID release's by name. */
export const GUDID_FILE_NAMES = ["device.txt", "identifiers.txt", "gmdnTerms.txt", "productCodes.txt"] as const;
export const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Why a file name is refused for a job of this format, or null. */
export function fileNameProblem(format: ImportFormat, name: string, others: readonly string[]): string | null {
  if (!FILE_NAME.test(name)) return "A file name is 1 to 100 letters, digits, dots, dashes and underscores.";
  if (format === "gudid") {
    return (GUDID_FILE_NAMES as readonly string[]).includes(name) ? null : `A GUDID import takes ${GUDID_FILE_NAMES.join(", ")}.`;
  }
  const other = others.find((existing) => existing !== name);
  return other ? `A ${format} import takes one file; this job already has ${other}.` : null;
}

export const objectKeyOf = (jobId: string, name: string) => `imports/${jobId}/${name}`;

export async function readJob(catalog: D1Database, id: string): Promise<JobRow | null> {
  return catalog.prepare("SELECT * FROM catalog_imports WHERE id = ?").bind(id).first<JobRow>();
}

export async function readJobWithFiles(catalog: D1Database, id: string): Promise<{ job: JobRow; files: FileRow[] } | null> {
  const [jobs, files] = await catalog.batch([
    catalog.prepare("SELECT * FROM catalog_imports WHERE id = ?").bind(id),
    catalog.prepare("SELECT * FROM catalog_import_files WHERE job_id = ? ORDER BY name").bind(id),
  ]);
  const job = (jobs!.results as JobRow[])[0];
  return job ? { job, files: files!.results as FileRow[] } : null;
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/**
 * Progress of the pass under way: validation reads every byte of the files (rows/s counted on rows read), the apply
 * pass writes the rows that create or update. Each pass's rate is measured from its own start, and the time left is
 * what remains of the pass under way at that rate plus, while validating, the apply pass estimated at the same rate.
 * After the writes, the catalog's upkeep (phase `upkeep`) has no estimate.
 */
export function progressOf(job: JobRow, now: string) {
  const base = {
    bytesTotal: job.bytes_total,
    bytesDone: job.bytes_done,
    rowsRead: job.rows_read,
    rowsToApply: job.rows_to_apply,
    rowsApplied: job.rows_applied,
    step: job.state === "running" && job.apply_path === "bulk" && job.build_phase ? BUILD_STEPS[job.build_phase] : null,
  };
  if (job.state === "awaiting_upload") return { ...base, phase: "upload" as const, fraction: 0, rowsPerSecond: null, secondsLeft: null };
  if (FINAL_STATES.includes(job.state)) {
    const elapsed = job.started_at && job.finished_at ? seconds(job.started_at, job.finished_at) : 0;
    return {
      ...base,
      phase: "done" as const,
      fraction: 1,
      rowsPerSecond: elapsed > 0 ? Math.round(job.rows_read / elapsed) : null,
      secondsLeft: 0,
    };
  }
  if (job.state === "validating") {
    const elapsed = job.started_at ? seconds(job.started_at, now) : 0;
    const fraction = job.bytes_total > 0 ? Math.min(1, job.bytes_done / job.bytes_total) : 0;
    const rate = elapsed > 0 ? job.rows_read / elapsed : 0;
    const left = fraction > 0 && elapsed > 0 ? (elapsed / fraction) * (1 - fraction) : null;
    return {
      ...base,
      phase: "validating" as const,
      fraction,
      rowsPerSecond: rate > 0 ? Math.round(rate) : null,
      secondsLeft: left === null ? null : Math.ceil(left),
    };
  }
  if (job.upkeep_started_at) {
    // Sort positions and the full-text merge: bounded steps whose number is not known ahead.
    return { ...base, phase: "upkeep" as const, fraction: 1, rowsPerSecond: null, secondsLeft: null };
  }
  const elapsed = job.validated_at ? seconds(job.validated_at, now) : 0;
  const fraction = job.rows_to_apply > 0 ? Math.min(1, job.rows_applied / job.rows_to_apply) : 1;
  const rate = elapsed > 0 ? job.rows_applied / elapsed : 0;
  const left = rate > 0 ? (job.rows_to_apply - job.rows_applied) / rate : null;
  return {
    ...base,
    phase: "applying" as const,
    fraction,
    rowsPerSecond: rate > 0 ? Math.round(rate) : null,
    secondsLeft: left === null ? null : Math.ceil(left),
  };
}

/** The job as the API shows it; `collection` is the URL of its kind's jobs (…/catalog/imports or …/offer-imports). */
export function presentJob(job: JobRow, files: FileRow[], collection: string, now = new Date().toISOString()) {
  const self = `${collection}/${job.id}`;
  return {
    id: job.id,
    format: job.format,
    mode: job.mode,
    dryRun: job.dry_run === 1,
    onError: job.on_error,
    maxErrors: job.max_errors,
    maxWithdrawPercent: job.max_withdraw_percent,
    state: job.state,
    failure: job.failure_code ? { code: job.failure_code, message: job.failure_message ?? "" } : null,
    counts: {
      read: job.rows_read,
      created: job.created,
      updated: job.updated,
      unchanged: job.unchanged,
      withdrawn: job.withdrawn,
      rejected: job.rejected,
    },
    progress: progressOf(job, now),
    files: files.map((file) => ({ name: file.name, size: file.size, gzip: file.gzip === 1, uploaded: file.uploaded_at !== null })),
    createdAt: job.created_at,
    startedAt: job.started_at,
    validatedAt: job.validated_at,
    finishedAt: job.finished_at,
    sameFilesAs: job.same_as,
    links: { self, errors: `${self}/errors`, upload: `${self}/files/{name}`, start: `${self}/start` },
  };
}
