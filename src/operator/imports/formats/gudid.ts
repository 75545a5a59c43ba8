import { normalizePartNumber } from "../../../shared/catalog/part-numbers";

/**
 * FDA AccessGUDID "delimited" release (https://accessgudid.nlm.nih.gov/download): pipe-delimited UTF-8 text files with
 * one header row, joined by PrimaryDI. This module turns already split rows into import records; it reads no file.
 *
 * Identifiers kept: the Primary DI first, Secondary and Direct Marking DIs as further unit-level identifiers (once
 * each), then Package DIs; Unit of Use and Previous DIs are dropped (other devices may share or take them over).
 * A package no longer in commercial distribution (pkgStatus) is kept: old stock with its label is still on hospital
 * shelves, and its DI still names the device (scan to order and catalog search find it).
 */

export const GUDID_FILES = {
  device: "device.txt",
  identifiers: "identifiers.txt",
  gmdnTerms: "gmdnTerms.txt",
  productCodes: "productCodes.txt",
} as const;

export type GudidFileKind = keyof typeof GUDID_FILES;

/** The columns this module reads, named as in the release's header rows. */
const COLUMNS = {
  device: [
    "PrimaryDI",
    "deviceCommDistributionStatus",
    "brandName",
    "versionModelNumber",
    "catalogNumber",
    "companyName",
    "deviceDescription",
  ],
  identifiers: ["PrimaryDI", "deviceId", "deviceIdType", "deviceIdIssuingAgency", "containsDINumber", "pkgQuantity", "pkgStatus"],
  gmdnTerms: ["PrimaryDI", "gmdnPTName"],
  productCodes: ["PrimaryDI", "productCode"],
} as const satisfies Record<GudidFileKind, readonly string[]>;

export type GudidColumns = Record<string, number>;

const AGENCIES = ["GS1", "HIBCC", "ICCBBA"] as const;
export type GudidAgency = (typeof AGENCIES)[number];

/** One row of identifiers.txt. */
export interface GudidIdentifier {
  primaryDi: string;
  deviceId: string;
  agency: GudidAgency;
  /** Package rows: the DI the package contains (the primary DI or a smaller package), and how many. */
  containsDeviceId: string | null;
  quantity: number | null;
  /** deviceIdType: "Primary", "Secondary", "Package", "Unit of Use", "Direct Marking", "Previous". */
  type: string;
  /** pkgStatus says "Not in Commercial Distribution". */
  discontinued: boolean;
}

export interface GudidGmdnTerm {
  primaryDi: string;
  name: string;
}

/** An import record made of a device (what the importer validates, src/operator/imports/records.ts), keyed by its primary DI. */
export interface GudidRecord {
  partNumber: string;
  title: string;
  description: string;
  manufacturer: string;
  categories: string[];
  status: "active" | "discontinued";
  deviceIdentifiers: { agency: GudidAgency; deviceId: string; containsDeviceId?: string; quantity?: number }[];
}

const TITLE_MAX = 200;
const CATEGORY_MAX = 80;
const CATEGORIES_MAX = 10;
const NOT_DISTRIBUTED = "not in commercial distribution";
const UNIT_LEVEL_TYPES = new Set(["secondary", "direct marking"]);

const canonical = (name: string): string =>
  name
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();

/** The index of each column this module reads, found by name (ignoring case and surrounding spaces) in the header row. */
export function gudidColumns(fileKind: GudidFileKind, headerFields: string[]): GudidColumns {
  const found = new Map<string, number>();
  headerFields.forEach((name, index) => {
    if (!found.has(canonical(name))) found.set(canonical(name), index);
  });
  const columns: GudidColumns = {};
  const missing: string[] = [];
  for (const name of COLUMNS[fileKind]) {
    const index = found.get(canonical(name));
    if (index === undefined) missing.push(name);
    else columns[name] = index;
  }
  if (missing.length > 0) {
    throw new Error(`${GUDID_FILES[fileKind]} lacks the AccessGUDID column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`);
  }
  return columns;
}

/** The trimmed text of a column; empty when the row is shorter than the header. */
const field = (fields: string[], columns: GudidColumns, name: string): string => {
  const index = columns[name];
  return index === undefined ? "" : (fields[index] ?? "").trim();
};

const agencyOf = (text: string): GudidAgency => {
  const agency = AGENCIES.find((known) => known === text.toUpperCase());
  if (!agency) throw new Error(`Unsupported device identifier issuing agency "${text}" (GS1, HIBCC or ICCBBA).`);
  return agency;
};

const quantityOf = (text: string): number | null => (/^\d+$/.test(text) ? Number(text) : null);

/** One identifiers.txt row; throws for an issuing agency the catalog cannot hold (e.g. NDC/NHRIC). */
export function identifierOf(fields: string[], columns: GudidColumns): GudidIdentifier {
  return {
    primaryDi: field(fields, columns, "PrimaryDI"),
    deviceId: field(fields, columns, "deviceId"),
    agency: agencyOf(field(fields, columns, "deviceIdIssuingAgency")),
    containsDeviceId: field(fields, columns, "containsDINumber") || null,
    quantity: quantityOf(field(fields, columns, "pkgQuantity")),
    type: field(fields, columns, "deviceIdType"),
    discontinued: field(fields, columns, "pkgStatus").toLowerCase() === NOT_DISTRIBUTED,
  };
}

/** One gmdnTerms.txt row: the GMDN preferred term name of a device. */
export function gmdnTermOf(fields: string[], columns: GudidColumns): GudidGmdnTerm {
  return { primaryDi: field(fields, columns, "PrimaryDI"), name: field(fields, columns, "gmdnPTName") };
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

/**
 * `text` shortened to at most `max` UTF-16 units (the importer's measure): cut at the last space that keeps at least
 * half of it (else at `max`, never inside a surrogate pair), trailing punctuation dropped, an ellipsis added.
 */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(" ", max - 1);
  const hard = /[\uD800-\uDBFF]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  const kept = text.slice(0, space >= max / 2 ? space : hard).replace(/[\s,;:.-]+$/, "");
  return `${kept}…`;
}

/** Brand and model ("Selective FV-5F-100"), the model left out when it is the part number (compared as part numbers). */
function titleOf(brand: string, model: string, partNumber: string, description: string): string {
  if (!brand) return clip(collapse(description), TITLE_MAX) || partNumber;
  const redundant = !model || normalizePartNumber(model) === normalizePartNumber(partNumber);
  return clip(collapse(redundant ? brand : `${brand} ${model}`), TITLE_MAX);
}

function categoriesOf(gmdnNames: string[]): string[] {
  const names = gmdnNames.map((name) => clip(collapse(name), CATEGORY_MAX)).filter((name) => name !== "");
  return [...new Set(names)].slice(0, CATEGORIES_MAX);
}

/** A device row whose identifiers.txt row for its own DI is missing: the agency follows from the DI's form. */
const primaryAgencyOf = (primaryDi: string): GudidAgency =>
  /^\d+$/.test(primaryDi) ? "GS1" : primaryDi.startsWith("+") ? "HIBCC" : "ICCBBA";

/**
 * The packages, in commercial distribution or not, whose contents are kept (the device, or a package kept before), each after
 * what it contains. Adds them to `kept`.
 */
function packagesOf(identifiers: GudidIdentifier[], kept: Set<string>): GudidRecord["deviceIdentifiers"] {
  const candidates = identifiers.filter((id) => id.type.toLowerCase() === "package");
  const ordered: GudidRecord["deviceIdentifiers"] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const { agency, deviceId, containsDeviceId, quantity } of candidates) {
      if (kept.has(deviceId) || containsDeviceId === null || !kept.has(containsDeviceId)) continue;
      ordered.push({ agency, deviceId, containsDeviceId, ...(quantity === null ? {} : { quantity }) });
      kept.add(deviceId);
      grew = true;
    }
  }
  return ordered;
}

function deviceIdentifiersOf(primaryDi: string, identifiers: GudidIdentifier[]): GudidRecord["deviceIdentifiers"] {
  const primary = identifiers.find((id) => id.type.toLowerCase() === "primary" && id.deviceId === primaryDi);
  const units = [
    { agency: primary?.agency ?? primaryAgencyOf(primaryDi), deviceId: primaryDi },
    ...identifiers.filter((id) => UNIT_LEVEL_TYPES.has(id.type.toLowerCase())),
  ];
  const kept = new Set<string>();
  const unitLevel: GudidRecord["deviceIdentifiers"] = [];
  for (const { agency, deviceId } of units) {
    if (kept.has(deviceId)) continue;
    kept.add(deviceId);
    unitLevel.push({ agency, deviceId });
  }
  return [...unitLevel, ...packagesOf(identifiers, kept)];
}

/**
 * The import record of a device.txt row, given that device's identifiers.txt rows and GMDN preferred term names.
 * Unvalidated: the importer checks it like any other record (an invalid GTIN, an empty part number...).
 */
export function recordOfGudidDevice(
  fields: string[],
  columns: GudidColumns,
  identifiers: GudidIdentifier[],
  gmdnNames: string[],
): GudidRecord {
  const primaryDi = field(fields, columns, "PrimaryDI");
  const model = field(fields, columns, "versionModelNumber");
  const partNumber = field(fields, columns, "catalogNumber") || model;
  const description = field(fields, columns, "deviceDescription");
  const distribution = field(fields, columns, "deviceCommDistributionStatus").toLowerCase();
  return {
    partNumber,
    title: titleOf(field(fields, columns, "brandName"), model, partNumber, description),
    description,
    manufacturer: field(fields, columns, "companyName"),
    categories: categoriesOf(gmdnNames),
    status: distribution === NOT_DISTRIBUTED ? "discontinued" : "active",
    deviceIdentifiers: deviceIdentifiersOf(primaryDi, identifiers),
  };
}
