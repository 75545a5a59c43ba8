import { jsonGroups, MAX_PARAMETER_BYTES } from "../../db/bulk-insert";

/**
 * The codes that name each catalog product, copied into the main database (migrations/0024): its device identifiers
 * by agency, and its normalized part number under agency "". Scan to order reads the offers of the products they
 * name beside its catalog lookup (one round trip, src/shared/udi/quotes.ts). Written by the catalog's writers after the
 * catalog (imports, the seed); a copy that lags only costs scan to order a second read, never a wrong quote.
 */

export const PART_NUMBER_AGENCY = "";

/** [agency, code, productId] */
export type ProductCode = readonly [agency: string, code: string, productId: string];

/** The writes of the copy, each with its rows as JSON in ?1: by product id, by [agency, code], by [agency, code, productId]. */
export const PRODUCT_CODE_WRITES = {
  forgetProducts: "DELETE FROM product_codes WHERE product_id IN (SELECT value FROM json_each(?1))",
  forgetDeviceIds: "DELETE FROM product_codes WHERE (agency, code) IN (SELECT j.value ->> 0, j.value ->> 1 FROM json_each(?1) j)",
  insert:
    "INSERT INTO product_codes (agency, code, product_id) SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(?1) j " +
    "WHERE true ON CONFLICT DO NOTHING",
} as const;

/**
 * Statements on the main database that make `codes` all the codes of `productIds`: their earlier codes go, and a
 * device identifier now of one of them is no longer another product's (the catalog keeps it unique).
 */
export function productCodeWrites(db: D1Database, productIds: readonly string[], codes: readonly ProductCode[]): D1PreparedStatement[] {
  const statements = (sql: string, rows: readonly unknown[]) =>
    rows.length === 0 ? [] : jsonGroups(rows, MAX_PARAMETER_BYTES).map((json) => db.prepare(sql).bind(json));
  return [
    ...statements(PRODUCT_CODE_WRITES.forgetProducts, productIds),
    ...statements(
      PRODUCT_CODE_WRITES.forgetDeviceIds,
      codes.filter(([agency]) => agency !== PART_NUMBER_AGENCY),
    ),
    ...statements(PRODUCT_CODE_WRITES.insert, codes),
  ];
}

/**
 * The products the copied codes name for the scan lookups ?1 (src/shared/udi/resolve.ts): each device identifier's, and a
 * part number's when it names one product only (more is ambiguous: no product, no quotes).
 */
export const PRODUCTS_OF_CODES =
  "SELECT c.product_id FROM json_each(?1) l CROSS JOIN product_codes c " +
  "ON c.agency = ifnull(l.value ->> 'agency', '') AND c.code = l.value ->> 'value' " +
  "WHERE l.value ->> 'kind' = 'di' OR " +
  "(SELECT count(*) FROM (SELECT 1 FROM product_codes p WHERE p.agency = '' AND p.code = l.value ->> 'value' LIMIT 2)) = 1";
