/**
 * Exact decimals for X12's R (real) elements: amounts and quantities travel as decimal text and are added as scaled
 * integers (BigInt), never as floats. Up to SCALE decimal places; X12 writes no sign for positives, no exponent.
 */

const SCALE = 6;
const DECIMAL = /^-?\d{1,15}(?:\.\d{1,6})?$/;

export class DecimalError extends Error {}

/** A decimal text (X12 R: "42.5", "-3", ".5" read as "0.5") as an integer of millionths. */
export function toScaled(text: string): bigint {
  const normal = text.startsWith(".") ? `0${text}` : text.startsWith("-.") ? `-0${text.slice(1)}` : text;
  if (!DECIMAL.test(normal)) throw new DecimalError(`Not a decimal of at most ${SCALE} places: ${JSON.stringify(text)}.`);
  const negative = normal.startsWith("-");
  const [whole, fraction = ""] = (negative ? normal.slice(1) : normal).split(".");
  const scaled = BigInt(whole!) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, "0"));
  return negative ? -scaled : scaled;
}

/** An integer of millionths as the shortest decimal text with at least `places` decimals ("42.50" for places 2). */
export function fromScaled(scaled: bigint, places = 0): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(SCALE + 1, "0");
  const whole = digits.slice(0, -SCALE);
  let fraction = digits.slice(-SCALE).replace(/0+$/, "");
  if (fraction.length < places) fraction = fraction.padEnd(places, "0");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Minor units (cents) as the decimal text of a currency with two decimals. */
export const centsToDecimal = (cents: number): string => fromScaled(BigInt(cents) * 10n ** BigInt(SCALE - 2), 2);

/** a x b, both decimal texts, exactly, in millionths; refused when the product needs more places than that. */
export function multiply(a: string, b: string): bigint {
  const product = toScaled(a) * toScaled(b);
  const divisor = 10n ** BigInt(SCALE);
  if (product % divisor !== 0n) throw new DecimalError(`${a} x ${b} has more than ${SCALE} decimal places.`);
  return product / divisor;
}
