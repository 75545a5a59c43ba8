import { closestName } from "../../../platform/closest-name";
import { RECORD_FIELD_NAMES, RowRejected } from "../records";
import { FileFault } from "./window";

/**
 * The CSV columns of a catalog import (docs/api.md, "Catalog import"): the NDJSON record's fields, with the device
 * identifiers flattened into a unit GTIN and one package level. `categories` holds names separated by semicolons. An
 * empty field is an absent one.
 */
export const CSV_COLUMNS = [
  ...RECORD_FIELD_NAMES.filter((name) => name !== "deviceIdentifiers"),
  "gtin",
  "packageGtin",
  "packageQuantity",
] as const;

const REQUIRED = ["partNumber", "title", "manufacturer"] as const;

/** Checks a catalog CSV's header row. */
export const checkCsvHeader = (header: string[]) => checkCsvColumns(header, CSV_COLUMNS, REQUIRED);

/** Checks a header row: every column known, none twice, the required ones present. The file fails otherwise. */
export function checkCsvColumns(header: string[], columns: readonly string[], required: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of header) {
    if (!columns.includes(name)) {
      const suggestion = closestName(name, columns);
      throw new FileFault("unknown_column", `Unknown column "${name}".${suggestion ? ` Did you mean ${suggestion}?` : ""}`);
    }
    if (seen.has(name)) throw new FileFault("duplicate_column", `Column "${name}" appears twice.`);
    seen.add(name);
  }
  const missing = required.filter((name) => !seen.has(name));
  if (missing.length > 0) throw new FileFault("missing_column", `Missing column${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`);
}

/** A CSV row's field by column name (undefined when empty or absent); the row is rejected when its field count is wrong. */
export function csvFieldsOf(header: string[], fields: string[]): (name: string) => string | undefined {
  if (fields.length !== header.length) {
    const message = `The row has ${fields.length} fields; the header has ${header.length}.`;
    throw new RowRejected({ field: null, code: "wrong_field_count", message });
  }
  return (name: string) => {
    const index = header.indexOf(name);
    const field = index < 0 ? "" : fields[index]!;
    return field === "" ? undefined : field;
  };
}

/** The record input of one CSV row (validated afterwards like an NDJSON line). */
export function csvRecordInput(header: string[], fields: string[]): unknown {
  const value = csvFieldsOf(header, fields);
  const record: Record<string, unknown> = {};
  for (const name of ["id", "partNumber", "displayPartNumber", "title", "description", "manufacturer", "status"]) {
    const field = value(name);
    if (field !== undefined) record[name] = field;
  }
  const categories = value("categories");
  if (categories !== undefined)
    record.categories = categories
      .split(";")
      .map((name) => name.trim())
      .filter(Boolean);
  const gtin = value("gtin");
  const packageGtin = value("packageGtin");
  const packageQuantity = value("packageQuantity");
  const identifiers: Record<string, unknown>[] = [];
  if (gtin !== undefined) identifiers.push({ agency: "GS1", deviceId: gtin });
  if (packageGtin !== undefined || packageQuantity !== undefined) {
    identifiers.push({
      agency: "GS1",
      deviceId: packageGtin ?? "",
      ...(gtin === undefined ? {} : { containsDeviceId: gtin }),
      quantity: /^\d{1,7}$/.test(packageQuantity ?? "") ? Number(packageQuantity) : packageQuantity,
    });
  }
  if (identifiers.length > 0) record.deviceIdentifiers = identifiers;
  return record;
}

/** The CSV column of a record field named in a rejection (`deviceIdentifiers.1.quantity` is packageQuantity). */
export function csvColumnOf(field: string | null): string | null {
  if (field === null) return null;
  if (field.startsWith("categories")) return "categories";
  if (field.startsWith("deviceIdentifiers.0")) return "gtin";
  if (field.startsWith("deviceIdentifiers.1")) return field.endsWith("quantity") ? "packageQuantity" : "packageGtin";
  return field;
}
