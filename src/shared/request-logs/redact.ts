/**
 * What a request log keeps of a body (test mode only, ./record.ts): never a secret, never card-like data, at most
 * MAX_LOGGED_BODY_CHARS characters.
 */

export const MAX_LOGGED_BODY_CHARS = 4096;
export const REDACTED = "[redacted]";

/** Keys whose values are secrets, whatever they hold: `clientSecret`, `client_secret`, `password`, `accessToken`, a `secret`. */
const SECRET_KEY = /secret|password|passphrase|token|authorization|api[-_]?key|private[-_]?key|credential/i;
/** Secrets Medparts issues, recognizable anywhere in a text: webhook signing secrets and SCIM tokens. */
const ISSUED_SECRET = /\b(?:whsec|mpscim)_[A-Za-z0-9_-]{8,}/g;
/** A form field naming a secret (`client_secret=...`), as a token request or a form body would carry it. */
const SECRET_FIELD = /\b([A-Za-z_]*(?:secret|password|token)[A-Za-z_]*)=[^&\s]*/gi;
/** Runs of 13 to 19 digits, single spaces or hyphens allowed between them, as card numbers are written. */
const DIGIT_RUN = /(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g;

/** The Luhn check (ISO/IEC 7812-1) that every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Card-like: 13 to 19 digits whose first is a payment card's major industry identifier (2 to 6: Mastercard's 2-series,
 * Amex, Visa, Mastercard, Discover) and that pass Luhn. A GTIN (14 digits, GS1's own check digit, packaging indicator
 * first) is kept unless it happens to look exactly like one.
 */
export function isCardLike(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && digits[0]! >= "2" && digits[0]! <= "6" && passesLuhn(digits);
}

/**
 * Whether a run of digits holds a card number as people write one: the whole run, or consecutive groups of it (split
 * at its spaces and hyphens) such as a card followed by a CVC (`4111 1111 1111 1111 123`) or after another number.
 */
function holdsCard(run: string): boolean {
  const groups = run.split(/[ -]/);
  for (let first = 0; first < groups.length; first++) {
    let digits = "";
    for (let last = first; last < groups.length; last++) {
      digits += groups[last];
      if (digits.length > 19) break;
      if (isCardLike(digits)) return true;
    }
  }
  return false;
}

/** `text` with every issued secret, secret form field and card-like number replaced by REDACTED. */
export function scrubText(text: string): string {
  return text
    .replace(ISSUED_SECRET, REDACTED)
    .replace(SECRET_FIELD, (_, name: string) => `${name}=${REDACTED}`)
    .replace(DIGIT_RUN, (run) => (holdsCard(run) ? REDACTED : run));
}

/** A JSON number whose literal digits are card-like: judged on the literal, since 17 to 19 digits lose some as a double. */
const CARD_NUMBER = Symbol("card-like number");

function scrubValue(value: unknown): unknown {
  if (value === CARD_NUMBER) return REDACTED;
  if (typeof value === "string") return scrubText(value);
  if (typeof value === "number") return Number.isInteger(value) && isCardLike(String(Math.abs(value))) ? REDACTED : value;
  if (Array.isArray(value)) return value.map(scrubValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) && item !== null ? REDACTED : scrubValue(item)]),
    );
  }
  return value;
}

/** JSON.parse, each number whose literal is card-like marked (the reviver's source text, where the runtime gives it). */
function parseMarkingCards(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && context?.source !== undefined && isCardLike(context.source.replace(/^-/, "")) ? CARD_NUMBER : value,
  );
}

/** A body as the log keeps it: JSON scrubbed value by value (and key by key), any other text scrubbed as text, then cut. */
export function loggableBody(text: string | null | undefined): { body: string | null; truncated: boolean } {
  if (text === null || text === undefined || text === "") return { body: null, truncated: false };
  let scrubbed: string;
  try {
    scrubbed = JSON.stringify(scrubValue(parseMarkingCards(text)));
  } catch {
    scrubbed = scrubText(text);
  }
  if (scrubbed.length <= MAX_LOGGED_BODY_CHARS) return { body: scrubbed, truncated: false };
  return { body: scrubbed.slice(0, MAX_LOGGED_BODY_CHARS), truncated: true };
}

/** Field errors a logged problem document keeps: a body with thousands of mistakes keeps its first ones. */
export const MAX_LOGGED_FIELD_ERRORS = 50;
export const MAX_LOGGED_PROBLEM_CHARS = 16_384;

/** An error answer's problem document as the log keeps it (both modes): scrubbed, its field errors capped, whole JSON. */
export function loggableProblem(problem: Record<string, unknown>): string {
  const errors = Array.isArray(problem.errors)
    ? problem.errors.slice(0, MAX_LOGGED_FIELD_ERRORS)
    : problem.errors !== null && typeof problem.errors === "object"
      ? Object.fromEntries(Object.entries(problem.errors).slice(0, MAX_LOGGED_FIELD_ERRORS)) // the form before 2026-12-07
      : problem.errors;
  const kept = JSON.stringify(scrubValue({ ...problem, ...(errors === undefined ? {} : { errors }) }));
  if (kept.length <= MAX_LOGGED_PROBLEM_CHARS) return kept;
  // Still too long (a detail of its own size): its identity and the start of its detail, still a JSON object.
  const { type, title, status, detail } = problem;
  return JSON.stringify(scrubValue({ type, title, status, detail: String(detail ?? "").slice(0, 2000), truncated: true }));
}
