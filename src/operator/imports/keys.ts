import type { ImportRecord } from "./records";

/**
 * Which product a record writes (docs/decisions.md): its `id` when it has one (the operator's own key). Without one,
 * the product that already has its unit device identifier, else the one product of the same manufacturer with the
 * same normalized part number (of several, the one this very row was last written to: its source hash); a record that
 * matches none gets an id made from the same, so that importing the file again finds it again:
 * `<agency>-<unit device identifier>` (GS1-00614141000012), else `MPN-<manufacturer>-<part>`.
 */

/** The unit-level device identifier of a record (the first without a package level). */
export const unitIdentifierOf = (record: ImportRecord) => record.deviceIdentifiers.find((di) => di.containsDeviceId === null);

const compact = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, "");

export function derivedProductId(record: ImportRecord): string {
  const unit = unitIdentifierOf(record);
  if (unit) return `${unit.agency}-${unit.deviceId}`.slice(0, 64);
  return `MPN-${compact(record.manufacturer).slice(0, 24)}-${record.normalizedPartNumber}`.slice(0, 64);
}

export interface CatalogMatches {
  /** Products by "agency deviceId" of their device identifiers. */
  byDeviceId: Map<string, string>;
  /** Products by normalized part number, with their manufacturer's name and the source hash they were written from. */
  byPartNumber: Map<string, { id: string; manufacturer: string; source?: string | null }[]>;
}

export const deviceKey = (agency: string, deviceId: string) => `${agency} ${deviceId}`;

export function productIdOf(record: ImportRecord, matches: CatalogMatches, sourceHash?: string): string {
  if (record.id) return record.id;
  const unit = unitIdentifierOf(record);
  const byUnit = unit ? matches.byDeviceId.get(deviceKey(unit.agency, unit.deviceId)) : undefined;
  if (byUnit) return byUnit;
  const sameManufacturer = (matches.byPartNumber.get(record.normalizedPartNumber) ?? []).filter(
    (candidate) => candidate.manufacturer.toLowerCase() === record.manufacturer.toLowerCase(),
  );
  if (sameManufacturer.length === 1) return sameManufacturer[0]!.id;
  // Several: the one this row wrote last time, so that reading a file again never moves a row to a new product (the
  // file itself may have added a product with the same part number).
  const writtenFromThisRow = sameManufacturer.filter((candidate) => sourceHash !== undefined && candidate.source === sourceHash);
  if (writtenFromThisRow.length === 1) return writtenFromThisRow[0]!.id;
  return derivedProductId(record);
}
