import { logEvent } from "../../platform/logging";
import { keepGoing } from "../../platform/workflow-steps";
import type { ImportBindings } from "./bindings";
import type { JobRow } from "./jobs";
import { finishJob } from "./outcomes";

/**
 * Keeps started jobs moving (the admin Worker's Cron Trigger; docs/architecture.md, "Catalog imports"): a job
 * validating or running whose Workflow instance is missing (a crash between the job's start and the instance's
 * creation) gets it; one whose instance errored or was terminated fails; one still running is sent a wake event,
 * which resumes an instance the runtime left idle after a restart (local `wrangler dev` does not resume on its own).
 */
export async function sweepImportJobs(env: ImportBindings): Promise<void> {
  const { results } = await env.CATALOG.prepare("SELECT id FROM catalog_imports WHERE state IN ('validating', 'running')").all<{
    id: string;
  }>();
  for (const { id } of results) await sweepImportJob(env, id);
}

/** How long a started job's progress may stand still before reading it nudges its instance. */
export const STALLED_AFTER_MS = 30_000;

export const isStalled = (job: JobRow, now = Date.now()) =>
  (job.state === "validating" || job.state === "running") &&
  now - Date.parse(job.progressed_at ?? job.started_at ?? job.created_at) > STALLED_AFTER_MS;

export async function sweepImportJob(env: ImportBindings, id: string): Promise<void> {
  await keepGoing(env.CATALOG_IMPORTS, id, { jobId: id }, (workflow, message) => {
    logEvent("error", { import: id, workflow, message });
    return finishJob(env.CATALOG, id, { state: "failed", code: "internal_error", message: "The import stopped on an unexpected error." });
  });
}
