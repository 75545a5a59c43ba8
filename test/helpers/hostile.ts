import fc from "fast-check";

/**
 * Hostile values for property tests: for each kind of field, values that the field must refuse.
 * Raw JSON number literals that JSON.stringify cannot produce (1e400, 30-digit integers, -0) are carried
 * as a marker string and spliced into the body text by `encodeBody`.
 */

const RAW = "\u0000raw:";
export const rawNumber = (literal: string) => `${RAW}${literal}`;

/** Number literals no field accepts: infinite after parsing, beyond safe integers, or zero. */
export const RAW_NUMBERS = ["1e400", "-1e400", "1E+9999", "123456789012345678901234567890", "-0", "0e0", "-123456789012345678901234567890"];

/** Serializes a body, replacing raw-number markers by their literal text. */
export function encodeBody(body: unknown): string {
  return JSON.stringify(body).replace(/"\\u0000raw:([^"]*)"/g, "$1");
}

const NAN_LIKE = [
  "NaN",
  "Infinity",
  "-Infinity",
  "1e400",
  "0x10",
  "1_000",
  "١٢٣",
  "",
  " ",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "1;DROP TABLE orders",
  "' OR 1=1 --",
  "\u0000",
];

const unicodeText = fc.string({ unit: "grapheme", maxLength: 40 });
const smallJson = fc.jsonValue({ maxDepth: 3 });

/** JSON values that are not strings (null optional: nullish fields accept it). */
export function nonString(nullable = false) {
  return fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.array(smallJson, { maxLength: 4 }),
    fc.dictionary(unicodeText, smallJson, { maxKeys: 4 }),
    fc.constantFrom(...RAW_NUMBERS.map(rawNumber)),
    ...(nullable ? [] : [fc.constant(null)]),
  );
}

/** Raw literals that parse as zero: hostile to an id, a valid 0 for a count. */
const ZERO_LITERALS = new Set(["-0", "0e0"]);

/**
 * Values a whole number from `min` refuses: NaN-like and numeric strings, fractions, numbers below `min`, unsafe and
 * infinite numbers, other types (zero and its spellings -0 and 0e0 only when `min` is 1).
 */
function hostileWholeNumber(min: 0 | 1, nullable: boolean) {
  const raw = RAW_NUMBERS.filter((literal) => min === 1 || !ZERO_LITERALS.has(literal));
  return fc.oneof(
    fc.constantFrom(...NAN_LIKE, "1", "50001"),
    unicodeText,
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
    fc.integer({ max: min - 1 }),
    fc.constantFrom(2 ** 53, 1e21, 1e308, Number.MAX_VALUE, ...raw.map(rawNumber)),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(unicodeText, smallJson, { maxKeys: 3 }),
    ...(nullable ? [] : [fc.constant(null)]),
  );
}

/** Values a positive integer id refuses (zero among them). */
export const hostileId = (nullable = false) => hostileWholeNumber(1, nullable);

/** Values a count from 0 refuses (a limit, a percentage, a quantity in stock): zero is valid there. */
export const hostileCount = (nullable = false) => hostileWholeNumber(0, nullable);

/**
 * Values a price (a positive decimal with at most two places, up to `max`) refuses: other types, NaN-like strings, and
 * numbers outside its domain (zero and below, above `max`, more than two decimals).
 */
export function hostilePrice(max: number) {
  const outside = (d: number) => d <= 0 || d > max || !/^-?\d+(\.\d{1,2})?$/.test(String(d));
  return fc.oneof(
    fc.constantFrom(...NAN_LIKE, "12.50"),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(unicodeText, smallJson, { maxKeys: 3 }),
    fc.constantFrom(0, -1, 0.001, 1.005, 1e-7, 12.345, max + 0.01, 1e308, ...RAW_NUMBERS.map(rawNumber)),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter(outside),
  );
}

export function hostileText(max: number, options: { nullable?: boolean; min?: number } = {}) {
  const tooLong = fc.string({ unit: "grapheme", minLength: max + 1, maxLength: max + 20 }).filter((s) => s.length > max);
  const tooShort = options.min ? [fc.string({ unit: "grapheme-ascii", maxLength: options.min - 1 })] : [];
  return fc.oneof(nonString(options.nullable), tooLong, ...tooShort);
}

/** Values a code list field (an enum, exact) refuses: the codes in another case or with spaces around them among others. */
export function hostileCode(codes: readonly string[], nullable = false) {
  const respelt = codes.flatMap((c) => [c.toLowerCase(), c.toUpperCase(), ` ${c}`, `${c} `]).filter((s) => !codes.includes(s));
  return fc.oneof(
    nonString(nullable),
    fc.oneof(unicodeText, fc.constantFrom(...NAN_LIKE)).filter((s) => !codes.includes(s)),
    fc.constantFrom(...respelt),
  );
}

/** Values an array field of at most `max` items refuses: other types, or oversized arrays. */
export function hostileArray(max: number, nullable = false) {
  return fc.oneof(
    fc.oneof(
      fc.integer(),
      fc.boolean(),
      unicodeText,
      fc.dictionary(unicodeText, smallJson, { maxKeys: 3 }),
      ...(nullable ? [] : [fc.constant(null)]),
    ),
    fc.array(fc.integer(), { minLength: max + 1, maxLength: max + 5 }),
  );
}

/** Values an object field refuses. */
export function hostileObject(nullable = false) {
  return fc.oneof(fc.integer(), fc.boolean(), unicodeText, fc.array(smallJson, { maxLength: 3 }), ...(nullable ? [] : [fc.constant(null)]));
}

/** Whole bodies that are not JSON at all, or not JSON an endpoint can use. */
export const MALFORMED_BODIES: readonly string[] = [
  "",
  " ",
  "{",
  "}",
  "[",
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  "{a:1}",
  "NaN",
  "Infinity",
  "undefined",
  "\uFEFF{}",
  "{}garbage",
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  "1e400",
  "-",
  "\u0000",
  "null",
  "true",
  "[]",
  "0",
  '"string"',
  "[".repeat(5000),
];

/** Nesting deep enough to exhaust a recursive walker, small enough for the 1 MiB body limit. */
export const DEEP_BODIES: readonly string[] = [40, 100_000].flatMap((depth) => [
  "[".repeat(depth) + "]".repeat(depth),
  `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
]);
