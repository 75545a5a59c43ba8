import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import {
  GUDID_FILES,
  type GudidFileKind,
  type GudidIdentifier,
  type GudidRecord,
  gmdnTermOf,
  gudidColumns,
  identifierOf,
  recordOfGudidDevice,
} from "../../src/operator/imports/formats/gudid";
import { isGtin } from "../../src/shared/catalog/gtin";

/** The options of the importer's GUDID reader. */
const OPTIONS = { delimiter: "|", quote: false, bom: true, skip_empty_lines: true } as const;
const FIXTURES = path.join(import.meta.dirname, "../fixtures/gudid");

interface Row {
  fields: string[];
  line: number;
}

function readFixture(kind: GudidFileKind): { columns: Record<string, number>; rows: Row[] } {
  const text = readFileSync(path.join(FIXTURES, GUDID_FILES[kind]), "utf8");
  // With `info: true` each record comes with its line number; csv-parse's types do not model that option.
  const [header, ...rows] = parse(text, { ...OPTIONS, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  return { columns: gudidColumns(kind, header!.record), rows: rows.map(({ record, info }) => ({ fields: record, line: info.lines })) };
}

function groupByPrimaryDi<T extends { primaryDi: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.primaryDi, [...(groups.get(item.primaryDi) ?? []), item]);
  return groups;
}

/** Every device of the fixture by its primary DI: its device.txt line and its record, joined in memory. */
function fixtureRecords(): Map<string, { line: number; record: GudidRecord }> {
  const identifierFile = readFixture("identifiers");
  const gmdnFile = readFixture("gmdnTerms");
  const identifiers = groupByPrimaryDi(identifierFile.rows.map((row) => identifierOf(row.fields, identifierFile.columns)));
  const terms = groupByPrimaryDi(gmdnFile.rows.map((row) => gmdnTermOf(row.fields, gmdnFile.columns)));
  const devices = readFixture("device");
  const primaryDi = devices.columns.PrimaryDI!;
  return new Map(
    devices.rows.map(({ fields, line }) => {
      const di = fields[primaryDi]!;
      const names = (terms.get(di) ?? []).map((term) => term.name);
      return [di, { line, record: recordOfGudidDevice(fields, devices.columns, identifiers.get(di) ?? [], names) }];
    }),
  );
}

const records = fixtureRecords();
const recordOf = (primaryDi: string): GudidRecord => records.get(primaryDi)!.record;

/** The deliberately bad device row: a GS1 primary DI whose check digit is wrong (00871234100619 is valid). */
const BAD_PRIMARY_DI = "00871234100610";
const BAD_LINE = 13;

describe("AccessGUDID delimited release (test/fixtures/gudid)", () => {
  it("reads every device row, each with the header's columns, and the bad row at its line", () => {
    const device = readFixture("device");
    expect(device.rows).toHaveLength(12);
    expect(Object.keys(device.columns)).toHaveLength(7);
    for (const { fields } of device.rows) expect(fields).toHaveLength(34);
    expect(records.get(BAD_PRIMARY_DI)?.line).toBe(BAD_LINE);
    expect(isGtin(BAD_PRIMARY_DI)).toBe(false);
    expect(recordOf(BAD_PRIMARY_DI).deviceIdentifiers[0]).toEqual({ agency: "GS1", deviceId: BAD_PRIMARY_DI });
  });

  it("joins identifiers.txt rows that are not sorted by PrimaryDI", () => {
    const { columns, rows } = readFixture("identifiers");
    const order = rows.map(({ fields }) => fields[columns.PrimaryDI!]!);
    expect(order).not.toEqual([...order].sort());
  });

  it("titles a device by brand, adding the model only when it is not the part number", () => {
    const selective = recordOf("00871234100510");
    expect(selective).toMatchObject({
      partNumber: "FVS-5100",
      title: "Fennowick Selective™ FV-5F-100",
      manufacturer: "Fennowick Vascular, Inc.",
      status: "active",
      categories: ["Angiographic catheter, single-use"],
    });
    expect(recordOf("00871234201507")).toMatchObject({ partNumber: "GW35-150", title: "Fennowick Glide" });
    // No catalog number: the model is the part number.
    expect(recordOf("03760999001255")).toMatchObject({ partNumber: "VC-3516", title: "Brisemont Corticale" });
    expect(recordOf("+H729BP03000")).toMatchObject({ partNumber: "BP0300", title: "Kestrel µPunch BP-3.0" });
  });

  it("titles a device without a brand name by the start of its description", () => {
    const drape = recordOf("+H729SD12000");
    expect(drape.description.length).toBeGreaterThan(200);
    expect(drape.title.length).toBeLessThanOrEqual(200);
    expect(drape.title).toBe(
      "Fenestrated surgical drape, 120 x 180 cm, with 10 x 12 cm adhesive fenestration, fluid collection pouch and instrument pad, " +
        "reinforced absorbent zone around the fenestration, sterile, single-use…",
    );
  });

  it("keeps quotes and non-ASCII text as they are", () => {
    expect(recordOf("00871234100510").description).toBe('Angiographic catheter, 5 Fr, 100 cm, 5" curved tip, hydrophilic coating');
    expect(recordOf("00871234201507").description).toBe('Guidewire, 0.035" x 150 cm, J-tip, PTFE-coated');
    expect(recordOf("03760999001231")).toMatchObject({
      manufacturer: "Brisemont Orthopédie SAS",
      description: "Vis corticale autotaraudeuse Ø 3,5 mm, longueur 14 mm, acier inoxydable, stérile",
    });
    expect(recordOf("A9996DMX044T0016").description).toBe("Acellular dermal matrix, 4 × 4 cm, 1–2 mm thick, human-derived");
  });

  it("marks a device not in commercial distribution discontinued", () => {
    expect(recordOf("00871234100411").status).toBe("discontinued");
    const statuses = [...records.values()].map(({ record }) => record.status);
    expect(statuses.filter((status) => status === "discontinued")).toHaveLength(1);
  });

  it("lists the primary DI first, then its packages after what they contain, with their quantities", () => {
    expect(recordOf("00871234100510").deviceIdentifiers).toEqual([
      { agency: "GS1", deviceId: "00871234100510" },
      { agency: "GS1", deviceId: "10871234100517", containsDeviceId: "00871234100510", quantity: 10 },
      { agency: "GS1", deviceId: "20871234100514", containsDeviceId: "10871234100517", quantity: 4 },
    ]);
    expect(recordOf("03760999001231").deviceIdentifiers).toEqual([
      { agency: "GS1", deviceId: "03760999001231" },
      { agency: "GS1", deviceId: "13760999001238", containsDeviceId: "03760999001231", quantity: 10 },
    ]);
  });

  it("keeps packages no longer in commercial distribution (old stock still carries them); drops Unit of Use DIs and a Direct Marking DI equal to the primary", () => {
    expect(recordOf("+H729BP03000").deviceIdentifiers).toEqual([
      { agency: "HIBCC", deviceId: "+H729BP03000" },
      { agency: "HIBCC", deviceId: "+H729BP03001", containsDeviceId: "+H729BP03000", quantity: 50 },
      { agency: "HIBCC", deviceId: "+H729BP03002", containsDeviceId: "+H729BP03000", quantity: 25 },
    ]);
    expect(recordOf("00871234100411").deviceIdentifiers).toEqual([
      { agency: "GS1", deviceId: "00871234100411" },
      { agency: "GS1", deviceId: "10871234100418", containsDeviceId: "00871234100411", quantity: 10 },
    ]);
    expect(recordOf("+H729SD12000").deviceIdentifiers).toEqual([{ agency: "HIBCC", deviceId: "+H729SD12000" }]);
    expect(recordOf("00867530005123").deviceIdentifiers).toEqual([{ agency: "GS1", deviceId: "00867530005123" }]);
  });

  it("takes ICCBBA device identifiers as they are", () => {
    expect(recordOf("A9996CSA100T0120")).toMatchObject({
      title: "Caldera Cortical Strut",
      deviceIdentifiers: [{ agency: "ICCBBA", deviceId: "A9996CSA100T0120" }],
    });
  });

  it("makes GMDN preferred terms the categories, none for a device without any", () => {
    expect(recordOf("03760999004065").categories).toEqual([
      "Orthopaedic bone plate, non-bioabsorbable, sterile",
      "Bone-screw internal fixation system, non-bioabsorbable, sterile",
    ]);
    expect(recordOf("+H729SD12000").categories).toEqual([]);
  });

  it("gives valid GTINs for every GS1 identifier but the bad row's", () => {
    for (const [primaryDi, { record }] of records) {
      if (primaryDi === BAD_PRIMARY_DI) continue;
      for (const di of record.deviceIdentifiers.filter((id) => id.agency === "GS1")) {
        expect(isGtin(di.deviceId), di.deviceId).toBe(true);
        if (di.containsDeviceId) expect(isGtin(di.containsDeviceId), di.containsDeviceId).toBe(true);
      }
    }
  });
});

describe("GUDID rows", () => {
  const identifierHeader = [
    "PrimaryDI",
    "deviceId",
    "deviceIdType",
    "deviceIdIssuingAgency",
    "containsDINumber",
    "pkgQuantity",
    "pkgStatus",
  ];

  it("finds columns by name, ignoring case, order and surrounding spaces", () => {
    const columns = gudidColumns("gmdnTerms", ["\uFEFFprimarydi", "gmdnCode", " GMDNPTNAME "]);
    expect(columns).toEqual({ PrimaryDI: 0, gmdnPTName: 2 });
    expect(gmdnTermOf(["+H729BP03000", "44917", " Dermal biopsy punch, single-use "], columns)).toEqual({
      primaryDi: "+H729BP03000",
      name: "Dermal biopsy punch, single-use",
    });
  });

  it("names the columns a header lacks", () => {
    expect(() => gudidColumns("device", ["PrimaryDI", "brandName", "catalogNumber", "deviceDescription"])).toThrow(
      "device.txt lacks the AccessGUDID columns deviceCommDistributionStatus, versionModelNumber, companyName.",
    );
    expect(() => gudidColumns("identifiers", identifierHeader.slice(0, -1))).toThrow(
      "identifiers.txt lacks the AccessGUDID column pkgStatus.",
    );
  });

  it("reads an identifier row, and refuses an agency the catalog cannot hold", () => {
    const columns = gudidColumns("identifiers", identifierHeader);
    const row = ["00871234100510", "10871234100517", "Package", "GS1", "00871234100510", "10", "In Commercial Distribution"];
    expect(identifierOf(row, columns)).toEqual<GudidIdentifier>({
      primaryDi: "00871234100510",
      deviceId: "10871234100517",
      agency: "GS1",
      containsDeviceId: "00871234100510",
      quantity: 10,
      type: "Package",
      discontinued: false,
    });
    expect(() => identifierOf(["0123456789", "0123456789", "Primary", "NDC/NHRIC", "", "", ""], columns)).toThrow(/NDC\/NHRIC/);
  });
});
