import { describe, expect, it, vi } from "vitest";
import {
  type FieldOf,
  type ProductStates,
  planStaging,
  readRows,
  triageRows,
  type WindowContext,
} from "../../src/operator/imports/catalog-rows";
import { csvColumnOf } from "../../src/operator/imports/formats/csv";
import { ROWS_PER_SLICE, type WindowRow } from "../../src/operator/imports/formats/window";
import { contentHash, recordOf, sourceHash } from "../../src/operator/imports/records";
import { toGtin14 } from "../../src/shared/catalog/gtin";

/** The catalog window's decisions that read nothing (src/operator/imports/catalog-rows.ts), given what the reads found. */

const asSent: FieldOf = (field) => field;
const record = (id: string | undefined, extra: Record<string, unknown> = {}) => ({
  ...(id === undefined ? {} : { id }),
  partNumber: `P-${id ?? "x"}`,
  title: `Part ${id ?? "x"}`,
  manufacturer: "Rowwerk",
  ...extra,
});
const row = (line: number, value: unknown): WindowRow => ({ line, value, source: JSON.stringify(value) });
const nothingKnown = (): ProductStates => ({ existing: new Map(), stagedLines: new Map() });
const context = (extra: Partial<WindowContext> = {}): WindowContext => ({
  matches: { byDeviceId: new Map(), byPartNumber: new Map() },
  stagedDeviceLines: new Map(),
  canonicalCategory: new Map(),
  known: nothingKnown(),
  ...extra,
});
const valid = (line: number, value: Record<string, unknown>, productId = value.id as string) => ({
  line,
  record: recordOf(value),
  sourceHash: sourceHash(JSON.stringify(value)),
  productId,
});
const GTIN = toGtin14("0614141000012")!;

describe("readRows", () => {
  it("keeps the rows read with their source hash and the id as sent; a row the reader refused is a rejection without key", () => {
    const problem = { field: null, code: "malformed_json", message: "Not JSON" };
    const { read, rejections } = readRows([row(1, record("A")), { line: 2, problem }, row(3, { id: 7 }), row(4, [1])]);
    expect(read.map((r) => [r.line, r.rawId, r.sourceHash])).toEqual([
      [1, "A", sourceHash(JSON.stringify(record("A")))],
      [3, undefined, sourceHash('{"id":7}')],
      [4, undefined, sourceHash("[1]")],
    ]);
    expect(rejections).toEqual([{ line: 2, key: null, problem }]);
  });
});

describe("triageRows", () => {
  it("a row byte for byte what its product was written from is unchanged unvalidated; others are validated or rejected", () => {
    const same = record("SAME");
    const { read } = readRows([
      row(1, same),
      row(2, record("CHANGED")),
      row(3, { ...record("BAD"), title: "" }),
      row(4, record(undefined)),
    ]);
    const existing = new Map([
      ["SAME", { hash: "h-same", sourceHash: sourceHash(JSON.stringify(same)) }],
      ["CHANGED", { hash: "h-changed", sourceHash: "another source" }],
    ]);
    const { unchanged, valid: validRows, rejections } = triageRows(read, existing, asSent);
    expect(unchanged).toEqual([{ line: 1, productId: "SAME", hash: "h-same", sourceHash: sourceHash(JSON.stringify(same)) }]);
    expect(validRows.map((r) => [r.line, r.record.id, r.record.title])).toEqual([
      [2, "CHANGED", "Part CHANGED"],
      [4, undefined, "Part x"],
    ]);
    expect(rejections).toEqual([
      { line: 3, key: "BAD", problem: { field: "title", code: "invalid_value", message: "Must not be empty." } },
    ]);
  });

  it("a rejection names the CSV column for a CSV job", () => {
    const { read } = readRows([row(5, record("G", { deviceIdentifiers: [{ deviceId: "123" }] }))]);
    const { rejections } = triageRows(read, new Map(), csvColumnOf);
    expect(rejections).toEqual([
      expect.objectContaining({ line: 5, key: "G", problem: expect.objectContaining({ field: "gtin", code: "invalid_gtin" }) }),
    ]);
  });
});

describe("planStaging", () => {
  it("decides create, update or unchanged by the content hash, with the catalog's spelling of categories", async () => {
    const known = nothingKnown();
    const same = record("SAME", { categories: ["Valves"] });
    known.existing.set("SAME", { hash: contentHash({ ...recordOf(same), id: "SAME" }), sourceHash: "" });
    known.existing.set("OLD", { hash: "an older content", sourceHash: "" });
    const plan = await planStaging(
      [],
      [valid(1, record("NEW", { categories: ["valves"] })), valid(2, record("OLD")), valid(3, same)],
      context({ known, canonicalCategory: new Map([["valves", "Valves"]]) }),
      asSent,
    );
    expect(plan.rejections).toEqual([]);
    expect(plan.staged.map((s) => (s as unknown[]).slice(0, 3))).toEqual([
      [1, "NEW", "create"],
      [2, "OLD", "update"],
      [3, "SAME", "unchanged"],
    ]);
    // The staged record is the content the hash is of; the product id is a column of its own.
    const [, , , hash, json] = plan.staged[0] as [number, string, string, string, string];
    expect(JSON.parse(json)).toMatchObject({ categories: ["Valves"] });
    expect(JSON.parse(json)).not.toHaveProperty("id");
    expect(hash).toBe(contentHash({ ...recordOf(record("NEW", { categories: ["Valves"] })), id: "NEW" }));
    expect((plan.staged[2] as unknown[])[4]).toBeNull(); // unchanged: no record to apply
  });

  it("the first line with a key wins, in this window or an earlier one; an unchanged row holds its key too", async () => {
    const known = nothingKnown();
    known.stagedLines.set("EARLIER", 2);
    const plan = await planStaging(
      [{ line: 4, productId: "KEPT", hash: "h", sourceHash: "s" }],
      [
        valid(10, record("EARLIER")),
        valid(5, record("KEPT")),
        valid(6, record(undefined), "MPN-ROWWERK-PX"),
        valid(7, record(undefined), "MPN-ROWWERK-PX"),
      ],
      context({ known }),
      asSent,
    );
    expect(plan.staged.map((s) => (s as unknown[]).slice(0, 3))).toEqual([
      [4, "KEPT", "unchanged"],
      [6, "MPN-ROWWERK-PX", "create"],
    ]);
    expect(plan.rejections.map((r) => [r.line, r.key, r.problem.field, r.problem.code])).toEqual([
      [5, "KEPT", "id", "duplicate_key"],
      [7, "MPN-ROWWERK-PX", null, "duplicate_key"],
      [10, "EARLIER", "id", "duplicate_key"],
    ]);
    expect(plan.rejections[2]!.problem.message).toContain("line 2");
  });

  it("a device identifier another product has, or another line claimed, is refused; the CSV job names the column", async () => {
    const withGtin = (id: string) => record(id, { deviceIdentifiers: [{ deviceId: GTIN }] });
    const taken = await planStaging(
      [],
      [valid(1, withGtin("MINE")), valid(2, withGtin("OTHER"))],
      context({ matches: { byDeviceId: new Map([[`GS1 ${GTIN}`, "MINE"]]), byPartNumber: new Map() } }),
      csvColumnOf,
    );
    expect(taken.staged.map((s) => (s as unknown[])[1])).toEqual(["MINE"]);
    expect(taken.stagedDeviceRows).toEqual([["GS1", GTIN, 1]]);
    expect(taken.rejections).toEqual([
      {
        line: 2,
        key: "OTHER",
        problem: { field: "gtin", code: "device_identifier_taken", message: `GS1 ${GTIN} belongs to product MINE.` },
      },
    ]);

    const claimed = await planStaging(
      [],
      [valid(8, withGtin("LATER")), valid(9, withGtin("LATEST"))],
      context({ stagedDeviceLines: new Map([[`GS1 ${GTIN}`, 3]]) }),
      asSent,
    );
    expect(claimed.staged).toEqual([]);
    expect(claimed.rejections.map((r) => [r.line, r.problem.field, r.problem.code, r.problem.message])).toEqual([
      [8, "deviceIdentifiers.0.deviceId", "duplicate_device_identifier", `GS1 ${GTIN} is also on line 3.`],
      [9, "deviceIdentifiers.0.deviceId", "duplicate_device_identifier", `GS1 ${GTIN} is also on line 3.`],
    ]);
  });

  it("lets other work in (a timer turn) every ROWS_PER_SLICE rows, and not at all in a window of fewer", async () => {
    const rows = (count: number) => Array.from({ length: count }, (_, i) => valid(i + 1, record(`R${i}`)));
    const timerTurns = async (count: number) => {
      const timers = vi.spyOn(globalThis, "setTimeout");
      try {
        expect((await planStaging([], rows(count), context(), asSent)).staged).toHaveLength(count);
        return timers.mock.calls.length;
      } finally {
        timers.mockRestore();
      }
    };
    expect(await timerTurns(ROWS_PER_SLICE)).toBe(0);
    expect(await timerTurns(ROWS_PER_SLICE + 1)).toBe(1);
    expect(await timerTurns(2 * ROWS_PER_SLICE + 1)).toBe(2);
  });
});
