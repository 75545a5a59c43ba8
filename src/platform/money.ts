/**
 * Money is integer cents in storage and comparisons; in JSON a decimal string (`"12.50"`) with its ISO 4217 currency
 * beside it (docs/api.md, "Money"). Clients pinned before 2026-12-07 get some amounts as JSON numbers
 * (src/versions/changes/2026-12-07-money-as-decimal-strings.ts).
 */

/** The currency of every order, offer and document today: Medparts trades in US dollars. */
export const MARKET_CURRENCY = "USD";

/** Cents as the JSON number a client pinned before 2026-12-07 reads (1250 -> 12.5): the value `Number(centsToText(c))`. */
export function centsToDecimal(cents: number): number {
  return Math.round(cents) / 100;
}

/** A decimal with at most two places, as JavaScript prints a number (its shortest exact representation). */
const TWO_PLACES = /^-?\d+(\.\d{1,2})?$/;

/**
 * Exact cents for a JSON decimal, or null when it has more than two decimal places (exactly: 7240.940000001 is
 * refused, not rounded) or is out of range.
 */
export function decimalToCents(amount: number): number | null {
  if (!Number.isFinite(amount) || !TWO_PLACES.test(String(amount))) return null;
  const cents = Math.round(amount * 100);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Money in JSON, answers and requests: a decimal string of scale 2 at most, never negative. */
export const MONEY_TEXT = /^(0|[1-9]\d{0,12})(\.\d{1,2})?$/;

/** Exact cents of a money string ("12.5", "12.50", "1200"); null when it is not one (more than 2 places, a sign, a float form). */
export function textToCents(amount: string): number | null {
  if (!MONEY_TEXT.test(amount)) return null;
  const [units, fraction = ""] = amount.split(".");
  return Number(units) * 100 + Number(fraction.padEnd(2, "0"));
}

/**
 * Exact cents of an amount as any API version gives it: a decimal string, or a JSON number of two places at most
 * (before 2026-12-07); null for anything else. For the Medparts planes that read the API's answers and events.
 */
export function amountCents(amount: unknown): number | null {
  if (typeof amount === "string") return textToCents(amount);
  if (typeof amount === "number") return decimalToCents(amount);
  return null;
}

/** An amount as any API version gives it, as the two-place text an answer of the latest gives (0.00 for no amount). */
export const amountText = (amount: unknown): string => centsToText(amountCents(amount) ?? 0);

/** Cents as a money string with exactly two places: 1250 -> "12.50", -5 -> "-0.05". */
export function centsToText(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
