import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { priceFileFrom832 } from "../../src/operator/edi/mapping/price-catalog";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { OfferBatchRowSchema } from "../../src/operator/offers/schemas";

const X12 = path.join(import.meta.dirname, "../../../shared/test-data/x12");
const setOf = (file: string) => readX12(readFileSync(path.join(X12, file), "utf8")).interchanges[0]!.groups[0]!.sets[0]!;
const DEFAULTS = { condition: "New OEM", purchaseChoice: "Buy", warranty: "Manufacturer's", leadTimeDays: 3 };

describe("an 832 as a price file", () => {
  it("reads each LIN of the public healthcare 832 into a price file row: SKU, GTIN, list price, unit, pack, dates", () => {
    const { rows, problems } = priceFileFrom832(setOf("832/derived-832-healthcare-catalog-004010.edi"), DEFAULTS);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      {
        sku: "EX-1001",
        gtin: "00614141000012",
        ...DEFAULTS,
        price: "55.00",
        unitOfMeasure: "BX",
        packQuantity: 100,
        effectiveFrom: "2026-01-01T00:00:00.000Z",
      },
      {
        sku: "EX-2040",
        gtin: "00614141000029",
        ...DEFAULTS,
        price: "118.00",
        unitOfMeasure: "CS",
        packQuantity: 100,
        effectiveFrom: "2026-01-01T00:00:00.000Z",
      },
      {
        sku: "EX-5512",
        ...DEFAULTS,
        price: "7.15",
        unitOfMeasure: "EA",
        effectiveFrom: "2026-01-01T00:00:00.000Z",
        effectiveTo: "2026-12-31T00:00:00.000Z",
      },
    ]);
  });

  it("gives rows the price file's own row schema takes, or refuses by its rules (a row naming no product)", () => {
    const { rows } = priceFileFrom832(setOf("832/derived-832-healthcare-catalog-004010.edi"), DEFAULTS);
    const results = rows.map((row) => OfferBatchRowSchema.safeParse(row));
    expect(results.map((result) => result.success)).toEqual([true, true, false]);
    expect(JSON.stringify(results[2]!.error?.issues.map((issue) => issue.path))).toContain("productId");
  });
});
