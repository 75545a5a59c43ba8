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

  it("names a TDS total that the lines and freight do not add up to", () => {
    const set = setOf("810/derived-810-hospital-004010.edi");
    expect(invoiceFrom810(withSegment(set, "TDS", () => ["234900"])).problems).toEqual([
      { segment: "TDS", message: "TDS01 says 2349.00; the lines and freight add up to 2348.00." },
    ]);
  });

  it("reads BIG07 CR as a credit memo of the invoice a header REF*OI or REF*IV names, by the order's and the invoice's numbers", () => {
    const set = withSegment(setOf("810/derived-810-hospital-004010.edi"), "BIG", (old) => [
      ...[...old.slice(0, 1), "CM-330045", ...old.slice(2), "", ""].slice(0, 6),
      "CR",
    ]);
    // The sample's header names the supplier's account (REF*IA), not the invoice credited.
    const unnamed = invoiceFrom810(set);
    expect(unnamed.kind).toBe("credit-memo");
    expect(unnamed.problems).toEqual([
      { segment: "REF", message: "A credit memo (BIG07 CR) names the invoice it credits in REF*OI or REF*IV." },
    ]);
    const at = set.segments.findIndex((segment) => segment.id === "REF");
    const ref = (code: string, value: string) => ({ ...set.segments[at]!, elements: [code, value] });
    const named = { ...set, segments: [...set.segments.slice(0, at), ref("IV", "INV-330045"), ...set.segments.slice(at)] };
    const credit = invoiceFrom810(named);
    if (credit.kind !== "credit-memo") throw new Error(credit.kind);
    expect(credit.problems).toEqual([]);
    expect(credit.request).toEqual({
      creditMemoNumber: "CM-330045",
      orderNumber: "4500012345",
      invoiceNumber: "INV-330045",
      creditDate: "2026-01-20",
      currency: "USD",
      lines: [
        { lineId: 1, quantity: 10, unitPrice: "42.50", amount: "425.00" },
        { lineId: 2, quantity: 1, unitPrice: "118.00", amount: "118.00" },
        { lineId: 3, quantity: 2, unitPrice: "895.00", amount: "1790.00" },
      ],
      summary: { subtotal: "2333.00", tax: "0.00", freight: "15.00", total: "2348.00" },
    });
    // REF*OI (the original invoice) comes before REF*IV.
    const both = { ...named, segments: [...named.segments.slice(0, at), ref("OI", "INV-ORIGINAL"), ...named.segments.slice(at)] };
    const original = invoiceFrom810(both);
    expect(original.kind === "credit-memo" && original.request.invoiceNumber).toBe("INV-ORIGINAL");
  });
});
