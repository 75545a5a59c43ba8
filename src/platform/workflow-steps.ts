import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { letOthersIn } from "./let-others-in";

export type StepRunner = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => Promise<T>;

/** Runs each named step of a Workflow with `config`, letting other requests in before it. */
export const stepRunner =
  (step: WorkflowStep, config: WorkflowStepConfig): StepRunner =>
  (name, work) =>
    step.do(name, config, async () => {
      // The local runtime otherwise runs the steps back to back without serving a single request in between, so a
      // progress poll, or any API request, waited for the whole job. 1 ms per step.
      await letOthersIn(1);
      return work();
    });

/** Creates the Workflow instance `id`; one created already (a second start, the sweep) is left to go on. */
export async function createOnce<P>(workflow: Workflow<P>, id: string, params: P): Promise<void> {
  try {
    await workflow.create({ id, params });
  } catch (err) {
    if (!(err instanceof Error && /already exists/i.test(err.message))) throw err;
  }
}

/**
 * Keeps a Workflow instance going (a Cron Trigger's sweep, a start asked again): a missing instance (a crash between
 * the job's start and the instance's creation) is created; one that errored or was terminated is handed to `ended`,
 * which ends its job; one still under way is sent a wake event, which resumes an instance the runtime left idle after
 * a restart (local `wrangler dev` does not resume on its own).
 */
export async function keepGoing<P>(
  workflow: Workflow<P>,
  id: string,
  params: P,
  ended: (status: "errored" | "terminated", message: string) => Promise<unknown>,
): Promise<void> {
  let instance: WorkflowInstance;
  try {
    instance = await workflow.get(id);
  } catch {
    await createOnce(workflow, id, params);
    return;
  }
  const { status, error } = await instance.status();
  if (status === "errored" || status === "terminated") await ended(status, error?.message ?? "");
  else if (status === "running" || status === "waiting" || status === "paused" || status === "queued") {
    await instance.sendEvent({ type: "wake", payload: {} });
  }
}
