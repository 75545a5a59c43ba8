import Ajv2020 from "ajv/dist/2020";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { centsToText, textToCents } from "../../src/platform/money";
import { runs } from "../helpers/depth";
import { generatedDocument } from "../helpers/generated-document";

/**
 * The document under Ajv, the JSON Schema validator inside most OpenAPI tooling (Prism's validating proxy, request
 * validation of generated clients): what it accepts must include everything the server accepts. Ajv evaluates
 * `multipleOf` by dividing in binary floating point, where 0.07 / 0.01 is 7.000000000000001. Runs in Node: Ajv
 * compiles validators to code, which workerd does not allow.
 */

const DOCUMENT_ID = "https://contract.medparts.test/openapi.json";

let document: Record<string, any>;
let validateOrder: ReturnType<Ajv2020["compile"]>;
let ajv: Ajv2020;

beforeAll(async () => {
  document = await generatedDocument();
  // Not strict: the document uses OpenAPI's `example` keyword, which is no JSON Schema keyword.
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, DOCUMENT_ID);
  validateOrder = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/CreateOrderRequest` });
});

/** The documented example order, its line at `price`. */
function orderAt(price: number | string) {
  const example = document.components.schemas.CreateOrderRequest.example;
  return { ...example, quoteItems: [{ ...example.quoteItems[0], price }] };
}

describe("the document under Ajv", () => {
  it("accepts the documented example order", () => {
    expect(validateOrder(document.components.schemas.CreateOrderRequest.example), JSON.stringify(validateOrder.errors)).toBe(true);
  });

  it("accepts every price with at most two decimals that the server accepts (0.07, 1.12, 1212.84 and random ones), and no JSON number", () => {
    const prices = fc.oneof(
      fc.constantFrom("0.07", "1.12", "1212.84", "0.01", "0.29", "4.35", "1000000.1", "12.5"),
      fc.integer({ min: 1, max: 99_999_999_999 }).map(centsToText),
    );
    fc.assert(
      fc.property(prices, (price) => {
        expect(textToCents(price), `the server refuses ${price}`).not.toBeNull();
        expect(validateOrder(orderAt(price)), `${price}: ${JSON.stringify(validateOrder.errors)}`).toBe(true);
        expect(validateOrder(orderAt(Number(price))), `${price} as a number`).toBe(false);
      }),
      { numRuns: runs({ quick: 1_000, deep: 20_000 }) },
    );
  });

  it("no schema uses a fractional multipleOf, which floating-point validators evaluate wrongly", () => {
    const found: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "multipleOf" && typeof value === "number" && !Number.isInteger(value)) found.push(`${where}: ${value}`);
        walk(value, `${where}/${key}`);
      }
    };
    walk(document, "#");
    expect(found).toEqual([]);
  });

  it("takes agreement and offer prices with two decimals, 0.07 included, and resolve's requesterId only with facilityId", () => {
    const validate = (schema: string, value: unknown) => ajv.validate({ $ref: `${DOCUMENT_ID}#/components/schemas/${schema}` }, value);
    const agreement = document.components.schemas.AgreementInput.example;
    const offer = document.components.schemas.OfferInput.example;
    for (const price of ["0.07", "1.12", "1212.84"]) {
      expect(validate("AgreementInput", { ...agreement, prices: [{ ...agreement.prices[0], price }] }), `agreement ${price}`).toBe(true);
      expect(
        validate("OfferInput", { ...offer, price, futurePrice: { price, effectiveFrom: "2027-01-01T00:00:00Z" } }),
        `offer ${price}`,
      ).toBe(true);
    }
    const codes = ["(01)00614100000015"];
    expect(validate("ResolveRequest", { codes })).toBe(true);
    expect(validate("ResolveRequest", { codes, requesterId: 50001, facilityId: 1001 })).toBe(true);
    expect(validate("ResolveRequest", { codes, requesterId: 50001 })).toBe(false);
    expect(validate("ResolveRequest", { codes, facilityId: 1001 })).toBe(false);
  });
});
