import { inject } from "vitest";

/**
 * How hard the property and fuzz tests search. `npm test` runs them at counts that have found every bug they found so
 * far in a few seconds; `npm run test:deep` (run by .ci/run after `npm test`) runs the same tests with long counts.
 * vitest.config.mts provides the depth from MEDPARTS_TEST_DEPTH to both projects (workerd and Node).
 */
export type TestDepth = "quick" | "deep";

declare module "vitest" {
  export interface ProvidedContext {
    testDepth: TestDepth;
  }
}

export const testDepth: TestDepth = inject("testDepth");

/** A run count: `quick` in `npm test`, `deep` in `npm run test:deep`. */
export const runs = (counts: { quick: number; deep: number }): number => counts[testDepth];
