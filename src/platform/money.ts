/** Money is integer cents in storage and comparisons; decimals with at most two places in JSON. */

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
