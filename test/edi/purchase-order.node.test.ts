import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsToDecimal, DecimalError, fromScaled, toScaled } from "../../src/operator/edi/mapping/decimal";
import { deletionOf, orderChangeSegments, readOrderChange } from "../../src/operator/edi/mapping/order-change";
import {
  ITEM_ID_QUALIFIERS,
  type PurchaseOrder,
  purchaseOrderSegments,
  readPurchaseOrder,
} from "../../src/operator/edi/mapping/purchase-order";
import { allProblems } from "../../src/operator/edi/x12/envelope";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { type WriteSegment, writeInterchange } from "../../src/operator/edi/x12/writer";
import { runs } from "../helpers/depth";

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const onlySet = (text: string) => readX12(text).interchanges[0]!.groups[0]!.sets[0]!;

/** One set written in an interchange of the given version, as Medparts writes its own (GS01 `functionalId`). */
function interchangeOf(version: "004010" | "005010", functionalId: string, set: { id: string; segments: WriteSegment[] }) {
  return writeInterchange({
    delimiters: { element: "*", component: ">", segment: "~", lineBreak: "\n", ...(version === "005010" ? { repetition: "^" } : {}) },
    envelope: {
      senderQualifier: "ZZ",
      senderId: "MEDPARTS",
      receiverQualifier: "ZZ",
      receiverId: "ACMESURG",
      date: "261207",
      time: "1200",
      version: version === "005010" ? "00501" : "00401",
      controlNumber: 7,
      acknowledgmentRequested: false,
      usage: "P",
    },
    groups: [
      {
        envelope: { functionalId, senderId: "MEDPARTS", receiverId: "ACMESURG", date: "20261207", time: "1200", controlNumber: 7, version },
        sets: [{ ...set, controlNumber: 1 }],
      },
    ],
  });
}

describe("exact decimals (X12 R elements)", () => {
  it("reads and writes decimal text exactly, and refuses what is not one", () => {
    expect(fromScaled(toScaled("42.5"), 2)).toBe("42.50");
    expect(fromScaled(toScaled(".5"))).toBe("0.5");
    expect(fromScaled(toScaled("-3.000100"))).toBe("-3.0001");
    expect(centsToDecimal(277280)).toBe("2772.80");
    for (const bad of ["1e3", "NaN", "", "1.2.3", "0x10", "1.1234567", " 1"]) expect(() => toScaled(bad), bad).toThrow(DecimalError);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (scaled) => toScaled(fromScaled(scaled)) === scaled),
      { numRuns: runs({ quick: 300, deep: 3000 }) },
    );
  });
});

describe("the 850 Medparts sends", () => {
  it("reads the public healthcare 850 into its order: parties, lines with their item ids, totals that add up", () => {
    const { order, problems } = readPurchaseOrder(onlySet(readFileSync(path.join(X12, "850/derived-850-hospital-004010.edi"), "utf8")));
    expect(problems).toEqual([]);
    expect(order).toMatchObject({
      purpose: "00",
      poNumber: "4500012345",
      orderDate: "20260115",
      currency: "USD",
      requestedDelivery: "20260120",
    });
    expect(order.shipTo).toEqual({
      name: "EXAMPLE GENERAL HOSPITAL RECEIVING DOCK",
      id: "HOSP001-DOCK2",
      address: { line1: "100 EXAMPLE PARKWAY", line2: "BUILDING C", city: "SPRINGFIELD", state: "IL", zip: "62701", country: "US" },
    });
    expect(order.lines).toHaveLength(4);
    expect(order.lines[0]).toEqual({
      lineNumber: "1",
      quantity: "10",
      unit: "BX",
      unitPrice: "42.50",
      itemIds: [
        { qualifier: "VC", id: "EX-1001" },
        { qualifier: "IN", id: "MM-771201" },
        { qualifier: "UK", id: "00614141000012" },
        { qualifier: "MG", id: "GLV-N-M-100" },
      ],
      description: "EXAM GLOVE NITRILE MEDIUM 100/BX",
    });
  });

  it("names a total that does not add up: the 005010 sample's AMT*TT is not its lines' sum", () => {
    const { order, problems } = readPurchaseOrder(onlySet(readFileSync(path.join(X12, "850/derived-850-hospital-005010.edi"), "utf8")));
    expect(order.lines).toHaveLength(4);
    expect(problems).toEqual([{ segment: "AMT", message: "AMT*TT says 4187.80; its lines add up to 2772.80." }]);
  });

  const text = (max: number) => fc.stringMatching(new RegExp(`^[A-Z0-9][A-Z0-9 .,/()-]{0,${max - 1}}$`)).filter((s) => !s.endsWith(" "));
  const party = fc.record(
    {
      name: text(35),
      id: text(20),
      address: fc.record(
        {
          line1: text(35),
          line2: text(35),
          city: text(20),
          state: fc.stringMatching(/^[A-Z]{2}$/),
          zip: fc.stringMatching(/^\d{5}$/),
          country: fc.constant("US"),
        },
        { requiredKeys: ["line1", "city", "state", "zip", "country"] },
      ),
    },
    { requiredKeys: ["name", "id"] },
  );
  const line = fc.record(
    {
      quantity: fc.integer({ min: 1, max: 100_000 }).map(String),
      unit: fc.constantFrom("EA", "BX", "CS", "PK"),
      unitPriceCents: fc.integer({ min: 0, max: 10_000_000 }),
      itemIds: fc.uniqueArray(fc.record({ qualifier: fc.constantFrom(...ITEM_ID_QUALIFIERS), id: text(30) }), {
        minLength: 1,
        maxLength: 4,
        selector: (id) => id.qualifier,
      }),
      description: text(80),
    },
    { requiredKeys: ["quantity", "unit", "unitPriceCents", "itemIds"] },
  );
  const order = fc.record(
    {
      purpose: fc.constantFrom("00" as const, "01" as const),
      poNumber: text(22),
      orderDate: fc.constantFrom("20260115", "20261207", "20301231"),
      currency: fc.constantFrom("USD", "EUR", "CAD"),
      buyer: party,
      shipTo: party,
      billTo: party,
      requestedDelivery: fc.constantFrom("20260120", "20270101"),
      lines: fc.array(line, { minLength: 1, maxLength: 30 }),
    },
    { requiredKeys: ["purpose", "poNumber", "orderDate", "currency", "buyer", "shipTo", "lines"] },
  );

  it("a generated 850, written and read back, is the order it was made from; its total is the lines' exact sum", () => {
    fc.assert(
      fc.property(order, fc.constantFrom("004010", "005010"), (generated, version) => {
        const purchaseOrder: PurchaseOrder = {
          ...generated,
          lines: generated.lines.map(({ unitPriceCents, ...rest }, index) => ({
            ...rest,
            lineNumber: String(index + 1),
            unitPrice: centsToDecimal(unitPriceCents),
          })),
        };
        const text = interchangeOf(version, "PO", { id: "850", segments: purchaseOrderSegments(purchaseOrder) });
        const interchange = readX12(text).interchanges[0]!;
        expect(allProblems(interchange)).toEqual([]);
        const { order: read, problems } = readPurchaseOrder(interchange.groups[0]!.sets[0]!);
        expect(problems).toEqual([]);
        expect(read).toEqual(purchaseOrder);
        const amount = interchange.groups[0]!.sets[0]!.segments.find((segment) => segment.id === "AMT")!;
        const cents = generated.lines.reduce((sum, l) => sum + BigInt(l.unitPriceCents) * BigInt(l.quantity), 0n);
        expect(amount.elements[1]).toBe(centsToDecimal(Number(cents)));
      }),
      { numRuns: runs({ quick: 60, deep: 500 }) },
    );
  });
  it("a generated 860 deleting an order's lines, written and read back, is the change it was made from, with no syntax error", () => {
    fc.assert(
      fc.property(order, fc.constantFrom("004010" as const, "005010" as const), (generated, version) => {
        const lines = generated.lines.map(({ unitPriceCents, description: _, ...rest }, index) => ({
          ...rest,
          lineNumber: String(index + 1),
          unitPrice: centsToDecimal(unitPriceCents),
        }));
        const change = deletionOf({ ...generated, lines }, "20261208");
        const interchange = readX12(interchangeOf(version, "PC", { id: "860", segments: orderChangeSegments(change) })).interchanges[0]!;
        expect(allProblems(interchange)).toEqual([]);
        expect(readOrderChange(interchange.groups[0]!.sets[0]!)).toEqual(change);
        expect(change.lines.every((line) => line.change === "DI" && line.quantityLeft === "0")).toBe(true);
      }),
      { numRuns: runs({ quick: 40, deep: 300 }) },
    );
  });
});
