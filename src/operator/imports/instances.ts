import { createOnce } from "../../platform/workflow-steps";
import type { ImportBindings } from "./bindings";

/** Creates the Workflow instance of a started job, named by the job id: a second call finds the first instance. */
export const createInstance = (env: ImportBindings, jobId: string) => createOnce(env.CATALOG_IMPORTS, jobId, { jobId });
