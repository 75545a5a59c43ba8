/**
 * Device identifiers as recall notices write them (docs/recalls.md, "Reading code_info"): GTINs of 8, 12, 13 or 14
 * digits normalised to 14, HIBCC labeler codes with or without their `+`, and what is no identifier at all.
 */

/** The GS1 check digit of the digits before it (mod 10, weights 3 and 1 from the right). */
function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A GTIN-8, -12, -13 or -14 with a valid check digit, as 14 digits; null for anything else. */
export function gtin14(text: string): string | null {
  if (!/^(\d{8}|\d{12,14})$/.test(text)) return null;
  const padded = text.padStart(14, "0");
  return gs1CheckDigit(padded.slice(0, 13)) === Number(padded[13]) ? padded : null;
}

/** A HIBCC primary identifier: a labeler code (a letter and three letters or digits) and a product number. */
const HIBCC = /^\+?([A-Z][A-Z0-9]{3}[A-Z0-9]{1,19})$/;

/**
 * A unit's or a notice's device identifier as one comparable key: a GTIN as 14 digits, a HIBCC identifier without its
 * `+`, upper case; null when it is neither.
 */
export function deviceKey(text: string): string | null {
  const compact = text.trim().toUpperCase();
  const gtin = gtin14(compact);
  if (gtin) return gtin;
  const hibcc = HIBCC.exec(compact);
  return hibcc && /\d/.test(hibcc[1]!) ? hibcc[1]! : null;
}

/** A device identifier as compared: its key when it is a valid one, else as recorded (a typo stays comparable). */
export const comparableDeviceKey = (text: string): string => deviceKey(text) ?? text.replace(/^\+/, "").toUpperCase();

/** Words a notice writes where an identifier would be, meaning there is none. */
export const NO_IDENTIFIER = /^(n\/?a|none|no|pending|tbd|not applicable|-+)$/i;
