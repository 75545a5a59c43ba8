import { describe, expect, it } from "vitest";
import {
  DeviceIdentifierRecordSchema,
  ImportRecordSchema,
  plainRecord,
  RowRejected,
  recordBySchema,
  recordOf,
} from "../../src/operator/imports/records";
import { runs } from "../helpers/depth";

/**
 * recordOf's plain path (src/operator/imports/records.ts, plainRecord) restates the record schema's limits so that the
 * common row skips zod. Its oracle is the schema: on every row below, recordOf and recordBySchema must give the same
 * record or the same rejection (field, code and message). The rows are realistic records, mutated at random
 * (a fixed seed) and one field at a time through a pool of edge values.
 */

const BASE_ROWS: Record<string, unknown>[] = [
  {
    id: "DEMO-000123",
    partNumber: "AB-1234-X",
    title: "Infusion pump pressure sensor",
    description: "Replacement pressure sensor for volumetric infusion pumps.",
    manufacturer: "Acme Medical",
    categories: ["Infusion", "Sensors"],
    deviceIdentifiers: [
      { deviceId: "00614100000008" },
      { agency: "GS1", deviceId: "10614100000005", containsDeviceId: "00614100000008", quantity: 10 },
    ],
  },
  { id: "P.2:x/y-z_1", partNumber: "7734", title: "Valve", manufacturer: "Valvecraft", status: "discontinued" },
  {
    partNumber: "HB 99/1",
    displayPartNumber: "HB-99/1",
    title: "Catheter, 14 Fr",
    manufacturer: "Hibbing Devices",
    deviceIdentifiers: [{ agency: "HIBCC", deviceId: "H123ABC1" }],
  },
  { id: "UNI-1", partNumber: "µ-200", title: "Sonde ® für Ultraschall", manufacturer: "Müller GmbH", categories: ["Bildgebung"] },
];

const GTINS = ["00614100000008", "10614100000005", "614100000008", "0614100000008", "12345670", "00614100000009", "abc", "H123ABC1", "a"];
const POOL: unknown[] = [
  undefined,
  null,
  0,
  1,
  1.5,
  -1,
  10,
  1_000_000,
  1_000_001,
  Number.NaN,
  true,
  "",
  " ",
  "  a  b ",
  "\t x\n y ",
  "a\u0001b",
  "a\u007fb",
  "café",
  "cafe\u0301",
  "\ud800",
  "x\udc00",
  "\ud83d\ude00 emoji",
  "x".repeat(64),
  "x".repeat(65),
  "x".repeat(80),
  "x".repeat(81),
  "x".repeat(120),
  "x".repeat(121),
  "y ".repeat(100),
  "x".repeat(200),
  "x".repeat(201),
  "x".repeat(4001),
  " -- ",
  "Ω",
  "\u00a0nbsp\u00a0",
  "\u2028",
  "Spaced   out",
  "ﬁ ligature",
  "A\u030a",
  [],
  {},
  ["a"],
  [""],
  [" "],
  Array(10).fill("c"),
  Array(11).fill("c"),
  ["A", "a", "A"],
  [1],
  "active",
  "discontinued",
  "withdrawn",
  "Active",
  "GS1",
  "HIBCC",
  "ICCBBA",
  "gs1",
  "-bad",
  "ok.id_1:2/3-4",
  "id with space",
  ...GTINS,
];
/** The schema's own fields, so that a field it gains is mutated too. */
const KEYS = Object.keys(ImportRecordSchema.shape);
const DEVICE_KEYS = Object.keys(DeviceIdentifierRecordSchema.shape);

type Outcome = { record: unknown } | { rejected: unknown };
const outcome = (of: (value: unknown) => unknown, value: unknown): Outcome => {
  try {
    return { record: of(value) };
  } catch (err) {
    if (err instanceof RowRejected) return { rejected: err.problem };
    throw err;
  }
};

/** A deterministic pseudo-random sequence (a linear congruential generator). */
function randomOf(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

function mutate(value: any, { next, pick }: ReturnType<typeof randomOf>): any {
  if (typeof value !== "object" || value === null) return value;
  const kind = Math.floor(next() * 12);
  const dis = Array.isArray(value.deviceIdentifiers) ? value.deviceIdentifiers : null;
  const at = dis ? Math.floor(next() * (dis.length + 1)) : 0;
  const device = dis && typeof dis[at] === "object" && dis[at] !== null ? dis[at] : null;
  if (kind === 0) delete value[pick(KEYS)];
  else if (kind <= 3) value[pick(KEYS)] = structuredClone(pick(POOL));
  else if (kind === 4)
    value[pick(["titel", "Title", "extra", "constructor", "deviceIdentifier", "toString"])] = structuredClone(pick(POOL));
  else if (kind === 5) return JSON.parse(JSON.stringify(value).replace(/^\{/, pick(['{"__proto__":1,', '{"__proto__":{"a":1},'])));
  else if (kind <= 8 && dis) {
    const change = Math.floor(next() * 7);
    if (change === 0) dis.push(structuredClone(dis[0] ?? { deviceId: pick(GTINS) }));
    else if (change === 1 && device) device[pick(DEVICE_KEYS)] = structuredClone(pick(POOL));
    else if (change === 2 && device) device[pick(DEVICE_KEYS)] = pick(GTINS);
    else if (change === 3 && device) delete device[pick(DEVICE_KEYS)];
    else if (change === 4 && device) device.extra = 1;
    else if (change === 5) dis[at] = structuredClone(pick(POOL));
    else
      dis.push(
        ...Array.from({ length: Math.floor(next() * 20) }, () => ({
          agency: pick(["GS1", "HIBCC", "ICCBBA", undefined]),
          deviceId: pick(GTINS),
        })),
      );
  } else if (kind === 9 && Array.isArray(value.categories)) value.categories.push(pick(POOL));
  else if (kind === 10) return structuredClone(pick([null, [], "x", 1, [value]]));
  else if (kind === 11) {
    const key = pick(KEYS);
    value[key] = `${pick([" ", "", "\t", "\u00e9", "e\u0301", "  "])}${String(value[key] ?? "z")}${pick([" ", "", "\n", "\ud800"])}`;
  }
  return value;
}

describe("catalog import records: the plain path equals the schema", () => {
  it("takes the common rows, as the schema would parse them", () => {
    for (const row of BASE_ROWS) {
      expect(plainRecord(row)).toBeDefined();
      expect(recordOf(row)).toEqual(recordBySchema(row));
    }
  });

  const mutatedRows = runs({ quick: 8_000, deep: 60_000 });
  it(`gives the schema's record or rejection on ${mutatedRows} rows mutated at random`, () => {
    const random = randomOf(46);
    const seen = { plain: 0, records: 0, codes: new Set<string>() };
    for (let i = 0; i < mutatedRows; i++) {
      let row = structuredClone(random.pick(BASE_ROWS));
      if (random.next() < 0.3) delete row.id;
      for (let changes = Math.floor(random.next() * 4); changes > 0; changes--) row = mutate(row, random);
      const expected = outcome(recordBySchema, row);
      const actual = outcome(recordOf, row);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) expect({ row, actual }).toEqual({ row, actual: expected });
      if (plainRecord(row) !== undefined) seen.plain++;
      if ("record" in expected) seen.records++;
      else seen.codes.add((expected.rejected as { code: string }).code);
    }
    // The rows cover both paths and every kind of rejection the mutations can make.
    expect(seen.plain).toBeGreaterThan(mutatedRows / 6);
    expect(seen.records).toBeGreaterThan(mutatedRows / 6);
    expect([...seen.codes].sort()).toEqual(
      expect.arrayContaining([
        "control_character",
        "duplicate_device_identifier",
        "ill_formed_text",
        "invalid_device_identifier",
        "invalid_gtin",
        "invalid_value",
        "missing_field",
        "unknown_field",
        "wrong_type",
      ]),
    );
  });

  it("gives the schema's record or rejection with each field, and each device identifier's, set to each edge value", () => {
    let cases = 0;
    for (const base of BASE_ROWS) {
      for (const withId of [true, false]) {
        const check = (row: Record<string, unknown>) => {
          if (!withId) delete row.id;
          cases++;
          expect(JSON.stringify(outcome(recordOf, row))).toBe(JSON.stringify(outcome(recordBySchema, row)));
        };
        for (const key of [...KEYS, "extra"]) for (const value of POOL) check({ ...structuredClone(base), [key]: structuredClone(value) });
        for (const key of [...DEVICE_KEYS, "extra"]) {
          for (const value of POOL) {
            const row = structuredClone(base) as { deviceIdentifiers?: Record<string, unknown>[] };
            if (!row.deviceIdentifiers?.[0]) continue;
            row.deviceIdentifiers[0][key] = structuredClone(value);
            check(row);
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(3_000);
  });
});
