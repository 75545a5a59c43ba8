import type { Context } from "hono";

/** Work the answer need not wait for; the runtime keeps the request alive until it settles (`waitUntil`). */
export function inBackground(c: Context, work: Promise<unknown>): void {
  let ctx: Pick<ExecutionContext, "waitUntil"> | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    // No execution context (the app called outside a Worker request): the promise still runs, unattended.
  }
  ctx?.waitUntil(work);
}
