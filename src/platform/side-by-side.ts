/**
 * Awaits independent I/O side by side (one round trip instead of several), then reports failures as if the
 * steps had run in the order given: the first failing step's error wins, whichever failed first in time. Access
 * checks go first, so a caller without access always gets the 403, never a 404 that reveals what exists.
 */
export async function sideBySide<T extends readonly unknown[]>(steps: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled = await Promise.allSettled(steps);
  const values: unknown[] = [];
  for (const outcome of settled) {
    if (outcome.status === "rejected") throw outcome.reason;
    values.push(outcome.value);
  }
  return values as unknown as T;
}
