import type { ImportBindings } from "./bindings";

/** Creates the Workflow instance of a started job, named by the job id: a second call finds the first instance. */
export async function createInstance(env: ImportBindings, jobId: string): Promise<void> {
  try {
    await env.CATALOG_IMPORTS.create({ id: jobId, params: { jobId } });
  } catch (err) {
    // Already created (a start asked twice, or the sweep): that instance goes on.
    if (!(err instanceof Error && /already exists/i.test(err.message))) throw err;
  }
}
