import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { shipmentsFrom856 } from "../../src/operator/edi/mapping/ship-notice";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { readGs1 } from "../../src/shared/udi/gs1";

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const setOf = (file: string) => readX12(readFileSync(path.join(X12, file), "utf8")).interchanges[0]!.groups[0]!.sets[0]!;

describe("an 856 as the vendor API's ship requests", () => {
  it("gives each item its shipment's carrier, tracking and time, its quantity, and its units' UDIs with lot, expiry and serials", () => {
    const notice = shipmentsFrom856(setOf("856/derived-856-lot-expiry-udi-004010.edi"));
    expect(notice.problems).toEqual([]);
    expect([notice.shipmentId, notice.poNumber]).toEqual(["ASN-900123", "4500012345"]);
    const shipment = { trackingNumber: "1Z9999990000000001", carrierName: "UPS GROUND", shippedAt: "2026-01-19T14:15:00.000Z" };
    expect(notice.items).toEqual([
      { lineId: 1, order: "4500012345", request: { ...shipment, quantity: 10, units: ["(01)00614141000012(17)271130(10)LOT24A117"] } },
      { lineId: 2, order: "4500012345", request: { ...shipment, quantity: 1, units: ["(01)00614141000029(17)280630(10)LOT25B002"] } },
      {
        lineId: 3,
        order: "4500012345",
        request: {
          ...shipment,
          quantity: 2,
          units: ["(01)00614141000036(17)300101(10)LOT25C310(21)SN000123", "(01)00614141000036(17)300101(10)LOT25C310(21)SN000124"],
        },
      },
    ]);
  });

  it("makes UDIs the GS1 reader of the ship route reads back: GTIN, expiry, lot and serial", () => {
    const [, , implant] = shipmentsFrom856(setOf("856/derived-856-lot-expiry-udi-004010.edi")).items;
    const reading = readGs1(implant!.request.units![1]!);
    if (!reading.ok) throw new Error(JSON.stringify(reading.problem));
    expect(Object.fromEntries(reading.elements.map((element) => [element.ai, element.value]))).toEqual({
      "01": "00614141000036",
      "17": "300101",
      "10": "LOT25C310",
      "21": "SN000124",
    });
  });

  it("names an item it cannot ship: no line id, no whole quantity", () => {
    const set = setOf("856/derived-856-lot-expiry-udi-004010.edi");
    const lin = set.segments.find((segment) => segment.id === "LIN")!;
    const sn1 = set.segments.filter((segment) => segment.id === "SN1")[1]!;
    const broken = {
      ...set,
      segments: set.segments.map((segment) =>
        segment === lin
          ? { ...segment, elements: ["X-1", ...segment.elements.slice(1)] }
          : segment === sn1
            ? { ...segment, elements: [segment.elements[0]!, "2.5", ...segment.elements.slice(2)] }
            : segment,
      ),
    };
    const notice = shipmentsFrom856(broken);
    expect(notice.problems).toEqual([
      { segment: "LIN", message: 'LIN01 "X-1" is not a Medparts line id.' },
      { segment: "SN1", message: 'SN102 "2.5" of line 2 is not a whole quantity.' },
    ]);
    expect(notice.items.map((item) => item.lineId)).toEqual([3]);
  });
});
