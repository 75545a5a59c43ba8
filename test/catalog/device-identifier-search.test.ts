import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import device from "../fixtures/gudid/device.txt?raw";
import gmdnTerms from "../fixtures/gudid/gmdnTerms.txt?raw";
import identifiers from "../fixtures/gudid/identifiers.txt?raw";
import productCodes from "../fixtures/gudid/productCodes.txt?raw";
import { search } from "../helpers/catalog";
import { runImport } from "../helpers/imports";

/**
 * Catalog search finds a device imported from an AccessGUDID release by any of its device identifiers (issue 65):
 * GS1, HIBCC (as GUDID writes it, with or without the `+` flag) and ICCBBA, the primary DI and every package DI.
 */

const ALL = { limit: 10_000 };

/** An HIBCC device GUDID lists without the `+` flag, with a box of 10 (issue 65's record). */
const HIBCC_UNIT = "A999ESU4410";
const HIBCC_BOX = "A999ESU4411";

const [header, template] = device.split("\r\n") as [string, string];
const columns = header.split("|");
/** A device.txt row: the fixture's first device (in commercial distribution) with `fields` in place of its own. */
const deviceRow = (fields: Record<string, string>) => columns.map((column, i) => fields[column] ?? template.split("|")[i]).join("|");

const release = {
  "device.txt": `${device}${deviceRow({
    PrimaryDI: HIBCC_UNIT,
    publicDeviceRecordKey: "9a7b6c5d-4e3f-4a1b-8c2d-3e4f5a6b7c8d",
    brandName: "Vellacott",
    versionModelNumber: "ESU-441",
    catalogNumber: "VS-441",
    dunsNumber: "318604552",
    companyName: "Vellacott Surgical",
    deviceDescription: "Electrosurgical pencil, rocker switch, 3 m cable",
  })}\r\n`,
  "identifiers.txt": `${identifiers}${HIBCC_UNIT}|${HIBCC_UNIT}|Primary|HIBCC|||||\r\n${HIBCC_UNIT}|${HIBCC_BOX}|Package|HIBCC|${HIBCC_UNIT}|10||In Commercial Distribution|Box\r\n`,
  "gmdnTerms.txt": gmdnTerms,
  "productCodes.txt": productCodes,
};

interface StoredIdentifier {
  agency: string;
  device_id: string;
  product_id: string;
}

let imported: StoredIdentifier[];

const allIdentifiers = async () =>
  (await env.CATALOG.prepare("SELECT agency, device_id, product_id FROM device_identifiers").all<StoredIdentifier>()).results;

beforeAll(async () => {
  const before = new Set((await allIdentifiers()).map((row) => row.product_id));
  const job = await runImport({ format: "gudid", onError: "skipFailedRows" }, release);
  expect(job.state).toBe("succeeded");
  imported = (await allIdentifiers()).filter((row) => !before.has(row.product_id));
});

const firstFound = async (query: string) => (await search({ filters: { query }, pagination: ALL })).items[0]?.id;

describe("POST /catalog/search: a device imported from GUDID, by any of its identifiers", () => {
  it("the HIBCC primary DI and package DI GUDID lists without the + flag, typed in any case or with the flag", async () => {
    const product = imported.find((row) => row.device_id === HIBCC_UNIT)!.product_id;
    expect(imported).toContainEqual({ agency: "HIBCC", device_id: HIBCC_BOX, product_id: product });
    for (const query of [HIBCC_UNIT, HIBCC_BOX, HIBCC_BOX.toLowerCase(), `+${HIBCC_UNIT}`, ` ${HIBCC_BOX}\r\n`]) {
      expect(await firstFound(query), query).toBe(product);
    }
  });

  it("every identifier of every imported device, of each agency, as stored and as labels print it", async () => {
    expect(new Set(imported.map((row) => row.agency))).toEqual(new Set(["GS1", "HIBCC", "ICCBBA"]));
    for (const { agency, device_id, product_id } of imported) {
      const typed = agency === "HIBCC" ? [device_id, device_id.replace(/^\+/, "")] : [device_id];
      for (const query of typed) expect(await firstFound(query), `${agency} ${query}`).toBe(product_id);
    }
  });

  it("is the search of the product's part number: the same items and counts", async () => {
    const product = imported.find((row) => row.device_id === HIBCC_BOX)!.product_id;
    const { part_number } = (await env.CATALOG.prepare("SELECT part_number FROM products WHERE id = ?")
      .bind(product)
      .first<{ part_number: string }>())!;
    const byIdentifier = await search({ filters: { query: HIBCC_BOX }, pagination: ALL });
    const byPartNumber = await search({ filters: { query: part_number }, pagination: ALL });
    expect(byIdentifier.items).toEqual(byPartNumber.items);
    expect(byIdentifier.pagination.total).toBe(byPartNumber.pagination.total);
  });
});
