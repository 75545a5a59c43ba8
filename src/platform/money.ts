/** Money is integer cents in storage and comparisons; decimals with at most two places in JSON. */

export function centsToDecimal(cents: number): number {
  return Math.round(cents) / 100;
}

/** Exact cents for a JSON decimal, or null when it has more than two decimal places or is out of range. */
export function decimalToCents(amount: number): number | null {
  if (!Number.isFinite(amount)) return null;
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6 || !Number.isSafeInteger(cents)) return null;
  return cents;
}
