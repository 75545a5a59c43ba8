import { createReadStream, existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import cliProgress from "cli-progress";
import { describeFailure, UsageError } from "../cli";
import { savedDemoClients } from "../dev/local-platform";
import {
  backoffMs,
  baseName,
  byteSize,
  closingLine,
  count,
  duration,
  errorLine,
  gudidFilesOf,
  type ImportErrorItem,
  type ImportOptions,
  inferFormat,
  isFinal,
  isRetryable,
  JOBS_PATHS,
  type Job,
  jobProgressLine,
  type ProgressLine,
  parseImportArgs,
  plainProgressLine,
  planParts,
  SINGLE_UPLOAD_MAX_BYTES,
  summaryLines,
  USAGE,
  uploadNameOf,
} from "./import-client";

/**
 * `npm run import -- <file, or a GUDID folder> [--format ndjson|csv|gudid] [--mode upsert|replace] [--dry-run] ...`
 * (`--help` for all): loads a catalog file through the operator API (/admin/api/catalog/imports), or with --offers a
 * vendor's price file through the vendor API (/vendor/api/offer-imports): creates the job,
 * uploads the file(s), starts it and follows it to its end with a progress bar, then prints the outcome and the first
 * rejected rows. Exit 0 when the job succeeded, 1 when it failed or was cancelled (or the server could not be used),
 * 2 for a usage error, 130 on Ctrl-C (which cancels the job).
 */

const PART_CONCURRENCY = 4;
const PART_RETRIES = 3;
const POLL_MS = 500;
const PLAIN_PROGRESS_MS = 5000;
/** Polls that may fail in a row (a restart, a network blip) before the command gives up; the job goes on regardless. */
const POLL_FAILURES = 10;

type Credentials = { clientId: string; clientSecret: string };
interface Upload {
  name: string;
  file: string;
  size: number;
}
interface FileUpload {
  name: string;
  size: number | null;
  uploaded: boolean;
  partSize: number;
  parts: { partNumber: number; size: number }[];
}

/** A call that failed: the server's status (undefined when no answer came) and what it said. */
class ApiError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly detail: string,
    where = "",
  ) {
    super(where ? `${detail} (${where})` : detail);
  }
}

/** The words of an error answer: a problem's `detail` (with its `errors`), an OAuth `error_description`, or the text. */
async function errorText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { detail?: string; title?: string; error_description?: string; errors?: unknown };
    const errors = Array.isArray(body.errors)
      ? body.errors.map(String)
      : body.errors && typeof body.errors === "object"
        ? Object.entries(body.errors).map(([field, messages]) => `${field}: ${[messages].flat().join(", ")}`)
        : [];
    const main = body.detail ?? body.error_description ?? body.title;
    if (main) return [main, ...errors].join("; ");
  } catch {}
  return text.trim().slice(0, 300) || res.statusText;
}

function noAnswer(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** The operator API with a client-credentials token, renewed a minute before it expires (an import can outlast it). */
class AdminApi {
  private token: { value: string; renewAt: number } | undefined;

  constructor(
    readonly base: string,
    /** The path of the jobs: the catalog's, or a vendor's price files. */
    readonly jobs: string,
    private readonly credentials: Credentials,
  ) {}

  private async send(method: string, pathname: string, init: { headers?: Record<string, string>; body?: unknown }): Promise<Response> {
    const url = `${this.base}${pathname}`;
    let res: Response;
    try {
      // duplex: Node's fetch takes a stream body only with it (not in the Workers types this project compiles with).
      res = await fetch(url, { method, headers: init.headers, body: init.body, duplex: "half" } as RequestInit);
    } catch (error) {
      throw new ApiError(undefined, `No answer from ${url} (${noAnswer(error)}). Is the server running at ${this.base}?`);
    }
    if (!res.ok) throw new ApiError(res.status, await errorText(res), `HTTP ${res.status}, ${method} ${pathname}`);
    return res;
  }

  private async bearer(): Promise<Record<string, string>> {
    if (!this.token || Date.now() >= this.token.renewAt) {
      const res = await this.send("POST", "/auth/oauth2/token", {
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: this.credentials.clientId,
          client_secret: this.credentials.clientSecret,
        }).toString(),
      });
      const { access_token, expires_in } = (await res.json()) as { access_token: string; expires_in: number };
      this.token = { value: access_token, renewAt: Date.now() + Math.max(0, expires_in - 60) * 1000 };
    }
    return { Authorization: `Bearer ${this.token.value}`, Accept: "application/json" };
  }

  /** A JSON call; the envelope's `data`. */
  async data<T>(method: string, pathname: string, json?: unknown): Promise<T> {
    const headers = await this.bearer();
    const init =
      json === undefined ? { headers } : { headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(json) };
    const res = await this.send(method, pathname, init);
    return ((await res.json()) as { data: T }).data;
  }

  /** PUT `size` bytes of `file` from `offset`, streamed from disk; `onBytes` hears each chunk as it is read. */
  async putBytes(pathname: string, file: string, offset: number, size: number, onBytes: (n: number) => void): Promise<void> {
    const headers = { ...(await this.bearer()), "Content-Type": "application/octet-stream", "Content-Length": String(size) };
    const stream = createReadStream(file, { start: offset, end: offset + size - 1 });
    stream.on("data", (chunk) => onBytes(chunk.length));
    await this.send("PUT", pathname, { headers, body: Readable.toWeb(stream) });
  }
}

interface ProgressView {
  show(line: ProgressLine): void;
  /** A message between progress lines. */
  note(text: string): void;
  stop(): void;
}

/**
 * A terminal: a bar per phase, redrawn in place; a new phase leaves the last one's bar above it. A MultiBar even for
 * one bar, as only it prints notes above its bars (a SingleBar draws over anything written while it runs).
 */
class BarView implements ProgressView {
  private bars: cliProgress.MultiBar | undefined;
  private bar: cliProgress.SingleBar | undefined;
  private phase = "";

  show(line: ProgressLine): void {
    const payload = { phase: line.phase.padEnd(10), tail: [line.done, line.rate, line.left].filter(Boolean).join(" | ") };
    if (!this.bars || !this.bar || line.phase !== this.phase) {
      this.stop();
      this.phase = line.phase;
      this.bars = new cliProgress.MultiBar(
        { format: "{phase} {bar} {percentage}% | {tail}", barsize: 30, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      );
      this.bar = this.bars.create(1000, 0, payload);
    }
    this.bar.update(Math.round(line.fraction * 1000), payload);
  }

  note(text: string): void {
    if (this.bars) this.bars.log(`${text}\n`);
    else console.error(text);
  }

  stop(): void {
    this.bars?.update(); // draws the last values and the notes not drawn yet
    this.bars?.stop();
    this.bars = undefined;
    this.bar = undefined;
    this.phase = "";
  }
}

/** CI logs and pipes: a plain line when a phase begins, every 5 s after, and when it is complete. */
class PlainView implements ProgressView {
  private phase = "";
  private printedAt = 0;
  private printedComplete = false;

  show(line: ProgressLine): void {
    const complete = line.fraction >= 1;
    const due = line.phase !== this.phase || Date.now() - this.printedAt >= PLAIN_PROGRESS_MS || (complete && !this.printedComplete);
    if (!due) return;
    this.phase = line.phase;
    this.printedAt = Date.now();
    this.printedComplete = complete;
    console.error(plainProgressLine(line));
  }

  note(text: string): void {
    console.error(text);
  }

  stop(): void {
    this.phase = "";
  }
}

const view: ProgressView = process.stderr.isTTY && !process.env.CI ? new BarView() : new PlainView();

/** The bytes sent of all the files, shown as the upload phase once it has lasted half a second (its rate is known then). */
class UploadMeter {
  private sent = 0;
  private readonly startedAt = Date.now();

  constructor(private readonly total: number) {}

  add(bytes: number): void {
    this.sent += bytes;
    const seconds = (Date.now() - this.startedAt) / 1000;
    if (seconds < 0.5 || interrupted) return;
    const rate = this.sent / seconds;
    view.show({
      phase: "upload",
      // Bytes are counted as they are read from disk: the phase is full only once the server has answered for them.
      fraction: Math.min(0.999, this.sent / this.total),
      done: `${byteSize(this.sent)} / ${byteSize(this.total)}`,
      rate: `${byteSize(rate)}/s`,
      left: rate > 0 ? `${duration((this.total - this.sent) / rate)} left` : "",
    });
  }

  finish(): void {
    const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
    view.show({ phase: "upload", fraction: 1, done: byteSize(this.total), rate: `${byteSize(this.total / seconds)}/s`, left: "" });
    view.stop();
  }
}

/** A request sent again after a failure worth retrying, up to PART_RETRIES times, 1 s, 2 s, 4 s apart. */
async function withRetries(what: string, attempt: () => Promise<void>): Promise<void> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ApiError) || !isRetryable(error.status) || retry === PART_RETRIES || interrupted) throw error;
      view.note(`${what}: ${error.detail} (HTTP ${error.status ?? "no answer"}); retrying in ${backoffMs(retry + 1) / 1000}s`);
      await sleep(backoffMs(retry + 1));
    }
  }
}

/** One file of the job: in one request up to SINGLE_UPLOAD_MAX_BYTES, else in parts (only the missing ones), then completed. */
async function uploadFile(api: AdminApi, jobId: string, upload: Upload, meter: UploadMeter): Promise<void> {
  const filePath = `${api.jobs}/${jobId}/files/${encodeURIComponent(upload.name)}`;
  const sendBytes = (pathname: string, offset: number, size: number, what: string) =>
    withRetries(what, async () => {
      let counted = 0;
      try {
        await api.putBytes(pathname, upload.file, offset, size, (n) => {
          counted += n;
          meter.add(n);
        });
      } catch (error) {
        meter.add(-counted);
        throw error;
      }
    });

  if (upload.size <= SINGLE_UPLOAD_MAX_BYTES) return sendBytes(filePath, 0, upload.size, `Upload of ${upload.name}`);

  const begun = await api.data<FileUpload>("POST", `${filePath}/uploads`);
  let received = begun.parts;
  meter.add(upload.size - planParts(upload.size, begun.partSize, received).reduce((sum, part) => sum + part.size, 0));
  // A second round sends what the server still lacks after the first (a part it lost or holds short).
  for (let round = 1; ; round++) {
    const missing = planParts(upload.size, begun.partSize, received);
    if (missing.length === 0) break;
    if (round > 2) {
      const numbers = missing.map((part) => part.partNumber).join(", ");
      throw new ApiError(undefined, `The server still lacks parts ${numbers} of ${upload.name} after they were sent again.`);
    }
    if (round > 1) meter.add(-missing.reduce((sum, part) => sum + part.size, 0));
    const queue = [...missing];
    const worker = async () => {
      for (let part = queue.shift(); part; part = queue.shift()) {
        const { partNumber, offset, size } = part;
        await sendBytes(`${filePath}/parts/${partNumber}`, offset, size, `Part ${partNumber} of ${upload.name}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(PART_CONCURRENCY, queue.length) }, worker));
    } finally {
      queue.length = 0; // the other workers take no new part once one has failed
    }
    received = (await api.data<FileUpload>("GET", filePath)).parts;
  }
  await api.data("POST", `${filePath}/complete`);
}

/** Polls the job until it ends, showing its progress while it validates and applies. */
async function follow(api: AdminApi, jobId: string): Promise<Job> {
  let failures = 0;
  let last: ProgressLine | null = null;
  for (;;) {
    let job: Job;
    try {
      job = await api.data<Job>("GET", `${api.jobs}/${jobId}`);
      failures = 0;
    } catch (error) {
      if (!(error instanceof ApiError) || !isRetryable(error.status) || ++failures > POLL_FAILURES) {
        if (!(error instanceof Error)) throw error;
        const where = `GET ${api.base}${api.jobs}/${jobId}`;
        throw new ApiError(undefined, `${error.message}\nThe import may go on on the server: ${where} shows how it ends.`);
      }
      if (failures === 1) view.note(`The job could not be read (${error.detail}); trying again.`);
      await sleep(Math.min(backoffMs(failures), 5000));
      continue;
    }
    if (interrupted) return new Promise<never>(() => {}); // the SIGINT handler exits
    const final = isFinal(job.state);
    const line = jobProgressLine(job.progress);
    if (last && (final ? job.state === "succeeded" : line?.phase !== last.phase)) view.show(closingLine(last, job));
    if (final) {
      view.stop();
      return job;
    }
    if (line) {
      view.show(line);
      last = line;
    }
    await sleep(POLL_MS);
  }
}

async function printErrors(api: AdminApi, job: Job): Promise<void> {
  if (job.counts.rejected === 0 && job.state !== "failed") return;
  const page = await api.data<{ items: ImportErrorItem[]; nextCursor: string | null }>("GET", `${api.jobs}/${job.id}/errors?limit=10`);
  if (page.items.length === 0) return;
  const of = job.counts.rejected > page.items.length ? ` of ${count(job.counts.rejected)}` : "";
  console.log(`\nFirst ${page.items.length}${of} errors:`);
  for (const item of page.items) console.log(errorLine(item));
  console.log(`All errors (NDJSON, with an operator token): GET ${api.base}${api.jobs}/${job.id}/errors.ndjson`);
}

/** What to upload: the file itself (ndjson, csv), or the release files a GUDID folder holds. */
function uploadsOf(options: ImportOptions): { format: Job["format"]; uploads: Upload[] } {
  if (!existsSync(options.path)) throw new UsageError(`${options.path}: no such file or folder.`);
  const isDirectory = statSync(options.path).isDirectory();
  const format = options.format ?? inferFormat(options.path, isDirectory);
  if (!format) {
    throw new UsageError(`Cannot tell the format of ${baseName(options.path)} from its name: pass --format ndjson, csv or gudid.`);
  }
  if ((format === "gudid") !== isDirectory) {
    throw new UsageError(
      format === "gudid"
        ? `A GUDID import reads a folder (device.txt, ...); ${options.path} is a file.`
        : `A ${format} import reads one file; ${options.path} is a folder.`,
    );
  }
  const found = format === "gudid" ? gudidFilesOf(readdirSync(options.path)) : [{ name: uploadNameOf(options.path), entry: "" }];
  if ("usageError" in found) throw new UsageError(`${options.path}: ${found.usageError}`);
  const uploads = found.map(({ name, entry }) => {
    const file = format === "gudid" ? path.join(options.path, entry) : options.path;
    const stat = statSync(file);
    if (!stat.isFile()) throw new UsageError(`${file} is not a file.`);
    if (stat.size === 0) throw new UsageError(`${file} is empty.`);
    return { name, file, size: stat.size };
  });
  return { format, uploads };
}

function credentialsOf(options: ImportOptions): Credentials {
  if (options.credentials) return options.credentials;
  const saved = savedDemoClients();
  const demo = options.offers ? saved?.vendor : saved?.operator;
  if (!demo) {
    const kind = options.offers ? "a vendor" : "an operator";
    throw new UsageError(
      `No credentials: pass --client-id and --client-secret of ${kind} client, or run \`npm start\` first (it writes the demo clients to .medparts-demo.json).`,
    );
  }
  return demo;
}

let interrupted = false;
/** The job under way, for Ctrl-C to cancel; unset once it has ended. */
let underWay: { api: AdminApi; id: string } | undefined;

process.on("SIGINT", () => {
  if (interrupted || !underWay) process.exit(130);
  interrupted = true;
  view.stop();
  const { api, id } = underWay;
  console.error(`\nCancelling import ${id} ...`);
  api
    .data<Job>("POST", `${api.jobs}/${id}/cancel`)
    .then(
      (job) =>
        console.error(
          job.state === "cancelled" ? `Import ${id} cancelled.` : `Import ${id}: cancel requested, it stops at its next window of rows.`,
        ),
      (error: Error) => {
        const why = error instanceof ApiError ? error.detail : error.message;
        console.error(`Import ${id} was not cancelled: ${why}\nFollow it with GET ${api.base}${api.jobs}/${id}`);
      },
    )
    .finally(() => process.exit(130));
});

/** The API this run talks to, once the command line is read: named when it cannot be reached. */
let apiBase: string | undefined;

async function main(): Promise<number> {
  const options = parseImportArgs(process.argv.slice(2));
  if ("usageError" in options) {
    if (!options.usageError) {
      console.log(USAGE);
      return 0;
    }
    throw new UsageError(options.usageError);
  }
  const { format, uploads } = uploadsOf(options);
  apiBase = options.url;
  const api = new AdminApi(options.url, JOBS_PATHS[options.offers ? "offers" : "catalog"], credentialsOf(options));

  const job = await api.data<Job>("POST", api.jobs, {
    format,
    mode: options.mode,
    dryRun: options.dryRun,
    onError: options.skipFailedRows ? "skipFailedRows" : "rejectAll",
    maxErrors: options.maxErrors,
    maxWithdrawPercent: options.maxWithdrawPercent,
  });
  underWay = { api, id: job.id };
  const settings = [job.format, job.mode, job.dryRun ? "dry run" : "", job.onError === "skipFailedRows" ? "skip failed rows" : ""];
  console.error(`Import ${job.id} (${settings.filter(Boolean).join(", ")}) at ${api.base}`);

  const meter = new UploadMeter(uploads.reduce((sum, upload) => sum + upload.size, 0));
  try {
    for (const upload of uploads) await uploadFile(api, job.id, upload, meter);
  } catch (error) {
    view.stop();
    if (!interrupted) {
      // Nothing resumes a job this command created, so it does not wait for uploads that will not come.
      await api.data("POST", `${api.jobs}/${job.id}/cancel`).then(
        () => console.error(`Import ${job.id} cancelled: its upload did not complete.`),
        () => {},
      );
    }
    throw error;
  }
  meter.finish();

  await api.data<Job>("POST", `${api.jobs}/${job.id}/start`);
  const finished = await follow(api, job.id);
  underWay = undefined;

  for (const line of summaryLines(finished)) console.log(line);
  await printErrors(api, finished).catch((error: Error) => console.error(`The errors could not be read: ${error.message}`));
  return finished.state === "succeeded" ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    if (interrupted) return; // the SIGINT handler exits
    view.stop();
    const { message, code } = describeFailure(error, USAGE, apiBase);
    console.error(message);
    process.exitCode = code;
  },
);
