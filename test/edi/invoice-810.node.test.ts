import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { invoiceFrom810 } from "../../src/operator/edi/mapping/invoice";
import type { TransactionSet } from "../../src/operator/edi/x12/document";
import { readX12 } from "../../src/operator/edi/x12/reader";

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const setOf = (file: string) => readX12(readFileSync(path.join(X12, file), "utf8")).interchanges[0]!.groups[0]!.sets[0]!;
const withSegment = (set: TransactionSet, id: string, elements: (old: string[]) => string[]) => ({
  ...set,
  segments: set.segments.map((segment) => (segment.id === id ? { ...segment, elements: elements(segment.elements) } : segment)),
});

describe("an 810 as the vendor API's invoice", () => {
  it("reads the public healthcare 810: its lines exactly, freight from SAC, a total that adds up", () => {
    const read = invoiceFrom810(setOf("810/derived-810-hospital-004010.edi"));
    if (read.kind !== "invoice") throw new Error(read.kind);
    expect(read.problems).toEqual([]);
    expect(read.request).toEqual({
      invoiceNumber: "INV-330045",
      orderNumber: "4500012345",
      invoiceDate: "2026-01-20",
      currency: "USD",
      lines: [
        {
          lineId: 1,
          partNumber: "EX-1001",
          description: "EXAM GLOVE NITRILE MEDIUM 100/BX",
          quantity: 10,
          unitPrice: "42.50",
          amount: "425.00",
        },
        { lineId: 2, partNumber: "EX-2040", description: "SYRINGE 10ML LUER LOCK", quantity: 1, unitPrice: "118.00", amount: "118.00" },
        {
          lineId: 3,
          partNumber: "EX-9300",
          description: "BONE SCREW 4.5X20MM STERILE (IMPLANT)",
          quantity: 2,
          unitPrice: "895.00",
          amount: "1790.00",
        },
      ],
      summary: { subtotal: "2333.00", tax: "0.00", freight: "15.00", total: "2348.00" },
    });
  });

  it("names a TDS total that the lines and freight do not add up to, and a credit memo it does not map yet", () => {
    const set = setOf("810/derived-810-hospital-004010.edi");
    expect(invoiceFrom810(withSegment(set, "TDS", () => ["234900"])).problems).toEqual([
      { segment: "TDS", message: "TDS01 says 2349.00; the lines and freight add up to 2348.00." },
    ]);
    const credit = invoiceFrom810(withSegment(set, "BIG", (old) => [...[...old, "", ""].slice(0, 6), "CR"]));
    expect(credit).toEqual({
      kind: "credit-memo",
      invoiceNumber: "INV-330045",
      problems: [{ segment: "BIG", message: "Credit memos (BIG07 CR) are not mapped yet." }],
    });
  });
});
