/**
 * How many units of a product one of its device identifiers names: 1 for the unit level; for a package level (GUDID's
 * unit of use, box, case...), its quantity times that of the level it contains, down to the unit. A broken or circular
 * chain stops where it breaks.
 */
export function unitsNamedBy(
  identifiers: readonly { deviceId: string; containsDeviceId: string | null; quantity: number | null }[],
  deviceId: string,
): number {
  let units = 1;
  const seen = new Set<string>();
  for (let at: string | null = deviceId; at !== null && !seen.has(at); ) {
    seen.add(at);
    const level = identifiers.find((identifier) => identifier.deviceId === at);
    if (!level?.containsDeviceId) break;
    units *= level.quantity ?? 1;
    at = level.containsDeviceId;
  }
  return units;
}
