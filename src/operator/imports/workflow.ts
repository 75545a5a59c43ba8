import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import { errorMessage } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { type StepRunner, stepRunner } from "../../platform/workflow-steps";
import { compactFullTextIndex } from "../../shared/catalog/full-text-index";
import { refreshCatalogPositions } from "../../shared/catalog/positions";
import { countLacking, nextChunk, STAGED_ROWS, withdrawChunk } from "./apply";
import type { ImportBindings, ImportParams } from "./bindings";
import { type DecompressedFile, decompressedFile } from "./gzip";
import { GUDID_FILE_NAMES, type JobKind, type JobRow, readJob } from "./jobs";
import type { AfterSwitchCursor, ImportKind, ImportKinds } from "./kinds";
import { cleanUpStaging, finishJob, type JobOutcome, markUpkeep, recordProgressStart } from "./outcomes";
import { filesFingerprint, takeSameFileResult } from "./same-file";
import type { ImportFile, ValidationCursor } from "./staging";
import { validateWindow } from "./validate";

/** Every step: a few quick retries (D1 or R2 hiccups); each step is safe to run again (src/operator/imports/catalog-staging.ts, apply.ts). */
const STEP: WorkflowStepConfig = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" };

/** GUDID companions first (staged by PrimaryDI), then device.txt, which reads them. */
const fileOrder = (name: string) => {
  const index = (GUDID_FILE_NAMES as readonly string[]).indexOf(name);
  return index <= 0 ? GUDID_FILE_NAMES.length : index;
};

/**
 * An import job as a Workflow (docs/architecture.md, "Catalog imports"): for the catalog, a job whose files an earlier
 * job read, when reading them again would repeat its result, takes that result and ends
 * (src/operator/imports/same-file.ts); else the validation pass, one step per WINDOWS_PER_STEP windows of
 * at most 1 MiB of a file; the verdict (counts, error policy, the replace guard); the apply pass, one step per chunk of
 * staged rows; the withdrawals of a replace; the catalog's upkeep (sort positions, full-text compaction); then the
 * job's end. A vendor's price file (src/operator/offers/price-files.ts) runs the same steps but the withdrawals and the upkeep.
 * A crash or a redeploy resumes at the step under way; completed steps are not run again. Each kind of job validates,
 * stages and applies its own way (`kinds`, given by the operator plane: src/operator/import-workflow.ts).
 */
export abstract class ImportWorkflow extends WorkflowEntrypoint<ImportBindings, ImportParams> {
  protected abstract readonly kinds: ImportKinds;

  override async run(event: WorkflowEvent<ImportParams>, step: WorkflowStep): Promise<JobOutcome> {
    const { jobId } = event.payload;
    const env = this.env;
    const run = stepRunner(step, STEP);
    const plan = await run("plan", () => planOf(env, jobId));
    if (!plan) return { state: "failed", code: "job_not_startable" };
    const kind = this.kinds[plan.kind];
    const end = async (outcome: JobOutcome) => {
      const ended = await run("finish", () => finishJob(env.CATALOG, jobId, outcome));
      for (let slice = 0; !(await run(`clean up ${slice}`, () => cleanUpStaging(env.CATALOG, jobId))); slice++);
      return ended;
    };

    const sameAs = kind.sameFile ? await sameFilesAs(run, env, jobId) : null;
    if (!sameAs) {
      const failed = await validateFiles(run, env, kind, jobId, plan.files);
      if (failed) return end(failed);
    }

    const verdict = await run("verdict", () => concludeValidation(env.CATALOG, jobId));
    if (verdict.outcome) return end(verdict.outcome);
    if (sameAs) return end({ state: "succeeded" });

    if (kind.bulk && (await run("choose the apply path", () => kind.bulk!.choose(env, jobId)))) {
      for (let step = 0; !(await run(`build ${step}`, () => kind.bulk!.step(env, jobId))); step++);
      const { afterSwitch } = kind.bulk;
      for (let step = 0, cursor: AfterSwitchCursor | null = afterSwitch.start; cursor; step++) {
        const from: AfterSwitchCursor = cursor;
        cursor = await run(`after the switch ${step}`, () => afterSwitch.step(env, from));
      }
      return end({ state: "succeeded" });
    }

    await forEachStagedChunk(run, env.CATALOG, plan.kind, jobId, "apply", (afterSeq, lastSeq, rows, rowsBefore) =>
      kind.applyChunk(env, { id: jobId, vendor_id: plan.vendorId }, afterSeq, lastSeq, rowsBefore, rows),
    );
    if (verdict.withdraw) {
      let afterRowid: number | null = 0;
      for (let chunk = 0; afterRowid !== null; chunk++) {
        const from: number = afterRowid;
        afterRowid = await run(`withdraw ${chunk}`, () => withdrawChunk(env.CATALOG, jobId, from));
      }
    }
    if (plan.kind === "catalog") await catalogUpkeep(run, env.CATALOG, jobId);
    if (kind.afterApply) {
      await run("after the apply", () =>
        kind.afterApply!(env).then(
          () => true,
          (err: unknown) => {
            logEvent("warn", { import: jobId, afterApply: errorMessage(err) });
            return false;
          },
        ),
      );
    }
    return end({ state: "succeeded" });
  }
}

/**
 * The result of an earlier job with the same files, when reading them again would repeat it, taken in one step
 * (src/operator/imports/same-file.ts): its id when this job took it, else null. The files' digests were computed as
 * they were uploaded; a digest counts only while R2 still holds the version of the object it was computed on (one
 * HEAD per file, no byte read).
 */
function sameFilesAs(run: StepRunner, env: ImportBindings, jobId: string): Promise<string | null> {
  return run("the same files as before", async () => {
    const [job, files] = await Promise.all([readJob(env.CATALOG, jobId), uploadedFiles(env.CATALOG, jobId)]);
    if (!job) return null;
    const stored = await Promise.all(files.map((file) => env.IMPORTS.head(file.objectKey)));
    const verified = files.map((file, i) => ({ ...file, digest: stored[i]?.version === file.objectVersion ? file.digest : null }));
    return takeSameFileResult(env.CATALOG, jobId, filesFingerprint(job.format, verified));
  });
}

/**
 * The validation pass over the job's files (gzip ones decompressed first), WINDOWS_PER_STEP windows a step: how the job ends if a
 * window ends it (cancelled, a fault of a file, too many errors), else null.
 */
async function validateFiles(
  run: StepRunner,
  env: ImportBindings,
  kind: ImportKind,
  jobId: string,
  planned: Plan["files"],
): Promise<JobOutcome | null> {
  const files: ImportFile[] = [];
  for (const file of planned) {
    if (!file.gzip) {
      files.push(file);
      continue;
    }
    const plain: DecompressedFile = await run(`decompress ${file.name}`, () => decompressedFile(env.IMPORTS, file));
    if ("fault" in plain) return { state: "failed", code: plain.fault.code, message: plain.fault.message };
    files.push(plain);
  }
  await run("measure", () =>
    recordProgressStart(
      env.CATALOG,
      jobId,
      files.reduce((sum, file) => sum + file.size, 0),
    ),
  );

  let bytesBefore = 0;
  for (const file of files) {
    let cursor: ValidationCursor = { offset: 0, line: 0, rows: 0, bytesBefore };
    // A step's name is its first window's number.
    for (let window = 0; ; window += WINDOWS_PER_STEP) {
      const from = cursor;
      const result = await run(`validate ${file.name} ${window}`, () => validateWindows(env, kind, jobId, file, from));
      if (result.outcome === "cancelled") return { state: "cancelled" };
      if (result.outcome === "fault") return { state: "failed", code: result.code, message: `${file.name}: ${result.message}` };
      if (result.outcome === "too_many_errors") return { state: "failed", code: "too_many_errors" };
      cursor = result.cursor;
      if (result.done) break;
    }
    bytesBefore += file.size;
  }
  return null;
}

/**
 * Windows validated per Workflow step. An instance may take 10,000 steps (1,024 on the free plan): a window a step spent
 * 350 of them on a million products' validation, 1,750 on five million (docs/decisions.md).
 */
export const WINDOWS_PER_STEP = 8;

/**
 * Validates up to WINDOWS_PER_STEP windows of `file` from `cursor`, one after another; the last one's result. Run again
 * after a crash, the step starts over from `cursor`, and each window stages the same again (catalog-staging.ts).
 */
async function validateWindows(env: ImportBindings, kind: ImportKind, jobId: string, file: ImportFile, cursor: ValidationCursor) {
  const job = (await readJob(env.CATALOG, jobId)) as JobRow;
  let result = await validateWindow(env, kind, job, file, cursor);
  for (let window = 1; window < WINDOWS_PER_STEP && result.outcome === "next" && !result.done; window++) {
    result = await validateWindow(env, kind, job, file, result.cursor);
  }
  return result;
}

/**
 * Runs `work` on each chunk of the job's staged rows that create or update, a step each (named `name` and the chunk's
 * number), with the rows of the chunks before it.
 */
async function forEachStagedChunk(
  run: StepRunner,
  catalog: D1Database,
  kind: JobKind,
  jobId: string,
  name: string,
  work: (afterSeq: number, lastSeq: number, rows: number, rowsBefore: number) => Promise<void>,
): Promise<void> {
  let afterSeq = 0;
  let rowsBefore = 0;
  for (let chunk = 0; ; chunk++) {
    const done = await run(`${name} ${chunk}`, async () => {
      const next = await nextChunk(catalog, kind, jobId, afterSeq);
      if (next.rows === 0) return null;
      await work(afterSeq, next.lastSeq, next.rows, rowsBefore);
      return next;
    });
    if (!done) break;
    afterSeq = done.lastSeq;
    rowsBefore += done.rows;
  }
}

/** Upkeep steps at most, so that a merge that stops shrinking the index cannot hold the job open. */
const MAX_UPKEEP_STEPS = 200;

/**
 * The catalog's upkeep after the writes, before the job ends: the sort positions of deep pages, then the full-text
 * index merged to one segment, in bounded steps so that searches interleave (src/shared/catalog/full-text-index.ts). A job
 * is done when its catalog searches as fast as a seeded one. Best effort, like the housekeeping that runs the same
 * upkeep: a failure is logged, the job still succeeds, and the next housekeeping run finishes it.
 */
async function catalogUpkeep(run: StepRunner, catalog: D1Database, jobId: string): Promise<void> {
  const bestEffort = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      logEvent("warn", { import: jobId, upkeep: errorMessage(err) });
      return fallback;
    }
  };
  // Each step first says the job is in its upkeep and moving (the sweep nudges a job whose progress stands still).
  const upkeepStep = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>, fallback: T) =>
    run(`upkeep: ${name}`, async () => {
      await markUpkeep(catalog, jobId);
      return bestEffort(work, fallback);
    });
  await upkeepStep("sort positions", async () => (await refreshCatalogPositions(catalog)).length, 0);
  for (let step = 0; step < MAX_UPKEEP_STEPS; step++) {
    const left = await upkeepStep(`full-text merge ${step}`, async () => (await compactFullTextIndex(catalog)).segments, 0);
    if (left <= 1) break;
  }
}

/** The job's files in the order validation reads them; null when the job is not validating (cancelled meanwhile). */
async function planOf(env: ImportBindings, jobId: string) {
  const job = await readJob(env.CATALOG, jobId);
  if (job?.state !== "validating") return null;
  const files = (await uploadedFiles(env.CATALOG, jobId)).map(({ digest: _, objectVersion: __, ...file }) => file);
  return { files, kind: job.kind, vendorId: job.vendor_id };
}

/** A job's uploaded files, in the order validation reads them. */
async function uploadedFiles(catalog: D1Database, jobId: string) {
  const { results } = await catalog
    .prepare(
      "SELECT name, object_key, size, gzip, digest, object_version FROM catalog_import_files WHERE job_id = ? AND uploaded_at IS NOT NULL",
    )
    .bind(jobId)
    .all<{ name: string; object_key: string; size: number; gzip: number; digest: string | null; object_version: string | null }>();
  return results
    .map((file) => ({
      name: file.name,
      objectKey: file.object_key,
      size: file.size,
      gzip: file.gzip === 1,
      digest: file.digest,
      objectVersion: file.object_version,
    }))
    .sort((a, b) => fileOrder(a.name) - fileOrder(b.name) || a.name.localeCompare(b.name));
}

type Plan = NonNullable<Awaited<ReturnType<typeof planOf>>>;

/**
 * The end of validation, in one transaction: the counts become final, and the job fails (the error policy, the
 * replace guard), ends (a dry run) or moves on to applying. A cancel that arrived during validation wins here.
 */
async function concludeValidation(catalog: D1Database, jobId: string): Promise<{ outcome?: JobOutcome; withdraw: boolean }> {
  const job = (await readJob(catalog, jobId))!;
  if (job.cancel_requested) return { outcome: { state: "cancelled" }, withdraw: false };
  // A job that took an earlier one's result (the same files) has its counts, and lacks nothing (same-file.ts).
  const counts = job.same_as ? job : await stagedCounts(catalog, job);
  const { lacking, active } = job.mode === "replace" && !job.same_as ? await countLacking(catalog, jobId) : { lacking: 0, active: 0 };
  const outcome = verdictOf(job, counts.rejected, lacking, active);
  const changed = await catalog
    .prepare(
      "UPDATE catalog_imports SET created = ?2, updated = ?3, unchanged = ?4, rejected = ?5, withdrawn = ?6, rows_to_apply = ?7, " +
        "validated_at = ?8, state = ?9 WHERE id = ?1 AND state = 'validating' AND cancel_requested = 0",
    )
    .bind(
      jobId,
      counts.created,
      counts.updated,
      counts.unchanged,
      counts.rejected,
      lacking,
      counts.created + counts.updated,
      new Date().toISOString(),
      outcome ? "validating" : "running",
    )
    .run();
  if (changed.meta.changes === 0) return { outcome: { state: "cancelled" }, withdraw: false };
  return outcome ? { outcome, withdraw: false } : { withdraw: job.mode === "replace" && lacking > 0 };
}

/** What the staged rows will do, and the rows rejected. */
async function stagedCounts(catalog: D1Database, job: JobRow) {
  const [actions, rejected] = await catalog.batch([
    catalog.prepare(`SELECT action, count(*) AS n FROM ${STAGED_ROWS[job.kind]} WHERE job_id = ? GROUP BY action`).bind(job.id),
    catalog.prepare("SELECT count(*) AS n FROM catalog_import_errors WHERE job_id = ?").bind(job.id),
  ]);
  const count = (action: string) => (actions!.results as { action: string; n: number }[]).find((row) => row.action === action)?.n ?? 0;
  return {
    created: count("create"),
    updated: count("update"),
    unchanged: count("unchanged"),
    rejected: (rejected!.results[0] as { n: number }).n,
  };
}

/** How validation ends the job, if it does: the error policy, the replace guard, a dry run. */
function verdictOf(job: JobRow, rejected: number, lacking: number, active: number): JobOutcome | undefined {
  if (job.on_error === "rejectAll" && rejected > 0) {
    return { state: "failed", code: "rows_rejected", message: `${rejected} rows were rejected; nothing was applied (onError rejectAll).` };
  }
  if (rejected > job.max_errors) return { state: "failed", code: "too_many_errors" };
  if (job.mode === "replace" && lacking > (active * job.max_withdraw_percent) / 100) {
    const message =
      `The file lacks ${lacking} of the catalog's ${active} products; a replace withdraws at most ${job.max_withdraw_percent} % ` +
      "of them (maxWithdrawPercent). Nothing was applied.";
    return { state: "failed", code: "withdraw_guard", message };
  }
  if (job.dry_run) return { state: "succeeded" };
  return undefined;
}
