/**
 * Lets the event loop serve something else (a request, another Worker's I/O) before going on. A deployed isolate
 * serves its requests on one thread, and the local runtime runs every Worker, D1 and the Workflows engine on one
 * thread: a long synchronous pass in a Workflow step holds them all until it ends (docs/benchmarks.md, "Catalog import").
 */
export const letOthersIn = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `pass` over `items` in slices of `size`, letting others in between two slices; the slices' results in order. */
export async function inSlices<T, R>(items: readonly T[], size: number, pass: (slice: T[]) => R): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await letOthersIn();
    results.push(pass(items.slice(start, start + size)));
  }
  return results;
}
