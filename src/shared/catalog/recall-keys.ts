import { deviceIdKey, PRODUCT_KEY_PREFIX, type RecallWrite } from "../recalls/records";
import { normalizePartNumber } from "./part-numbers";

/**
 * A recall that names a product by its catalog or part number only (REF 4410 in its description) is also keyed by the
 * device identifiers the catalog holds for the products of that number, when it is written: a scanned label carries
 * the device identifier, not the part number, and scan to order reads the recalls of its codes in the one round trip
 * it has (src/shared/recalls/scans.ts). The catalog as it is when the recall is written: a product added later is
 * matched by its part number in the stores, not at a scan.
 */
export async function withCatalogKeys<T extends Pick<RecallWrite, "keys">>(catalog: D1Database, writes: readonly T[]): Promise<T[]> {
  const partNumbers = [
    ...new Set(
      writes.flatMap((write) =>
        write.keys
          .filter((key) => key.startsWith(PRODUCT_KEY_PREFIX))
          .map((key) => normalizePartNumber(key.slice(PRODUCT_KEY_PREFIX.length))),
      ),
    ),
  ].filter((pn) => pn.length > 0);
  if (partNumbers.length === 0) return [...writes];
  const { results } = await catalog
    .prepare(
      "SELECT p.normalized_part_number AS pn, d.device_id AS di FROM json_each(?1) j " +
        "JOIN products p ON p.normalized_part_number = j.value JOIN device_identifiers d ON d.product_id = p.id",
    )
    .bind(JSON.stringify(partNumbers))
    .all<{ pn: string; di: string }>();
  const dis = new Map<string, string[]>();
  for (const row of results) dis.set(row.pn, [...(dis.get(row.pn) ?? []), deviceIdKey(row.di)]);
  return writes.map((write) => {
    const added = write.keys
      .filter((key) => key.startsWith(PRODUCT_KEY_PREFIX))
      .flatMap((key) => dis.get(normalizePartNumber(key.slice(PRODUCT_KEY_PREFIX.length))) ?? []);
    return added.length === 0 ? write : { ...write, keys: [...new Set([...write.keys, ...added])] };
  });
}
