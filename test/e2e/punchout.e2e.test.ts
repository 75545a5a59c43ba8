import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { demoConnection, findIn, orderRequestOfCart } from "../../scripts/demo/cxml-suite";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { generateDeviceIdentifiers, productId, VENDORS } from "../../src/dev/seed/catalog";
import { readXml, type XmlElement } from "../../src/operator/procurement/xml";
import { clientToken, expectAccessible, launchChromium } from "./chromium";

/**
 * The PunchOut in a real headless Chromium against `wrangler dev`, as a requisitioner uses it from inside a procurement
 * suite: the suite's PunchOutSetupRequest, the shop (search, a product's prices, a scanned label, the cart), Transfer
 * cart posting the PunchOutOrderMessage to the suite's BrowserFormPost URL (a loopback server playing the suite), the
 * suite's OrderRequest of that cart, and the vendor's acknowledgement and parcel coming back to the suite as
 * ConfirmationRequest and ShipNoticeRequest. Each page is checked with axe-core for serious or critical violations.
 */

const baseUrl = inject("baseUrl");
const operator = inject("operator");
const vendor = inject("vendor");
let browser: Browser;
let suite: Server;
let suiteUrl: string;
const posted: string[] = [];
/** The documents Medparts sent to the suite's documentUrl. */
const documents: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  // The suite's BrowserFormPost receiver: keeps the cxml-urlencoded field of each form posted to it.
  suite = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/cxml") {
        documents.push(body);
        res.writeHead(200, { "Content-Type": "text/xml" }).end('<cXML><Response><Status code="200" text="OK"/></Response></cXML>');
        return;
      }
      if (req.method === "POST") posted.push(new URLSearchParams(body).get("cxml-urlencoded") ?? "");
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>Suite</title><h1>Cart received</h1>");
    });
  });
  await new Promise<void>((resolve) => suite.listen(0, "127.0.0.1", resolve));
  suiteUrl = `http://127.0.0.1:${(suite.address() as AddressInfo).port}/punchout/return`;
});
afterAll(async () => {
  await browser?.close();
  suite?.close();
});

/** A call of the vendor API as the demo vendor. */
async function asVendor<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/vendor/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${await clientToken(baseUrl, vendor)}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const SUPPLIER = { domain: "NetworkID", identity: "AN-MEDPARTS-E2E" };
const DEMO_VENDOR_NAME = VENDORS.find((v) => v.id === DEMO_VENDOR_ID)!.name;

async function cxml(document: string): Promise<{ code: number; text: string; root: XmlElement }> {
  const res = await fetch(`${baseUrl}/cxml`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: document });
  expect(res.status).toBe(200);
  const root = readXml(new Uint8Array(await res.arrayBuffer()));
  const status = root.children.find((c) => c.name === "Response")!.children.find((c) => c.name === "Status")!;
  return { code: Number(status.attributes.code), text: status.text.trim(), root };
}

const find = findIn;

function envelope(buyer: string, secret: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.063/cXML.dtd">
<cXML payloadID="${Date.now()}.${Math.random()}@suite.example" timestamp="2026-11-29T10:00:00+00:00"><Header>
<From><Credential domain="NetworkID"><Identity>${buyer}</Identity></Credential></From>
<To><Credential domain="${SUPPLIER.domain}"><Identity>${SUPPLIER.identity}</Identity></Credential></To>
<Sender><Credential domain="NetworkID"><Identity>${buyer}</Identity><SharedSecret>${secret}</SharedSecret></Credential><UserAgent>E2E suite</UserAgent></Sender>
</Header><Request>${body}</Request></cXML>`;
}

describe("PunchOut from a procurement suite, in a browser", () => {
  it("sets up, searches, adds from a product page and by a scanned label, transfers the cart; the suite's order of it is placed and confirmed and its parcel noticed", async () => {
    const buyer = `AN-E2E-${Date.now()}`;
    const made = await fetch(`${baseUrl}/admin/api/procurement-connections`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await clientToken(baseUrl, operator)}`, "Content-Type": "application/json" },
      body: JSON.stringify(demoConnection("E2E suite", buyer, SUPPLIER, suiteUrl.replace("/punchout/return", "/cxml"))),
    });
    expect(made.status).toBe(201);
    const { sharedSecret } = ((await made.json()) as { data: { sharedSecret: string } }).data;

    const setup = await cxml(
      envelope(
        buyer,
        sharedSecret,
        `<PunchOutSetupRequest operation="create"><BuyerCookie>e2e-cookie</BuyerCookie><BrowserFormPost><URL>${suiteUrl}</URL></BrowserFormPost></PunchOutSetupRequest>`,
      ),
    );
    expect(setup.code, setup.text).toBe(200);
    const startPage = find(setup.root, "Response", "PunchOutSetupResponse", "StartPage", "URL")!.text;

    // axe-core is injected into the shop's pages, whose Content-Security-Policy would otherwise refuse it.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(startPage);
    expect(new URL(page.url()).pathname).toBe("/punchout/shop");
    await expectAccessible(page, "catalog page");

    // Search by keyboard: the search field, Enter; then a product of the results.
    await page.getByLabel("Search parts").fill("");
    await page.getByLabel("Search parts").press("Enter");
    await expect.poll(() => page.locator("tbody a").count()).toBeGreaterThan(0);
    // A product the demo vendor offers, so that its line can be moved along below as that vendor.
    const { offers } = (await asVendor<{ data: { offers: { productId: string; purchaseType: string }[] } }>("GET", "/offers?limit=50"))
      .data;
    const chosen = offers.find((offer) => offer.purchaseType === "buy")!.productId;
    await page.goto(`${baseUrl}/punchout/shop/products/${chosen}`);
    await expectAccessible(page, "product page");
    const form = page.locator("tbody tr", { hasText: DEMO_VENDOR_NAME }).locator("form.inline").first();
    for (const field of await form.locator("input[name^='field:']").all()) await field.fill("2030-01-31");
    await form.getByLabel("Quantity").fill("2");
    await form.getByRole("button", { name: "Add to cart" }).click();
    expect(new URL(page.url()).pathname).toBe("/punchout/shop/cart");

    // A keyboard-wedge scanner types the label into the scan field and presses Enter.
    const gtin = generateDeviceIdentifiers(11)[0]!.deviceId;
    await page.getByLabel("Scan a label").pressSequentially(`(01)${gtin}(10)LOT-E2E`);
    await page.getByLabel("Scan a label").press("Enter");
    await expect.poll(() => page.locator("tbody tr").count()).toBe(2);
    await expectAccessible(page, "cart page");

    await page.getByRole("button", { name: "Transfer cart" }).click();
    await page.waitForURL(suiteUrl);
    expect(await page.textContent("h1")).toBe("Cart received");
    await context.close();

    const message = readXml(new TextEncoder().encode(posted.at(-1)!));
    const poom = find(message, "Message", "PunchOutOrderMessage")!;
    expect(find(poom, "BuyerCookie")!.text).toBe("e2e-cookie");
    const items = poom.children.filter((c) => c.name === "ItemIn");
    expect(items.map((item) => find(item, "ItemID", "SupplierPartID")!.text)).toEqual([chosen, productId(11)]);

    // The suite's OrderRequest of the transferred cart, each line held to its quote.
    const order = await cxml(envelope(buyer, sharedSecret, orderRequestOfCart(`PO-E2E-${Date.now()}`, items)));
    expect(order.code, order.text).toBe(200);
    expect(order.text).toMatch(/Medparts order \S+ for orderID PO-E2E-/);

    // The vendor acknowledges and ships its line: the suite gets a ConfirmationRequest, then a ShipNoticeRequest.
    const orderNumber = /order (\S+) for orderID/.exec(order.text)![1]!;
    const { lines: vendorLines } = (
      await asVendor<{ data: { lines: { lineId: number }[] } }>("GET", `/order-lines?orderNumber=${encodeURIComponent(orderNumber)}`)
    ).data;
    const lineId = vendorLines[0]!.lineId;
    await asVendor("POST", `/order-lines/${lineId}/acknowledge`, {
      promisedShipDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    });
    await asVendor("POST", `/order-lines/${lineId}/ship`, { trackingNumber: "1ZE2E0001", carrierName: "UPS" });
    await expect.poll(() => documents.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const kinds = documents.map((text) => find(readXml(new TextEncoder().encode(text)), "Request")!.children[0]!.name);
    expect(kinds.slice(0, 2)).toEqual(["ConfirmationRequest", "ShipNoticeRequest"]);
  });
});
