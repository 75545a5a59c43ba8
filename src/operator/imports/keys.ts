import type { ImportRecord } from "./records";

/**
 * Which product a record writes (docs/decisions.md): its `id` when it has one (the operator's own key). Without one,
 * the product that already has its unit device identifier, else the one product of the same manufacturer with the
 * same normalized part number (of several, the one this very row was last written to: its source hash; else the one
 * whose content the row has, which it found unchanged and so left without its source hash); a record that
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

/** A product with a record's part number: its manufacturer's name, the source hash it was written from, its content hash. */
export interface PartNumberMatch {
  id: string;
  manufacturer: string;
  source?: string | null;
  content?: string | null;
}

export interface CatalogMatches {
  /** Products by "agency deviceId" of their device identifiers. */
  byDeviceId: Map<string, string>;
  /** Products by normalized part number. */
  byPartNumber: Map<string, PartNumberMatch[]>;
}

export const deviceKey = (agency: string, deviceId: string) => `${agency} ${deviceId}`;

/** `contentHash`: the record's content hash as it would be staged, asked for only when several products match. */
export function productIdOf(record: ImportRecord, matches: CatalogMatches, sourceHash?: string, contentHash?: () => string): string {
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
  // Else the one the row leaves unchanged: a row that found its product unchanged did not store its source hash there.
  if (contentHash && sameManufacturer.length > 1) {
    const hash = contentHash();
    const sameContent = sameManufacturer.filter((candidate) => candidate.content === hash);
    if (sameContent.length === 1) return sameContent[0]!.id;
  }
  return derivedProductId(record);
}
