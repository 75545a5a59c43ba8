/** The issuing agencies of the device identifiers the catalog holds (GS1 GTINs, HIBCC, ICCBBA's ISBT 128). */
export type Agency = "GS1" | "HIBCC" | "ICCBBA";

/**
 * The device identifiers the catalog may hold for a scanned one: HIBCC's as read and with its `+` flag (catalogs and
 * GUDID releases write both); the others as read.
 */
export const storedDeviceIds = ({ agency, deviceId }: { agency: Agency; deviceId: string }): string[] =>
  agency === "HIBCC" ? [deviceId, `+${deviceId}`] : [deviceId];
