import { readFileSync } from "node:fs";
import path from "node:path";
import { DtdValidator, XmlDocument, XmlDtd } from "libxml2-wasm";
import { afterAll, describe, expect, it } from "vitest";
import { centsOf, escapeXml, responseDocument, STATUS_TEXT } from "../../src/operator/procurement/cxml";
import {
  confirmationRequest,
  documentOf,
  invoiceDetailRequest,
  type PlacedOrder,
  shipNoticeRequest,
} from "../../src/operator/procurement/documents";
import { profileResponse } from "../../src/operator/procurement/gateway";
import { setupResponse } from "../../src/operator/procurement/punchout-setup";
import { punchOutOrderMessage } from "../../src/operator/procurement/shop/order-message";
import { readXml } from "../../src/operator/procurement/xml";
import { centsToText } from "../../src/platform/money";

/**
 * Every document Medparts sends validates against the cXML 1.2.063 DTD (../shared/test-data/cxml/dtd, read in place) with
 * libxml2 compiled to WebAssembly: strict on output, whatever the input was.
 */

const DTD_DIR = path.resolve(import.meta.dirname, "../../../shared/test-data/cxml/dtd/1.2.063");
const validator = new DtdValidator(XmlDtd.fromBuffer(readFileSync(path.join(DTD_DIR, "cXML.dtd"))));
/** ConfirmationRequest and ShipNoticeRequest are Fulfill.dtd's (a superset of cXML.dtd). */
const fulfill = new DtdValidator(XmlDtd.fromBuffer(readFileSync(path.join(DTD_DIR, "Fulfill.dtd"))));
/** InvoiceDetailRequest: 1.2.069's InvoiceDetail.dtd stands in for 1.2.063's (../shared/test-data/README.md). */
const invoiceDetail = new DtdValidator(XmlDtd.fromBuffer(readFileSync(path.resolve(DTD_DIR, "../1.2.069/InvoiceDetail.dtd"))));
afterAll(() => {
  validator.dispose();
  fulfill.dispose();
  invoiceDetail.dispose();
});

function expectValid(document: string, against = validator): void {
  const parsed = XmlDocument.fromString(document);
  try {
    expect(() => against.validate(parsed), document).not.toThrow();
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
    const order = { orderId: "PO-1", payloadId: "p", orderDate: null, lines: {} };
    const noType = confirmationRequest(connection, order, "accept", [], "c-1").replace(' type="accept"', "");
    const parsedConfirmation = XmlDocument.fromString(noType);
    expect(() => fulfill.validate(parsedConfirmation)).toThrow();
    parsedConfirmation.dispose();
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

describe("documents back to the suite validate against the 1.2.063 Fulfill.dtd", () => {
  const order: PlacedOrder = {
    orderId: "PO-4711",
    payloadId: "1700000000.1@suite.example.com",
    orderDate: "2026-11-29T10:00:00+00:00",
    lines: { "501": { lineNumber: "10", quantity: 3, unitOfMeasure: "EA" }, "502": { lineNumber: "20", quantity: 1, unitOfMeasure: "BX" } },
  };
  const full = { ...connection, id: 1, tenantId: 1, clientId: "mpc_x", enabled: true, name: "x", facilityId: 1, requesterId: 1, userId: 1 };
  const fullConnection = {
    ...full,
    shipToAddressId: 1,
    shipToAddresses: [],
    billToAddressId: 1,
    shippingMethod: "GROUND",
    paymentMethod: "PO",
  };
  const asConnection = { ...fullConnection, documentUrl: "https://suite.example.com/cxml", createdAt: "", updatedAt: "" };
  const event = (type: string, data: Record<string, unknown>) => ({ id: "evt-1", type, createdAt: "2026-11-29T11:00:00.000Z", data });

  it("ConfirmationRequest: accept, backordered, reject, and a detail of several lines with changes", () => {
    for (const [type, data] of [
      ["order.acknowledged", { orderNumber: "MP-1", lineId: 501, promisedShipDate: "2026-12-02" }],
      ["order.backordered", { orderNumber: "MP-1", lineId: 501, expectedShipDate: "2026-12-20", reason: "Out of stock" }],
      ["order.rejected", { orderNumber: "MP-1", lineId: 502, reason: "Discontinued" }],
      [
        "order.confirmed",
        {
          orderNumber: "MP-1",
          type: "detail",
          lines: [
            { lineId: 501, name: "quantity_changed", lineStatus: "Acknowledged", quantity: 2 },
            { lineId: 502, name: "accepted", lineStatus: "Acknowledged" },
          ],
        },
      ],
    ] as const) {
      const document = documentOf(asConnection, order, event(type, data));
      expect(document, type).not.toBeNull();
      expectValid(document!, fulfill);
      expect(document).toContain('<OrderReference orderID="PO-4711"');
    }
    expect(documentOf(asConnection, order, event("order.delivered", { orderNumber: "MP-1", lineId: 501 }))).toBeNull();
    expect(documentOf(asConnection, order, event("order.acknowledged", { orderNumber: "MP-1", lineId: 999 }))).toBeNull();
    expectValid(confirmationRequest({ ...connection, mode: "test" }, order, "accept", [], "c-1"), fulfill);
  });

  it("ShipNoticeRequest: carrier and tracking, a Batch per lot with its expiry, an AssetInfo per serial", () => {
    const document = shipNoticeRequest(connection, order, {
      shipmentId: "1Z999",
      line: order.lines["501"]!,
      quantity: 3,
      carrierName: "UPS",
      trackingNumber: "1Z999",
      shippedAt: "2026-11-30T15:00:00.000Z",
      units: [
        { lot: "LOT7", serial: "SN-1", expiry: "2030-12-31", units: 1 },
        { lot: "LOT7", serial: "SN-2", expiry: "2030-12-31", units: 1 },
        { lot: null, serial: null, expiry: null, units: 1 },
      ],
    });
    expectValid(document, fulfill);
    expect(document.match(/<Batch /g)).toHaveLength(1);
    expect(document.match(/<AssetInfo /g)).toHaveLength(2);
    expectValid(
      shipNoticeRequest(connection, order, {
        shipmentId: "x",
        line: order.lines["502"]!,
        quantity: 1,
        carrierName: "FedEx",
        trackingNumber: "7",
        shippedAt: "2026-11-30T15:00:00.000Z",
        units: [],
      }),
      fulfill,
    );
  });
});

describe("invoices to the suite validate against InvoiceDetail.dtd", () => {
  const order: PlacedOrder = {
    orderId: "PO-4711",
    payloadId: "1700000000.1@suite.example.com",
    orderDate: null,
    lines: { "501": { lineNumber: "10", quantity: 3, unitOfMeasure: "EA" }, "502": { lineNumber: "x7", quantity: 1, unitOfMeasure: "BX" } },
  };
  const line = (lineNumber: number, orderLineId: number | null, quantity: number, unitPriceCents: number, taxCents = 0) => ({
    lineNumber,
    orderLineId,
    partNumber: orderLineId ? "35700BAX" : null,
    description: orderLineId ? "Infusion pump" : "Handling & <fees>",
    quantity,
    unitPriceCents,
    amountCents: quantity * unitPriceCents,
    taxCents,
  });

  it("an invoice of order lines and a charge not on the order, with and without tax and freight", () => {
    const withTax = invoiceDetailRequest(connection, order, {
      number: "INV-1",
      invoiceDate: "2026-11-30",
      currency: "USD",
      subtotalCents: 3 * 124_950 + 1500 + 1000,
      taxCents: 825,
      freightCents: 1250,
      totalCents: 3 * 124_950 + 1500 + 1000 + 825 + 1250,
      lines: [line(1, 501, 3, 124_950, 800), line(2, 502, 1, 1500, 25), line(3, null, 1, 1000)],
    });
    expectValid(withTax, invoiceDetail);
    expect(withTax).toContain('<InvoiceDetailItemReference lineNumber="10">');
    // A suite line number that is not a whole number: the invoice line's own.
    expect(withTax).toContain('<InvoiceDetailItemReference lineNumber="2">');
    expect(withTax).toContain('<NetAmount><Money currency="USD">3794.25</Money></NetAmount>');
    const plain = invoiceDetailRequest({ ...connection, mode: "test" }, order, {
      number: "INV-2",
      invoiceDate: "2026-11-30",
      currency: "USD",
      subtotalCents: 1500,
      taxCents: 0,
      freightCents: 0,
      totalCents: 1500,
      lines: [line(1, 502, 1, 1500)],
    });
    expectValid(plain, invoiceDetail);
    expect(plain).not.toContain("ShippingAmount");
  });
});

describe("money and text", () => {
  it("centsOf reads decimals exactly and refuses fractions of a cent; centsToText writes them back", () => {
    expect(centsOf("1249.50")).toBe(124_950);
    expect(centsOf(" 0.1 ")).toBe(10);
    expect(centsOf("12")).toBe(1200);
    expect(centsOf("12.500")).toBe(1250);
    expect(centsOf("12.505")).toBeNull();
    expect(centsOf("1e3")).toBeNull();
    expect(centsOf("-3.07")).toBe(-307);
    for (const cents of [0, 1, 99, 100, 124_950, 999_999_999]) expect(centsOf(centsToText(cents))).toBe(cents);
  });

  it("escapeXml leaves no markup and drops characters XML cannot carry", () => {
    expect(escapeXml(`<a href="x">&'\u0001\uD800`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
  });
});
