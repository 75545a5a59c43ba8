import { ValidationError } from "../../platform/errors";
import { sideBySide } from "../../platform/side-by-side";
import { type Agency, storedDeviceIds } from "../catalog/device-ids";
import { unitsNamedBy } from "./packaging";
import { scanCode } from "./scan";

/**
 * Traceability (docs/api.md, "Scan to order"): the UDIs a vendor scans from the units it ships, checked against the
 * order line's product before the ship move commits them with its parcel (src/api/vendors/fulfilment.ts).
 */

/** A shipped unit's UDI, or a package's (a case names `units` of the product). */
export interface ShippedUnit {
  agency: Agency;
  deviceId: string;
  lot: string | null;
  serial: string | null;
  expiry: string | null;
  units: number;
}

/** Codes per ship move: a parcel of up to 500 labels scanned. */
export const MAX_SHIPPED_UNIT_CODES = 500;

/**
 * Reads the codes and checks that each names the line's product (any of its packaging levels): a 400 naming
 * `units[i]` otherwise. One round trip: the line's product (in `home`, the database that holds the line: its tenant's
 * store) and the codes' device identifiers (catalog) side by side. An unknown line, or another vendor's, reads as no
 * product: the move then answers its 404.
 */
export async function readShippedUnits(
  stores: { home: D1Database; catalog: D1Database },
  vendorId: number,
  lineId: number,
  codes: readonly string[],
  now = new Date(),
): Promise<ShippedUnit[]> {
  const [units] = await readShippedUnitsOfLines(stores, vendorId, [{ lineId, codes, field: "units" }], now);
  return units!;
}

/**
 * readShippedUnits for several lines at once (a parcel of several lines: POST /vendor/api/shipments), still one round
 * trip; each line's problems are named by its `field` (`lines[3].units`). The units of each line, in order; none for
 * a line that is unknown or another vendor's (the move answers for it).
 */
export async function readShippedUnitsOfLines(
  { home, catalog }: { home: D1Database; catalog: D1Database },
  vendorId: number,
  lines: readonly { lineId: number; codes: readonly string[]; field: string }[],
  now = new Date(),
): Promise<ShippedUnit[][]> {
  const problems: Record<string, string[]> = {};
  const read = lines.map(({ codes, field }) =>
    codes.map((code, i) => {
      const scan = scanCode(code, now);
      const data = scan.reading?.data;
      if (!data?.deviceId) {
        problems[`${field}[${i}]`] = [
          scan.problem?.message ?? "A shipped unit's code carries its device identifier (an HIBCC secondary alone does not).",
        ];
        return null;
      }
      return data;
    }),
  );
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  const wanted = [
    ...new Map(
      read
        .flat()
        .flatMap((data) => storedDeviceIds({ agency: data!.agency, deviceId: data!.deviceId! }).map((deviceId) => [data!.agency, deviceId]))
        .map((pair) => [pair.join("\u0000"), pair]),
    ).values(),
  ];
  const [found, identifiers] = await sideBySide([
    // A live order's line only: a test order's is the sandbox's, and as unknown to a vendor as no line at all.
    home
      .prepare(
        "SELECT l.id, l.product_id FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.id IN (SELECT value FROM json_each(?)) AND l.vendor_id = ? AND o.tenant_id > 0",
      )
      .bind(JSON.stringify(lines.map((line) => line.lineId)), vendorId)
      .all<{ id: number; product_id: string }>(),
    // Every identifier of the products the codes name: a package's units multiply down its levels.
    catalog
      .prepare(
        "SELECT agency, device_id, product_id, contains_device_id, quantity FROM device_identifiers WHERE product_id IN " +
          "(SELECT d.product_id FROM json_each(?) j CROSS JOIN device_identifiers d ON d.agency = j.value ->> '$[0]' AND d.device_id = j.value ->> '$[1]')",
      )
      .bind(JSON.stringify(wanted))
      .all<{ agency: string; device_id: string; product_id: string; contains_device_id: string | null; quantity: number | null }>(),
  ]);
  const productOf = new Map(found.results.map((row) => [row.id, row.product_id]));
  const answer = lines.map(({ lineId, field }, l): ShippedUnit[] => {
    const product = productOf.get(lineId);
    if (product === undefined) return [];
    return read[l]!.map((data, i): ShippedUnit => {
      const { agency, lot, serial, expiry } = data!;
      const deviceId = data!.deviceId!;
      const stored = storedDeviceIds({ agency, deviceId });
      const match = identifiers.results.find((row) => row.agency === agency && stored.includes(row.device_id));
      if (match?.product_id !== product) {
        problems[`${field}[${i}]`] = [
          match
            ? `${agency} device identifier ${deviceId} is product ${match.product_id}, not this line's product ${product}.`
            : `No product of the catalog has ${agency} device identifier ${deviceId}; this line's product is ${product}.`,
        ];
      }
      const levels = identifiers.results
        .filter((row) => row.product_id === match?.product_id)
        .map((row) => ({ deviceId: row.device_id, containsDeviceId: row.contains_device_id, quantity: row.quantity }));
      return { agency, deviceId, lot, serial, expiry, units: match ? unitsNamedBy(levels, match.device_id) : 1 };
    });
  });
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  return answer;
}
