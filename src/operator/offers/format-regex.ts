import { isSafePattern } from "redos-detector";

/**
 * Custom field patterns (`formatRegex`, spec 2.7) come from vendors and run on every order line with that field
 * (src/api/orders/line-rules.ts): a pattern must be a valid JavaScript regular expression, at most 200 characters, that
 * cannot backtrack catastrophically. redos-detector follows every path the backtracking engine could take through
 * the pattern and scores the worst case (the number of ways one input can be matched); patterns over MAX_SCORE, or too
 * intricate to score within MAX_STEPS, are refused. Its own time limit is not relied on: a Worker's clock does not
 * advance while it computes. MAX_STEPS is what bounds the check's own CPU: at 20,000 steps `^(a|a)*$` took 8 s to
 * refuse, at 1,000 the worst pattern measured takes under 0.1 s (docs/benchmarks.md), and ordinary field patterns need
 * far fewer. Order values are at most 500 characters (src/api/orders/options.ts), which bounds what a
 * safe pattern costs.
 */
export const FORMAT_REGEX_MAX_LENGTH = 200;
const MAX_SCORE = 50;
const MAX_STEPS = 1_000;

/** Why a vendor's pattern is refused, or null when it is safe to run on order lines. */
export function formatRegexProblem(pattern: string): string | null {
  if (pattern.length > FORMAT_REGEX_MAX_LENGTH) return `Must be at most ${FORMAT_REGEX_MAX_LENGTH} characters.`;
  try {
    new RegExp(pattern);
  } catch {
    return "Must be a valid JavaScript regular expression.";
  }
  let result: ReturnType<typeof isSafePattern>;
  try {
    result = isSafePattern(pattern, { maxScore: MAX_SCORE, maxSteps: MAX_STEPS, downgradePattern: true });
  } catch {
    return "Must be a regular expression whose backtracking can be bounded (no backreferences or lookarounds that cannot be analysed).";
  }
  if (result.safe) return null;
  return result.error === "hitMaxScore"
    ? "Can backtrack catastrophically (nested or overlapping repetition such as (a+)+ or (a|a)*): refused, since it runs on every order line."
    : "Too intricate to prove safe from catastrophic backtracking: simplify it.";
}
