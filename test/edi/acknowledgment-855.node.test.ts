import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { confirmationFrom855 } from "../../src/operator/edi/mapping/acknowledgment";
import { readX12 } from "../../src/operator/edi/x12/reader";

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const setOf = (file: string) => readX12(readFileSync(path.join(X12, file), "utf8")).interchanges[0]!.groups[0]!.sets[0]!;

describe("an 855 as the vendor API's confirmation", () => {
  it("maps every line code of the public 855 onto a confirmation line with what that code takes", () => {
    const { poNumber, vendorOrderNumber, request, problems } = confirmationFrom855(setOf("855/derived-855-line-codes-004010.edi"));
    expect(problems).toEqual([]);
    expect([poNumber, vendorOrderNumber]).toEqual(["4500012345", "SO-778812"]);
    expect(request).toEqual({
      type: "detail",
      lines: [
        { lineId: 1, code: "IA", promisedShipDate: "2026-01-19" },
        { lineId: 2, code: "IB", expectedShipDate: "2026-02-10" },
        { lineId: 3, code: "IC", promisedShipDate: "2026-01-19", reason: "SHIP-TO CHANGED TO DOCK 1 PER BUYER" },
        { lineId: 4, code: "ID" },
        { lineId: 5, code: "IP", unitPrice: "13.95", promisedShipDate: "2026-01-19" },
        { lineId: 6, code: "IQ", quantity: 30, promisedShipDate: "2026-01-19" },
        { lineId: 7, code: "IR" },
        {
          lineId: 8,
          code: "IS",
          substitute: { partNumber: "EX-6001A", description: "VC EX-6001A, UK 00614141000098" },
          promisedShipDate: "2026-01-19",
        },
        { lineId: 9, code: "DR", promisedShipDate: "2026-01-30" },
      ],
    });
  });

  it("names what no confirmation takes: an unknown code, a PO101 that is no line id", () => {
    const set = setOf("855/derived-855-line-codes-004010.edi");
    const po1 = set.segments.find((segment) => segment.id === "PO1")!;
    const ack = set.segments.find((segment) => segment.id === "ACK")!;
    const changed = {
      ...set,
      segments: set.segments.map((segment) => (segment === ack ? { ...segment, elements: ["ZZ", ...segment.elements.slice(1)] } : segment)),
    };
    expect(confirmationFrom855(changed).problems).toEqual([{ segment: "ACK", message: 'ACK01 "ZZ" of line 1 is no confirmation code.' }]);
    const notALine = {
      ...set,
      segments: set.segments.map((segment) =>
        segment === po1 ? { ...segment, elements: ["A-1", ...segment.elements.slice(1)] } : segment,
      ),
    };
    const read = confirmationFrom855(notALine);
    expect(read.problems).toEqual([{ segment: "PO1", message: 'PO101 "A-1" is not a Medparts line id.' }]);
    expect(read.request.lines).toHaveLength(8);
  });
});
