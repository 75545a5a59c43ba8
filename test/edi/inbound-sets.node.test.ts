import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mapInboundGroup } from "../../src/operator/edi/mapping/inbound-sets";
import { readX12 } from "../../src/operator/edi/x12/reader";

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const groupOf = (file: string) => readX12(readFileSync(path.join(X12, file), "utf8")).interchanges[0]!.groups[0]!;
const DEFAULTS = { condition: "New OEM", purchaseChoice: "Buy", warranty: "Manufacturer's", leadTimeDays: 3 };
const EVERY = { documents: ["850", "855", "856", "810", "832"] as ("850" | "855" | "856" | "810" | "832")[] };

describe("which mapping reads a partner's set", () => {
  it("reads 855, 856, 810 and 832 each with its own mapping", () => {
    const [confirmation] = mapInboundGroup(groupOf("855/derived-855-line-codes-004010.edi"), EVERY, DEFAULTS);
    expect(confirmation).toMatchObject({ set: "855", controlNumber: "0001" });
    expect("confirmation" in confirmation! && confirmation.confirmation.request.lines).toHaveLength(9);
    const [shipNotice] = mapInboundGroup(groupOf("856/derived-856-lot-expiry-udi-004010.edi"), EVERY, DEFAULTS);
    expect("shipNotice" in shipNotice! && shipNotice.shipNotice.items.map((item) => item.lineId)).toEqual([1, 2, 3]);
    const [invoice] = mapInboundGroup(groupOf("810/derived-810-hospital-004010.edi"), EVERY, DEFAULTS);
    expect("invoice" in invoice! && invoice.invoice.kind).toBe("invoice");
    const [priceFile] = mapInboundGroup(groupOf("832/derived-832-healthcare-catalog-004010.edi"), EVERY, DEFAULTS);
    expect("priceFile" in priceFile! && priceFile.priceFile.rows).toHaveLength(3);
  });

  it("refuses by name a set the partner does not exchange, and one Medparts does not take", () => {
    expect(mapInboundGroup(groupOf("856/derived-856-lot-expiry-udi-004010.edi"), { documents: ["850", "855"] }, DEFAULTS)).toEqual([
      { set: "856", controlNumber: "0001", refused: "The partner does not exchange 856s (its documents)." },
    ]);
    expect(mapInboundGroup(groupOf("850/derived-850-hospital-004010.edi"), EVERY, DEFAULTS)).toEqual([
      { set: "850", controlNumber: "0001", refused: "Medparts does not take 850 from partners." },
    ]);
  });
});
