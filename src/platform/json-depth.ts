import { ValidationError } from "./errors";

/** Our request bodies nest at most 4 levels (order -> quoteItems -> item -> requiredFields); 32 leaves room. */
export const MAX_JSON_DEPTH = 32;

/** Iterative, so that a hostile document nested 100,000 deep cannot exhaust the stack while being measured. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * 400 validation problem for a body nested deeper than MAX_JSON_DEPTH: code that walks a whole body
 * recursively (the idempotency fingerprint) must never see one, or it dies with a RangeError (a 500).
 */
export function requireShallowJson(value: unknown): void {
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw new ValidationError({ body: [`JSON nested deeper than ${MAX_JSON_DEPTH} levels.`] }, "The request body is nested too deeply.");
  }
}
