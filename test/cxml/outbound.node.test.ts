import { readFileSync } from "node:fs";
import path from "node:path";
import { DtdValidator, XmlDocument, XmlDtd } from "libxml2-wasm";
import { afterAll, describe, expect, it } from "vitest";
import { centsOf, centsText, escapeXml, responseDocument, STATUS_TEXT } from "../../src/operator/procurement/cxml";
import { profileResponse } from "../../src/operator/procurement/gateway";
import { setupResponse } from "../../src/operator/procurement/punchout-setup";
import { punchOutOrderMessage } from "../../src/operator/procurement/shop/order-message";
import { readXml } from "../../src/operator/procurement/xml";

/**
 * Every document Medparts sends validates against the cXML 1.2.063 DTD (../shared/test-data/cxml/dtd, read in place) with
 * libxml2 compiled to WebAssembly: strict on output, whatever the input was.
 */

const DTD_DIR = path.resolve(import.meta.dirname, "../../../shared/test-data/cxml/dtd/1.2.063");
const validator = new DtdValidator(XmlDtd.fromBuffer(readFileSync(path.join(DTD_DIR, "cXML.dtd"))));
afterAll(() => validator.dispose());

function expectValid(document: string): void {
  const parsed = XmlDocument.fromString(document);
  try {
    expect(() => validator.validate(parsed), document).not.toThrow();
  } finally {
    parsed.dispose();
  }
  // And our own reader reads it back.
  expect(readXml(new TextEncoder().encode(document)).name).toBe("cXML");
}

const connection = {
  mode: "live" as const,
  supplierIdentity: { domain: "NetworkID", identity: "AN-MEDPARTS" },
  buyerIdentities: [
    { domain: "NetworkID", identity: "AN-BUYER" },
    { domain: "DUNS", identity: "123456789" },
  ],
};
const line = {
  priceOptionId: "po_AQAAAAEAAAABAADDUQAAA-kAAHUwAAAAAGl3lQDmFl9y7rdZb9JRgVMoyt36WHlY",
  productId: "MP-0000007",
  quantity: 3,
  unitPriceCents: 124_950,
  description: 'Infusion pump <rev B> & "kit"',
  manufacturerName: "Baxter",
  manufacturerPartId: "35700BAX",
  unitOfMeasure: "EA",
  leadTimeDays: 5,
  purchaseType: "buy",
  requiredFields: [],
};

describe("outbound cXML validates against the 1.2.063 DTD", () => {
  it("PunchOutOrderMessage: lines with and without optional parts, custom fields, a purchase type, test mode, an empty cart", () => {
    expectValid(punchOutOrderMessage({ connection, buyerCookie: "c&o<o>kie", operation: "create", cart: [line] }));
    expectValid(
      punchOutOrderMessage({
        connection: { ...connection, mode: "test" },
        buyerCookie: "x",
        operation: "inspect",
        cart: [
          line,
          {
            ...line,
            manufacturerName: "",
            manufacturerPartId: "",
            leadTimeDays: null,
            purchaseType: "exchange",
            unitOfMeasure: "bx",
            requiredFields: [{ fieldId: "coreSerialNumber", value: "SN-1" }],
          },
        ],
      }),
    );
    expectValid(punchOutOrderMessage({ connection, buyerCookie: "", operation: "edit", cart: [] }));
  });

  it("Response with each Status code, ProfileResponse and PunchOutSetupResponse", () => {
    for (const code of Object.keys(STATUS_TEXT).map(Number) as (keyof typeof STATUS_TEXT)[]) {
      expectValid(responseDocument(code, `detail of ${code} <at /cXML>`));
    }
    expectValid(responseDocument(200, undefined, profileResponse("https://medparts.example/cxml")));
    expectValid(responseDocument(200, undefined, setupResponse("https://medparts.example/punchout/start/abc")));
  });

  it("the validator does refuse what breaks the DTD (a message without its required Classification)", () => {
    const broken = punchOutOrderMessage({ connection, buyerCookie: "x", operation: "create", cart: [line] }).replace(
      /<Classification[^>]*>[^<]*<\/Classification>/,
      "",
    );
    const parsed = XmlDocument.fromString(broken);
    expect(() => validator.validate(parsed)).toThrow();
    parsed.dispose();
  });

  it("the message's totals are exact sums of integer cents", () => {
    const message = punchOutOrderMessage({
      connection,
      buyerCookie: "x",
      operation: "create",
      cart: [line, { ...line, unitPriceCents: 1, quantity: 7 }],
    });
    expect(message).toContain('<Total><Money currency="USD">3748.57</Money></Total>');
  });
});

describe("money and text", () => {
  it("centsOf reads decimals exactly and refuses fractions of a cent; centsText writes them back", () => {
    expect(centsOf("1249.50")).toBe(124_950);
    expect(centsOf(" 0.1 ")).toBe(10);
    expect(centsOf("12")).toBe(1200);
    expect(centsOf("12.500")).toBe(1250);
    expect(centsOf("12.505")).toBeNull();
    expect(centsOf("1e3")).toBeNull();
    expect(centsOf("-3.07")).toBe(-307);
    for (const cents of [0, 1, 99, 100, 124_950, 999_999_999]) expect(centsOf(centsText(cents))).toBe(cents);
  });

  it("escapeXml leaves no markup and drops characters XML cannot carry", () => {
    expect(escapeXml(`<a href="x">&'\u0001\uD800`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
  });
});
