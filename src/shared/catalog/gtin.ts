/**
 * GS1 Global Trade Item Numbers (GS1 General Specifications 7.9.1): GTIN-8, -12, -13 and -14, whose last digit is a
 * check digit (mod 10, weights 3 and 1 alternating from the right). The catalog keeps every GTIN as GTIN-14: a shorter
 * one is the same number left-padded with zeros.
 */

/** The check digit of a GTIN without its own: `digits` are the other 7, 11, 12 or 13 digits. */
export function gtinCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - i;
    sum += Number(digits[i]) * (fromRight % 2 === 1 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

const GTIN = /^(?:\d{8}|\d{12}|\d{13}|\d{14})$/;

/** Whether `text` is a GTIN-8/12/13/14 with a correct check digit. */
export const isGtin = (text: string): boolean => GTIN.test(text) && gtinCheckDigit(text.slice(0, -1)) === Number(text.at(-1));

/** The GTIN-14 of a valid GTIN (left-padded with zeros); null for anything else. */
export const toGtin14 = (text: string): string | null => (isGtin(text) ? text.padStart(14, "0") : null);

/** A GTIN-14 from its first 13 digits (indicator, company prefix and item reference), the check digit added. */
export const gtin14Of = (first13: string): string => `${first13}${gtinCheckDigit(first13)}`;
