import { toGtin14 } from "./gtin";

/** The issuing agencies of the device identifiers the catalog holds (GS1 GTINs, HIBCC, ICCBBA's ISBT 128). */
export type Agency = "GS1" | "HIBCC" | "ICCBBA";

export interface StoredDeviceId {
  agency: Agency;
  deviceId: string;
}

/**
 * The device identifiers the catalog may hold for a scanned one: HIBCC's as read and with its `+` flag (catalogs and
 * GUDID releases write both); the others as read.
 */
export const storedDeviceIds = ({ agency, deviceId }: { agency: Agency; deviceId: string }): string[] =>
  agency === "HIBCC" ? [deviceId, `+${deviceId}`] : [deviceId];

/** An HIBCC device identifier without its `+` flag: labeler code (a letter, then 3 letters or digits), product number, unit of measure. */
const HIBCC_DEVICE_ID = /^[A-Z][A-Z0-9]{3}[A-Z0-9]{1,18}[0-9]$/;
/** An ICCBBA device identifier (ISBT 128's PPIC, data identifier =/), which starts with a facility number of digits. */
const ICCBBA_DEVICE_ID = /^(?=.*\d)[A-Z0-9]{6,18}$/;

/**
 * The device identifiers a search word may be, as the catalog stores them, in the order they are tried: a GTIN
 * (8, 12, 13 or 14 digits with a valid check digit) as its GTIN-14; else an HIBCC DI with and without its `+` flag and
 * an ICCBBA PPIC, in capitals. Empty when the word cannot be one.
 */
export function deviceIdsOfWord(word: string): StoredDeviceId[] {
  const gtin = toGtin14(word);
  if (gtin) return [{ agency: "GS1", deviceId: gtin }];
  const capitals = word.toUpperCase();
  const hibcc: StoredDeviceId[] = HIBCC_DEVICE_ID.test(capitals)
    ? storedDeviceIds({ agency: "HIBCC", deviceId: capitals }).map((deviceId) => ({ agency: "HIBCC", deviceId }))
    : [];
  return ICCBBA_DEVICE_ID.test(capitals) ? [...hibcc, { agency: "ICCBBA", deviceId: capitals }] : hibcc;
}

/**
 * The part number of the product that the first of the device identifiers ?1 (JSON: StoredDeviceId[]) that the
 * catalog holds names, at any packaging level; no row when none does. One primary-key read per identifier.
 */
export const PART_NUMBER_OF_DEVICE_ID =
  "SELECT p.part_number FROM json_each(?1) q CROSS JOIN device_identifiers d ON d.agency = q.value ->> 'agency' AND d.device_id = q.value ->> 'deviceId' " +
  "CROSS JOIN products p ON p.id = d.product_id ORDER BY q.key LIMIT 1";
