import { parseArgs } from "node:util";
import { baseUrlOf, URL_OPTION_HELP } from "../cli";

/**
 * The pure parts of `npm run import` (scripts/tools/import.ts): its command line, the format a path implies, the files of a
 * GUDID folder, the parts of a multipart upload, and the words that show a job's progress and outcome.
 */

export const IMPORT_FORMATS = ["ndjson", "csv", "gudid"] as const;
export const IMPORT_MODES = ["upsert", "replace"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export type ImportMode = (typeof IMPORT_MODES)[number];

/** Files up to this size go in one request; larger ones in multipart parts, which a failure does not restart. */
export const SINGLE_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** The AccessGUDID release's files an import reads; device.txt is required. */
export const GUDID_FILES = ["device.txt", "identifiers.txt", "gmdnTerms.txt", "productCodes.txt"] as const;

export const USAGE = `usage: npm run import -- <file, or a GUDID folder> [options]
  --offers                     a vendor's price file (offers, ndjson or csv) instead of the catalog, with a vendor client
  --format ndjson|csv|gudid    default: from the extension (.ndjson/.jsonl, .csv, a folder; .gz is stripped first)
  --mode upsert|replace        default upsert; replace withdraws the products the file lacks
  --dry-run                    validate and count only; the catalog is not changed
  --skip-failed-rows           apply the valid rows even when some are rejected (default: any rejected row fails the job)
  --max-errors N               fail the job past N rejected rows (server default 1000)
  --max-withdraw-percent N     replace: fail when the file lacks more than N% of the catalog (server default 10)
${URL_OPTION_HELP}
  --client-id <id> --client-secret <secret>
                               an operator client (scope catalog:import), or with --offers a vendor client (offers:write);
                               default: the demo operator (or demo vendor) of .medparts-demo.json`;

/** Where each kind of job lives. */
export const JOBS_PATHS = { catalog: "/admin/api/catalog/imports", offers: "/vendor/api/offer-imports" } as const;

export interface ImportOptions {
  path: string;
  /** A vendor's price file (offers) rather than the catalog. */
  offers: boolean;
  format: ImportFormat | undefined;
  mode: ImportMode;
  dryRun: boolean;
  skipFailedRows: boolean;
  maxErrors: number | undefined;
  maxWithdrawPercent: number | undefined;
  url: string;
  credentials: { clientId: string; clientSecret: string } | undefined;
}

const oneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

function wholeNumber(option: string, text: string | undefined, max: number): number | undefined | string {
  if (text === undefined) return undefined;
  const n = Number(text);
  return /^\d+$/.test(text) && n <= max ? n : `--${option} takes a whole number from 0 to ${max}, not "${text}".`;
}

const OPTIONS = {
  offers: { type: "boolean" },
  format: { type: "string" },
  mode: { type: "string" },
  "dry-run": { type: "boolean" },
  "skip-failed-rows": { type: "boolean" },
  "max-errors": { type: "string" },
  "max-withdraw-percent": { type: "string" },
  url: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;
const readArgs = (args: string[]) => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });

/** The command line as options, or the message of a usage error (exit 2; an empty message for --help). */
export function parseImportArgs(argv: readonly string[]): ImportOptions | { usageError: string } {
  let parsed: ReturnType<typeof readArgs>;
  try {
    parsed = readArgs([...argv]);
  } catch (error) {
    return { usageError: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { usageError: "" };
  if (positionals.length !== 1)
    return { usageError: positionals.length === 0 ? "Name the file or GUDID folder to import." : "Import one file or folder at a time." };
  if (values.format !== undefined && !oneOf(IMPORT_FORMATS, values.format)) {
    return { usageError: `--format is one of ${IMPORT_FORMATS.join(", ")}, not "${values.format}".` };
  }
  const offers = values.offers ?? false;
  if (offers && values.format === "gudid") return { usageError: "A price file is ndjson or csv." };
  const mode = values.mode ?? "upsert";
  if (offers && mode !== "upsert")
    return { usageError: "A price file is upsert only: withdraw offers with DELETE /vendor/api/offers/{sku}." };
  if (!oneOf(IMPORT_MODES, mode)) return { usageError: `--mode is one of ${IMPORT_MODES.join(", ")}, not "${mode}".` };
  const maxErrors = wholeNumber("max-errors", values["max-errors"], 100_000);
  if (typeof maxErrors === "string") return { usageError: maxErrors };
  const maxWithdrawPercent = wholeNumber("max-withdraw-percent", values["max-withdraw-percent"], 100);
  if (typeof maxWithdrawPercent === "string") return { usageError: maxWithdrawPercent };
  let url: string;
  try {
    url = baseUrlOf(values.url);
  } catch (error) {
    return { usageError: (error as Error).message };
  }
  const { "client-id": clientId, "client-secret": clientSecret } = values;
  if ((clientId === undefined) !== (clientSecret === undefined)) return { usageError: "Give --client-id and --client-secret together." };
  return {
    path: positionals[0]!,
    offers,
    format: values.format,
    mode,
    dryRun: values["dry-run"] ?? false,
    skipFailedRows: values["skip-failed-rows"] ?? false,
    maxErrors,
    maxWithdrawPercent,
    url,
    credentials: clientId !== undefined && clientSecret !== undefined ? { clientId, clientSecret } : undefined,
  };
}

/** The format a path implies: a folder is a GUDID release; a file by its extension, a `.gz` suffix stripped first. */
export function inferFormat(path: string, isDirectory: boolean): ImportFormat | null {
  if (isDirectory) return "gudid";
  const name = baseName(path).toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".ndjson") || name.endsWith(".jsonl")) return "ndjson";
  if (name.endsWith(".csv")) return "csv";
  return null;
}

export const baseName = (path: string) =>
  path
    .replace(/[/\\]+$/, "")
    .split(/[/\\]/)
    .pop() ?? "";

/** The name a file is uploaded under: its base name, as far as the server's file names allow (letters, digits, . _ -). */
export function uploadNameOf(path: string): string {
  const name = baseName(path)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "");
  return (name || "catalog").slice(0, 100);
}

/**
 * The files of a GUDID folder to upload, each under its release name; `device.txt.gz` and the like count too (the
 * server detects gzip). A folder without device.txt, or with a file both plain and gzipped, is a usage error.
 */
export function gudidFilesOf(entries: readonly string[]): { name: string; entry: string }[] | { usageError: string } {
  const files: { name: string; entry: string }[] = [];
  for (const name of GUDID_FILES) {
    const found = entries.filter((entry) => entry === name || entry === `${name}.gz`);
    if (found.length > 1) return { usageError: `Both ${name} and ${name}.gz are there: keep one.` };
    if (found[0]) files.push({ name, entry: found[0] });
  }
  if (!files.some((file) => file.name === "device.txt")) {
    return { usageError: `No device.txt (or device.txt.gz): a GUDID folder holds ${GUDID_FILES.join(", ")}.` };
  }
  return files;
}

export interface Part {
  partNumber: number;
  /** Byte offset of the part in the file. */
  offset: number;
  size: number;
}

/**
 * The parts of a file of `fileSize` bytes still to send: every part `partSize` bytes but the last, numbered from 1,
 * less those the server already holds at their full size (a part it holds shorter is sent again).
 */
export function planParts(fileSize: number, partSize: number, received: readonly { partNumber: number; size: number }[] = []): Part[] {
  if (!Number.isSafeInteger(partSize) || partSize <= 0)
    throw new Error(`The server's part size is not a positive whole number: ${partSize}.`);
  const held = new Map(received.map((part) => [part.partNumber, part.size]));
  const parts: Part[] = [];
  for (let offset = 0, partNumber = 1; offset < fileSize; offset += partSize, partNumber++) {
    const size = Math.min(partSize, fileSize - offset);
    if (held.get(partNumber) !== size) parts.push({ partNumber, offset, size });
  }
  return parts;
}

/** A failed request worth sending again: no answer at all (status undefined), a timeout, a rate limit or a server error. */
export const isRetryable = (status: number | undefined) => status === undefined || status === 408 || status === 429 || status >= 500;
/** Milliseconds before retry `attempt` (1-based): 1 s, 2 s, 4 s. */
export const backoffMs = (attempt: number) => 1000 * 2 ** (attempt - 1);

export interface Job {
  id: string;
  format: ImportFormat;
  mode: ImportMode;
  dryRun: boolean;
  onError: "rejectAll" | "skipFailedRows";
  maxErrors: number;
  state: "awaiting_upload" | "validating" | "running" | "succeeded" | "failed" | "cancelled";
  failure: { code: string; message: string } | null;
  sameFilesAs: string | null;
  counts: { read: number; created: number; updated: number; unchanged: number; withdrawn: number; rejected: number };
  progress: {
    phase: "upload" | "validating" | "applying" | "upkeep" | "done";
    fraction: number;
    rowsPerSecond: number | null;
    secondsLeft: number | null;
    bytesTotal: number;
    bytesDone: number;
    rowsRead: number;
    rowsToApply: number;
    rowsApplied: number;
    /** What a bulk import's build is doing, in words (null otherwise). */
    step?: string | null;
  };
  files: { name: string; size: number | null; uploaded: boolean }[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ImportErrorItem {
  file: string;
  line: number;
  productKey: string | null;
  field: string | null;
  code: string;
  message: string;
}

export const isFinal = (state: Job["state"]) => state === "succeeded" || state === "failed" || state === "cancelled";

export const count = (n: number) => n.toLocaleString("en-US");

export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export function byteSize(bytes: number): string {
  if (Math.abs(bytes) < 1024) return `${Math.round(bytes)} B`;
  if (Math.abs(bytes) < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** What a progress line shows: the phase, how far (0..1), what is done, the rate and the time left. */
export interface ProgressLine {
  phase: string;
  fraction: number;
  done: string;
  rate: string;
  left: string;
}

/** The progress line of a job that validates, applies or keeps the catalog up; null in the other phases. */
export function jobProgressLine(progress: Job["progress"]): ProgressLine | null {
  if (progress.phase === "upkeep") {
    return { phase: "upkeep", fraction: 1, done: progress.step ?? "sort positions, full-text merge", rate: "", left: "" };
  }
  if (progress.phase !== "validating" && progress.phase !== "applying") return null;
  return {
    phase: progress.phase,
    fraction: progress.fraction,
    done:
      progress.phase === "validating"
        ? `${count(progress.rowsRead)} rows read`
        : `${count(progress.rowsApplied)} / ${count(progress.rowsToApply)} rows${progress.step ? ` (${progress.step})` : ""}`,
    rate: progress.rowsPerSecond === null ? "- rows/s" : `${count(progress.rowsPerSecond)} rows/s`,
    left: progress.secondsLeft === null ? "" : `${duration(progress.secondsLeft)} left`,
  };
}

/**
 * The last line of a phase that has ended (the job moved on, or succeeded): full, with the job's final rows, the rate
 * last seen (the job's own is then the whole run's) and no time left.
 */
export function closingLine(last: ProgressLine, job: Job): ProgressLine {
  if (last.phase === "upkeep") return last;
  const line = jobProgressLine({ ...job.progress, phase: last.phase === "applying" ? "applying" : "validating" });
  return { ...last, done: line?.done ?? last.done, fraction: 1, left: "" };
}

export const plainProgressLine = (line: ProgressLine) =>
  [line.phase, `${Math.floor(line.fraction * 100)}%`, line.done, line.rate, line.left].filter(Boolean).join("  ");

/** The outcome of a finished job: state, counts, duration and rows/s. */
export function summaryLines(job: Job): string[] {
  const { counts } = job;
  const seconds = job.startedAt && job.finishedAt ? (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000 : null;
  const rate = seconds ? `, ${count(Math.round(counts.read / seconds))} rows/s` : "";
  const lines = [
    `Import ${job.id} ${job.state}${job.dryRun ? " (dry run: the catalog was not changed)" : ""}`,
    `  read ${count(counts.read)}, created ${count(counts.created)}, updated ${count(counts.updated)}, ` +
      `unchanged ${count(counts.unchanged)}, withdrawn ${count(counts.withdrawn)}, rejected ${count(counts.rejected)}`,
    `  duration ${seconds === null ? "-" : duration(seconds)}${rate}`,
  ];
  if (job.sameFilesAs) lines.push(`  the same file as ${job.sameFilesAs}, catalog unchanged since: its result taken, no row read`);
  if (job.failure) lines.push(`  failure: ${job.failure.message} (${job.failure.code})`);
  return lines;
}

export function errorLine(error: ImportErrorItem): string {
  const where = [error.productKey && `product ${error.productKey}`, error.field && `field ${error.field}`].filter(Boolean).join(", ");
  return `  ${error.file}:${error.line}  ${error.code}  ${error.message}${where ? `  (${where})` : ""}`;
}
