import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogNumbersOf, type RecallRecord, readRecall, recordsOf } from "../../src/operator/recalls/openfda";
import { parseCodeInfo } from "../../src/shared/recalls/code-info";
import { matchUnit } from "../../src/shared/recalls/match";

/** openFDA's device recall records read into one shape (docs/recalls.md, "Recall records"), on the shared samples. */

const OPENFDA = path.join(import.meta.dirname, "../../../shared/test-data/recalls/openfda");
const file = (name: string) => JSON.parse(readFileSync(path.join(OPENFDA, name), "utf8"));
const read = (raw: unknown): RecallRecord => {
  const result = readRecall(raw);
  if ("errors" in result) throw new Error(result.errors.join("; "));
  return result.record;
};

describe("openFDA recall records", () => {
  it("reads the 12 enforcement records: number, class, status, dates, code_info, and catalog numbers from the description", () => {
    const records = recordsOf(file("device-enforcement.api-answers.json")).map(read);
    expect(records).toHaveLength(12);
    expect(records.every((record) => /^Z-\d{4}-\d{4}$/.test(record.productNumber) && record.source === "enforcement")).toBe(true);
    expect(records.map((record) => record.classification).sort()).toEqual([
      "Class I",
      ...Array(9).fill("Class II"),
      "Class III",
      "Class III",
    ]);
    // Terminated when the FDA terminated it (a termination date), whatever else the status says.
    const terminated = records.filter((record) => record.status === "terminated");
    expect(terminated.map((record) => record.productNumber).sort()).toEqual([
      "Z-0198-2018",
      "Z-0856-2022",
      "Z-1375-2015",
      "Z-1506-2015",
      "Z-1721-2016",
    ]);
    expect(terminated.every((record) => /^\d{4}-\d{2}-\d{2}$/.test(record.terminatedOn ?? ""))).toBe(true);
    const lactoferrin = records.find((record) => record.productNumber === "Z-1603-2023")!;
    expect(lactoferrin).toMatchObject({
      eventId: "92131",
      firm: "IMMUNDIAGNOSTIK, Inc",
      initiatedOn: "2023-03-27",
      classifiedOn: "2023-05-17",
      status: "completed",
      catalogNumbers: ["K6870", "K6870.20.US.L"],
    });
    expect(lactoferrin.codeInfo).toContain("(01) 04050598000582");
  });

  it("reads the device/recall example (its number is product_res_number); refuses the enforcement example, which has none", () => {
    const recall = read(recordsOf(file("device-recall.open-fda-gov-examples.json"))[0]);
    expect(recall).toMatchObject({
      productNumber: "Z-0359-2013",
      source: "recall",
      eventId: "52634",
      status: "terminated",
      terminatedOn: "2012-11-19",
    });
    expect(recall.productCode).toBe("NKB");
    // open.fda.gov's enforcement example has no recall_number: it cannot be keyed, and says so (an import's row error).
    const [example] = recordsOf(file("device-enforcement.open-fda-gov-examples.json")) as Record<string, unknown>[];
    expect(readRecall(example)).toEqual({ errors: ["recall_number: a product number Z-NNNN-YYYY is required"] });
    const enforcement = read({ ...example, recall_number: "Z-2012-2012" });
    expect(enforcement).toMatchObject({
      source: "enforcement",
      classification: "Class II",
      status: "open",
      codeInfo: "Lot 007A1037, Ref 010-55-25.",
    });
  });

  it("reads a pre-2012 RES record: hyphenated keys, the number inside the description", () => {
    const legacy = read(recordsOf(file("res-one-recall.legacy-enforcement.json"))[0]);
    expect(legacy).toMatchObject({
      productNumber: "Z-1004-04",
      source: "legacy",
      codeInfo: "Lot # 20118000.",
      catalogNumbers: ["00-2254-195-09"],
    });
  });

  it("names what is wrong in a record, field by field", () => {
    expect(
      readRecall({ recall_number: "Z-1", classification: "Class IV", recall_initiation_date: "2023-13-45", status: "Ongoing" }),
    ).toEqual({
      errors: [
        "recall_number: a product number Z-NNNN-YYYY is required",
        "initiatedOn: not a date (YYYYMMDD or YYYY-MM-DD)",
        "classification: Class IV is none of Class I, Class II, Class III",
      ],
    });
    expect(readRecall("a line of text")).toEqual({ errors: ["record: must be a JSON object"] });
  });

  it("a record read and matched end to end: the lactoferrin kit's lot under its part number", () => {
    const record = read(
      recordsOf(file("device-enforcement.api-answers.json")).find((r) => (r as { recall_number: string }).recall_number === "Z-1603-2023"),
    );
    const scope = parseCodeInfo(record.codeInfo, record.catalogNumbers);
    expect(matchUnit(scope, { di: "04050598000582", lot: "220706" }).outcome).toBe("affected");
    expect(matchUnit(scope, { catalog: "K6870.20.US.L", lot: "230102" }).outcome).toBe("affected");
    expect(matchUnit(scope, { catalog: "K6870.20.US.L", lot: "999999" }).outcome).toBe("not_affected");
  });

  it("finds catalog numbers as descriptions write them", () => {
    expect(catalogNumbersOf("Screw, REF 010-55-25. Catalog No. AB-12, Cat. #77X1; Model: L1")).toEqual([
      "010-55-25",
      "AB-12",
      "77X1",
      "L1",
    ]);
    expect(catalogNumbersOf("A screw of 6.5 mm")).toEqual([]);
  });
});
