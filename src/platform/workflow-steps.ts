import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";

/**
 * A moment on a timer at the start of each step: the local runtime (one workerd process for every Worker, D1 and the
 * Workflows engine) otherwise runs the steps back to back without serving a single request in between, so a
 * progress poll, or any API request, waited for the whole job. 1 ms per step.
 */
const letOthersIn = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

export type StepRunner = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => Promise<T>;

/** Runs each named step of a Workflow with `config`, letting other requests in before it. */
export const stepRunner =
  (step: WorkflowStep, config: WorkflowStepConfig): StepRunner =>
  (name, work) =>
    step.do(name, config, async () => {
      await letOthersIn();
      return work();
    });
