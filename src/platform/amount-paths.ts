import { noFieldErrors, ValidationError } from "./errors";
import { MONEY_TEXT } from "./money";

/**
 * Where the amounts of money are in a JSON value, written once per shape: members joined by `.`, `[]` after a member
 * for every item of its array (`data.options[].price`, `quoteItems[].price`). The version change that made amounts
 * decimal strings (src/versions/changes/2026-12-07-money-as-decimal-strings.ts) and the price files, which take either
 * form, rewrite the amounts there and nowhere else.
 */
export type AmountPaths = readonly (readonly Step[])[];
interface Step {
  member: string;
  each: boolean;
}

export const amountPaths = (...paths: string[]): AmountPaths =>
  paths.map((path) =>
    path.split(".").map((part) => (part.endsWith("[]") ? { member: part.slice(0, -2), each: true } : { member: part, each: false })),
  );

/** `paths` under `prefix` (`data.options[]` + `price` -> `data.options[].price`). */
export const under = (prefix: string, paths: AmountPaths): AmountPaths => paths.map((steps) => [...amountPaths(prefix)[0]!, ...steps]);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Rewrites, in place, every amount of `value` at `paths` that is present (a missing member or a null is left as is).
 * `rewrite` also gets the amount's field path as validation errors name it (`quoteItems[1].price`).
 */
export function rewriteAmounts(value: unknown, paths: AmountPaths, rewrite: (amount: unknown, field: string) => unknown): void {
  for (const steps of paths) visit(value, steps, 0, "", rewrite);
}

/** Whether an amount of `value` at `paths` passes `test` (nothing is changed). */
export function someAmount(value: unknown, paths: AmountPaths, test: (amount: unknown) => boolean): boolean {
  let found = false;
  const look = (amount: unknown) => {
    found ||= test(amount);
    return amount;
  };
  for (const steps of paths) visit(value, steps, 0, "", look);
  return found;
}

function visit(
  value: unknown,
  steps: readonly Step[],
  at: number,
  field: string,
  rewrite: (amount: unknown, field: string) => unknown,
): void {
  if (!isObject(value)) return;
  const { member, each } = steps[at]!;
  if (!Object.hasOwn(value, member)) return;
  const next = value[member];
  const here = field ? `${field}.${member}` : member;
  if (at === steps.length - 1) {
    if (each && Array.isArray(next)) for (let i = 0; i < next.length; i++) next[i] = rewrite(next[i], `${here}[${i}]`);
    else if (!each && next !== null) value[member] = rewrite(next, here);
    return;
  }
  if (each) {
    if (Array.isArray(next)) for (let i = 0; i < next.length; i++) visit(next[i], steps, at + 1, `${here}[${i}]`, rewrite);
  } else visit(next, steps, at + 1, here, rewrite);
}

/**
 * A JSON number as the decimal string a request of the latest version gives (12.5 -> "12.5"): its shortest exact text,
 * which the request's own validation then accepts or refuses as it would the string (more than two places, a sign,
 * an exponent). Anything else as it is.
 */
export const amountAsText = (amount: unknown): unknown => (typeof amount === "number" && Number.isFinite(amount) ? String(amount) : amount);

/**
 * The amounts of a request of a version that took JSON numbers, as the latest version takes them (`amountAsText`). An
 * amount that is not a number was refused by that version, and still is: a 400 naming each, as its validation said it.
 */
export function amountsAsTextOrRefused(body: unknown, paths: AmountPaths): void {
  const refused = noFieldErrors();
  rewriteAmounts(body, paths, (amount, field) => {
    if (typeof amount !== "number")
      refused[field] = [
        `Invalid input: expected number, received ${amount === null ? "null" : Array.isArray(amount) ? "array" : typeof amount}`,
      ];
    return amountAsText(amount);
  });
  if (Object.keys(refused).length > 0) throw new ValidationError(refused);
}

/**
 * A decimal string as the JSON number a client pinned before 2026-12-07 reads ("1249.50" -> 1249.5): the nearest
 * double, which is the number those versions gave for the same cents. Anything else as it is.
 */
export const amountAsNumber = (amount: unknown): unknown =>
  typeof amount === "string" && MONEY_TEXT.test(amount) ? Number(amount) : amount;
