import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import { readXml, type XmlElement } from "../../src/operator/procurement/xml";

/**
 * The PunchOut in a real headless Chromium against `wrangler dev`, as a requisitioner uses it from inside a procurement
 * suite: the suite's PunchOutSetupRequest, the shop (search, a product's prices, a scanned label, the cart), Transfer
 * cart posting the PunchOutOrderMessage to the suite's BrowserFormPost URL (a loopback server playing the suite), then the
 * suite's OrderRequest of that cart. Each page is checked with axe-core for serious or critical violations.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const baseUrl = inject("baseUrl");
const operator = inject("operator");
let browser: Browser;
let suite: Server;
let suiteUrl: string;
const posted: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  // The suite's BrowserFormPost receiver: keeps the cxml-urlencoded field of each form posted to it.
  suite = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
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

async function operatorToken(): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: operator.clientId, client_secret: operator.clientSecret }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const SUPPLIER = { domain: "NetworkID", identity: "AN-MEDPARTS-E2E" };

async function cxml(document: string): Promise<{ code: number; text: string; root: XmlElement }> {
  const res = await fetch(`${baseUrl}/cxml`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: document });
  expect(res.status).toBe(200);
  const root = readXml(new Uint8Array(await res.arrayBuffer()));
  const status = root.children.find((c) => c.name === "Response")!.children.find((c) => c.name === "Status")!;
  return { code: Number(status.attributes.code), text: status.text.trim(), root };
}

const find = (root: XmlElement | undefined, ...names: string[]) =>
  names.reduce<XmlElement | undefined>((element, name) => element?.children.find((c) => c.name === name), root);

function envelope(buyer: string, secret: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.063/cXML.dtd">
<cXML payloadID="${Date.now()}.${Math.random()}@suite.example" timestamp="2026-11-29T10:00:00+00:00"><Header>
<From><Credential domain="NetworkID"><Identity>${buyer}</Identity></Credential></From>
<To><Credential domain="${SUPPLIER.domain}"><Identity>${SUPPLIER.identity}</Identity></Credential></To>
<Sender><Credential domain="NetworkID"><Identity>${buyer}</Identity><SharedSecret>${secret}</SharedSecret></Credential><UserAgent>E2E suite</UserAgent></Sender>
</Header><Request>${body}</Request></cXML>`;
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe.run();
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact})`);
  });
  expect(violations, what).toEqual([]);
}

describe("PunchOut from a procurement suite, in a browser", () => {
  it("sets up, searches, adds from a product page and by a scanned label, transfers the cart, and the suite's order of it is placed", async () => {
    const buyer = `AN-E2E-${Date.now()}`;
    const made = await fetch(`${baseUrl}/admin/api/procurement-connections`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await operatorToken()}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        tenantId: 1,
        name: "E2E suite",
        buyerIdentities: [{ domain: "NetworkID", identity: buyer }],
        supplierIdentity: SUPPLIER,
        facilityId: 1001,
        requesterId: 50001,
        userId: 1,
        shipToAddressId: 11,
        billToAddressId: 13,
      }),
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
    const first = page.locator("tbody a").first();
    const chosen = decodeURIComponent((await first.getAttribute("href"))!.split("/").at(-1)!);
    await first.click();
    await expectAccessible(page, "product page");
    const form = page.locator("form.inline").first();
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
    const lines = items
      .map((item, i) => {
        const extrinsics = find(item, "ItemDetail")!
          .children.filter((c) => c.name === "Extrinsic")
          .map((c) => `<Extrinsic name="${c.attributes.name}">${c.text}</Extrinsic>`)
          .join("");
        return `<ItemOut quantity="${item.attributes.quantity}" lineNumber="${i + 1}"><ItemID><SupplierPartID>${find(item, "ItemID", "SupplierPartID")!.text}</SupplierPartID><SupplierPartAuxiliaryID>${find(item, "ItemID", "SupplierPartAuxiliaryID")!.text}</SupplierPartAuxiliaryID></ItemID><ItemDetail><UnitPrice><Money currency="USD">${find(item, "ItemDetail", "UnitPrice", "Money")!.text}</Money></UnitPrice><Description xml:lang="en">x</Description><UnitOfMeasure>EA</UnitOfMeasure><Classification domain="UNSPSC">42000000</Classification>${extrinsics}</ItemDetail></ItemOut>`;
      })
      .join("");
    const order = await cxml(
      envelope(
        buyer,
        sharedSecret,
        `<OrderRequest><OrderRequestHeader orderID="PO-E2E-${Date.now()}" orderDate="2026-11-29T10:00:00+00:00" type="new"><Total><Money currency="USD">0</Money></Total></OrderRequestHeader>${lines}</OrderRequest>`,
      ),
    );
    expect(order.code, order.text).toBe(200);
    expect(order.text).toMatch(/Medparts order \S+ for orderID PO-E2E-/);
  });
});
