import type { DeviceIdentifier } from "../catalog/catalog";
import { storedDeviceIds } from "../catalog/device-ids";
import { unitsNamedBy } from "./packaging";
import type { ScannedCode, ScanProblem, UdiData } from "./scan";

/**
 * Scanned codes to catalog products (docs/api.md, "Scan to order"): every device identifier and part number the codes
 * may name, looked up in one statement on the catalog database; then each code's reading is decided:
 * 1. its device identifier, when the catalog has it (a case's identifier names its unit product, with the quantity);
 * 2. else, for a code with no mark of its format, an exact part number of the catalog (`10D9T` is a part number
 *    before it is GS1 AI 10, a lot with no product);
 * 3. else the reading's fault: its problem, a device identifier not in the catalog, or no device identifier at all.
 * An HIBCC secondary code takes the product of the primary code of the same request whose check character is its
 * link character (and lends it its lot, serial and dates).
 */

export interface ResolvedProduct {
  id: string;
  partNumber: string;
  title: string;
  description: string;
  manufacturer: string;
  status: "active" | "discontinued" | "withdrawn";
  deviceIdentifiers: DeviceIdentifier[];
}

export interface Packaging {
  /** unit: the identifier of the product itself; package: of a package level (a case) holding `quantity` units (nested levels multiplied). */
  level: "unit" | "package";
  deviceId: string;
  containsDeviceId: string | null;
  quantity: number;
}

export interface Resolution {
  status: "resolved" | "unresolved";
  reading: "gs1" | "gtin" | "hibcc" | "isbt128" | "partNumber" | null;
  form: string | null;
  /** Other readings the code also parses as (a part number that is also a GS1 element string, say). */
  alternatives: string[];
  udi: UdiData | null;
  packaging: Packaging | null;
  product: ResolvedProduct | null;
  /** The index of the code this one is linked to (an HIBCC secondary's primary, or the other way round). */
  linkedTo: number | null;
  problem: ScanProblem | null;
}

interface Hit {
  k: number;
  kind: "di" | "part";
  matched: string | null;
  contains: string | null;
  quantity: number | null;
  product: string;
}

/** One thing to look up for code `k`: a device identifier of an agency, or a normalized part number. */
export interface ScanLookup {
  k: number;
  kind: "di" | "part";
  agency?: string;
  value: string;
}

/** The lookups of the codes: each code's device identifier (HIBCC with and without its `+`) and part number. */
export function scanLookups(scanned: readonly ScannedCode[]): ScanLookup[] {
  return scanned.flatMap((scan, k) => {
    const lookups: ScanLookup[] = [];
    const data = scan.reading?.data;
    if (data?.deviceId) {
      for (const value of storedDeviceIds({ agency: data.agency, deviceId: data.deviceId })) {
        lookups.push({ k, kind: "di", agency: data.agency, value });
      }
    }
    if (scan.partNumber) lookups.push({ k, kind: "part", value: scan.partNumber });
    return lookups;
  });
}

/** Most products a part number may name before the code is called ambiguous. */
const PART_MATCHES = 5;

/**
 * One statement, driven by the lookups (json_each first): the matching products with their manufacturer and device
 * identifiers (unit level first), and for each device identifier hit the level it names.
 */
export const RESOLVE_SQL =
  "WITH hits AS MATERIALIZED (" +
  "SELECT l.value ->> 'k' AS k, 'di' AS kind, d.device_id AS matched, d.contains_device_id AS contains, d.quantity, d.product_id AS product " +
  "FROM json_each(?1) l CROSS JOIN device_identifiers d ON l.value ->> 'kind' = 'di' AND d.agency = l.value ->> 'agency' AND d.device_id = l.value ->> 'value' " +
  "UNION ALL SELECT k, 'part', NULL, NULL, NULL, product FROM (SELECT l.value ->> 'k' AS k, p.id AS product, " +
  "row_number() OVER (PARTITION BY l.key ORDER BY p.id) AS n FROM json_each(?1) l CROSS JOIN products p " +
  `ON l.value ->> 'kind' = 'part' AND p.normalized_part_number = l.value ->> 'value') WHERE n <= ${PART_MATCHES + 1}) ` +
  "SELECT h.k, h.kind, h.matched, h.contains, h.quantity, h.product, p.part_number, p.title, p.description, m.name AS manufacturer, p.status, " +
  "(SELECT json_group_array(json_object('agency', d.agency, 'deviceId', d.device_id, 'containsDeviceId', d.contains_device_id, 'quantity', d.quantity)) " +
  "FROM (SELECT * FROM device_identifiers WHERE product_id = p.id ORDER BY quantity IS NOT NULL, quantity, device_id) d) AS device_identifiers " +
  "FROM hits h CROSS JOIN products p ON p.id = h.product CROSS JOIN manufacturers m ON m.id = p.manufacturer_id";

export async function lookUpScans(
  catalog: D1Database,
  scanned: readonly ScannedCode[],
  lookups = scanLookups(scanned),
): Promise<Resolution[]> {
  const rows =
    lookups.length === 0
      ? []
      : (await catalog.prepare(RESOLVE_SQL).bind(JSON.stringify(lookups)).all<Hit & Record<string, unknown>>()).results;
  const products = new Map<string, ResolvedProduct>();
  for (const row of rows) {
    products.set(row.product, {
      id: row.product,
      partNumber: row.part_number as string,
      title: row.title as string,
      description: row.description as string,
      manufacturer: row.manufacturer as string,
      status: row.status as ResolvedProduct["status"],
      deviceIdentifiers: JSON.parse(row.device_identifiers as string) as DeviceIdentifier[],
    });
  }
  const resolutions = scanned.map((scan, k) =>
    decide(
      scan,
      rows.filter((row) => row.k === k),
      products,
    ),
  );
  linkHibcc(scanned, resolutions);
  return resolutions;
}

function decide(scan: ScannedCode, hits: Hit[], products: Map<string, ResolvedProduct>): Resolution {
  const reading = scan.reading;
  const base: Resolution = {
    status: "unresolved",
    reading: reading?.kind ?? null,
    form: reading?.form ?? null,
    alternatives: [],
    udi: reading?.data ?? null,
    packaging: null,
    product: null,
    linkedTo: null,
    problem: scan.problem,
  };
  const device = hits.find((hit) => hit.kind === "di");
  if (device && reading) {
    return {
      ...base,
      status: "resolved",
      alternatives: hits.some((hit) => hit.kind === "part") ? ["partNumber"] : [],
      packaging: {
        level: device.contains ? "package" : "unit",
        deviceId: device.matched!,
        containsDeviceId: device.contains,
        quantity: unitsNamedBy(products.get(device.product)?.deviceIdentifiers ?? [], device.matched!),
      },
      product: products.get(device.product) ?? null,
    };
  }
  const parts = hits.filter((hit) => hit.kind === "part");
  if (parts.length > 0) {
    const alternatives = reading ? [reading.kind] : [];
    if (parts.length > 1) {
      const ids = parts.slice(0, PART_MATCHES).map((hit) => hit.product);
      const more = parts.length > PART_MATCHES ? " and more" : "";
      return {
        ...base,
        reading: "partNumber",
        form: "partNumber",
        alternatives,
        udi: null,
        problem: {
          element: null,
          code: "ambiguous_part_number",
          message: `Part number ${scan.code} names ${ids.join(", ")}${more}: scan the device identifier or use catalog search.`,
        },
      };
    }
    return {
      ...base,
      status: "resolved",
      reading: "partNumber",
      form: "partNumber",
      alternatives,
      udi: null,
      product: products.get(parts[0]!.product) ?? null,
      problem: null,
    };
  }
  if (!reading) {
    const orPart = scan.partNumber ? " Nor is it a part number of the catalog." : "";
    return { ...base, problem: { ...scan.problem!, message: `${scan.problem!.message}${orPart}` } };
  }
  if (reading.data.deviceId) {
    const element = reading.data.agency === "GS1" ? "01" : reading.data.agency === "ICCBBA" ? "=/" : "primary";
    const message = `No product of the catalog has ${reading.data.agency} device identifier ${reading.data.deviceId}.`;
    return { ...base, problem: { element, code: "unknown_device_identifier", message } };
  }
  if (reading.hibcc?.structure === "secondary") return base; // linked below, or refused there
  const message = scan.partNumber
    ? "The code reads as GS1 data without a GTIN (AI 01), and it is no part number of the catalog."
    : "The code carries no device identifier (GS1 AI 01): a lot, serial, date, SSCC, GLN or GIAI alone names no product.";
  return { ...base, problem: { element: "01", code: "no_device_identifier", message } };
}

/**
 * Pairs each HIBCC secondary code with the primary code of the request whose check character is its link character
 * (the nearest one before it, else after it): the secondary takes the primary's product, the primary the secondary's
 * lot, serial, dates and quantity.
 */
function linkHibcc(scanned: readonly ScannedCode[], resolutions: Resolution[]) {
  scanned.forEach((scan, k) => {
    if (scan.reading?.hibcc?.structure !== "secondary") return;
    const link = scan.reading.hibcc.link;
    const primaries = scanned
      .map((other, i) => ({ other, i }))
      .filter(({ other }) => other.reading?.hibcc?.structure === "primary" && other.reading.hibcc.check === link);
    const primary = primaries.filter(({ i }) => i < k).at(-1) ?? primaries[0];
    const mine = resolutions[k]!;
    if (!primary) {
      mine.problem = {
        element: "link",
        code: "unlinked_secondary",
        message: `An HIBCC secondary code names its primary by its link character ${JSON.stringify(link)}; no primary code of this request has that check character.`,
      };
      return;
    }
    const theirs = resolutions[primary.i]!;
    const { lot, serial, expiry, production, quantity } = mine.udi!;
    if (theirs.udi) Object.assign(theirs.udi, { lot, serial, expiry, production, quantity });
    theirs.linkedTo = k;
    Object.assign(mine, {
      status: theirs.status,
      udi: { ...mine.udi!, deviceId: theirs.udi?.deviceId ?? null },
      packaging: theirs.packaging,
      product: theirs.product,
      linkedTo: primary.i,
      problem: theirs.problem,
    });
  });
}
