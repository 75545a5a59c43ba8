import { deviceIdsOfWord, type StoredDeviceId } from "./device-ids";
import { normalizePartNumber } from "./part-numbers";

/**
 * Turns a buyer's free-text catalog query into an FTS5 MATCH expression over products_fts
 * (migrations/0003_catalog_search.sql). User text never reaches FTS5 syntax: it is split into
 * letter/digit words and every word is emitted as a quoted string.
 */
export interface KeywordSearch {
  /** FTS5 expression for products_fts MATCH. */
  match: string;
  /** The query as a normalized part number: a product whose part number equals it ranks first. */
  partNumberKey: string;
  /**
   * What relevance looks for in a product's ranked fields (src/shared/catalog/search-sql.ts, lower-cased, words apart): each
   * word as the start of a word (" batt"), and a short word also as a whole word (" ge "), so "ge" ranks GE
   * Healthcare above Getinge while matching both. At most MAX_RANK_TERMS, so a long query costs a bounded score.
   */
  rankTerms: string[];
  /**
   * The device identifiers a query of one word may be (src/shared/catalog/device-ids.ts): when the catalog holds one,
   * its product's part number is searched instead (src/shared/catalog/catalog.ts searchCatalog).
   */
  deviceIds: StoredDeviceId[];
}

const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Rank terms scored per product of the window; the words after them still match. */
export const MAX_RANK_TERMS = 16;

/** A one-character word matches exactly: as a prefix it would expand to nearly every term. A longer word matches as a prefix. */
const term = (word: string) => (word.length === 1 ? `"${word}"` : `"${word}"*`);

/** null when the text holds no letter or digit: an empty query lists the whole catalog. */
export function parseKeywords(text: string | null | undefined): KeywordSearch | null {
  const words = (text ?? "").normalize("NFKC").toLowerCase().split(WORD_SEPARATORS).filter(Boolean);
  if (words.length === 0) return null;

  const partNumberKey = normalizePartNumber(words.join(""));
  const allWords = words.length === 1 ? term(words[0]!) : `(${words.map(term).join(" AND ")})`;
  // "12-345 A" is three words to the tokenizer; joined, it is the part number 12345A.
  const joinedPartNumber = words.length > 1 && /\d/.test(partNumberKey) ? ` OR (part_keys : "${partNumberKey.toLowerCase()}"*)` : "";
  const rankTerms = [...new Set(words.flatMap((word) => (word.length <= 3 ? [` ${word} `, ` ${word}`] : [` ${word}`])))].slice(
    0,
    MAX_RANK_TERMS,
  );
  const deviceIds = words.length === 1 ? deviceIdsOfWord(words[0]!) : [];
  return { match: allWords + joinedPartNumber, partNumberKey, rankTerms, deviceIds };
}

/**
 * An FTS5 condition that holds for every product whose `column` (manufacturer or categories, indexed
 * in products_fts) has one of `values`, or null when none can be written. Each value becomes one quoted
 * phrase that FTS5 tokenizes like the indexed text, so an exact (case-insensitive) value always matches;
 * a longer value containing the phrase may match too, so the exact SQL condition must still apply.
 * A value without any letter or digit has no token to look for: then no narrowing is possible.
 */
export function facetNarrowing(column: "manufacturer" | "categories", values: readonly string[]): string | null {
  if (values.length === 0 || values.some((value) => !/[\p{L}\p{N}]/u.test(value))) return null;
  return `(${values.map((value) => `${column} : "${value.replace(/"/g, '""')}"`).join(" OR ")})`;
}
