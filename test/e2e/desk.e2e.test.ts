import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import { clientToken, expectAccessible, launchChromium } from "./chromium";

/**
 * A desk user's whole day in a real headless Chromium against `wrangler dev` (docs/desk.md, "Tests"), with a virtual
 * authenticator (the Chrome DevTools Protocol's WebAuthn domain) standing for the user's device: invited by the
 * operator, the user creates a passkey and lands on the worklist, confirms a line with a price change, ships it in two
 * parcels scanning each unit's UDI, confirms and ships an exchange line, receives its core, invoices the order, and
 * signs out and in again. The day runs twice: with the pointer, and with the keyboard alone (Tab to a control, type,
 * Enter). Each page is checked with axe-core (no serious or critical violation) and kept as a screenshot under
 * test-results/e2e/desk/. The desk is opened at localhost (a secure context and a valid WebAuthn RP ID, which an IP
 * address is not).
 */

const baseUrl = inject("baseUrl");
const operator = inject("operator");
const buyer = inject("buyer");
const vendor = inject("vendor");
const deskBase = baseUrl.replace("127.0.0.1", "localhost");
const SCREENSHOTS = path.join(import.meta.dirname, "../../test-results/e2e/desk");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** A page whose browser has a platform authenticator with user verification, answering by itself. */
async function withAuthenticator(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

/** How the user works the page: the pointer, or the keyboard alone. */
interface Hands {
  /** Uses the button or link named `name`, and waits for the page it leads to (every one of the desk's leads to one). */
  press(name: string): Promise<void>;
  /** Types `text` into the field labelled `label` (a select: chooses the option starting with `text`). */
  fill(label: string, text: string): Promise<void>;
}

const pointer = (page: Page): Hands => ({
  press: async (name) => {
    const loaded = page.waitForEvent("load");
    await page
      .getByRole("button", { name, exact: true })
      .or(page.getByRole("link", { name, exact: true }))
      .first()
      .click();
    await loaded;
  },
  fill: async (label, text) => {
    const field = page.getByLabel(label, { exact: true });
    if ((await field.evaluate((element) => element.tagName)) === "SELECT") {
      const option = await field
        .locator("option")
        .filter({ hasText: new RegExp(`^${text}`) })
        .first()
        .getAttribute("value");
      await field.selectOption(option!);
    } else await field.fill(text);
  },
});

/** The accessible name of the focused control: its label, aria-label, or text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = (globalThis as unknown as { document: { activeElement: any } }).document.activeElement;
    if (!element) return "";
    return (element.labels?.[0]?.textContent ?? element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
  });

const keyboard = (page: Page): Hands => {
  const focus = async (name: string) => {
    for (let tabs = 0; tabs < 150; tabs++) {
      await page.keyboard.press("Tab");
      if ((await focusedName(page)) === name) return;
    }
    throw new Error(`no focusable control named ${name}`);
  };
  return {
    press: async (name) => {
      await focus(name);
      const loaded = page.waitForEvent("load");
      await page.keyboard.press("Enter");
      await loaded;
    },
    fill: async (label, text) => {
      await focus(label);
      const kind = await page.evaluate(() => {
        const element = (globalThis as unknown as { document: { activeElement: any } }).document.activeElement;
        return element.tagName === "SELECT" ? "select" : element.type;
      });
      if (kind === "date") {
        // Chromium's date field takes the digits of its segments (en-US: month, day, year).
        const [year, month, day] = text.split("-");
        await page.keyboard.type(`${month}${day}${year}`);
      } else if (kind === "select") {
        await page.keyboard.type(text);
      } else {
        await page.keyboard.press("Control+A");
        // A keyboard-wedge scanner types each label and Enter: a newline in the text is an Enter.
        for (const [i, part] of text.split("\n").entries()) {
          if (i > 0) await page.keyboard.press("Enter");
          await page.keyboard.type(part);
        }
      }
    },
  };
};

async function api(client: { clientId: string; clientSecret: string }, method: string, url: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      Authorization: `Bearer ${await clientToken(baseUrl, client)}`,
      "Content-Type": "application/json",
      ...(method === "POST" ? { "Idempotency-Key": crypto.randomUUID() } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as { data: any };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The day's order: tenant 1 buys two units of a part the demo vendor sells outright and one it sells on exchange (a core
 * comes back), each a fresh offer of the demo vendor's on a demo product.
 */
async function theDaysOrder(run: string, productIndexes: [number, number]) {
  const [plain, exchange] = productIndexes.map(productId) as [string, string];
  const offers = [
    {
      sku: `E2E-${run}-BUY`,
      productId: plain,
      condition: "New OEM",
      purchaseChoice: "Buy",
      warranty: "1 year",
      price: "120.00",
      leadTimeDays: 2,
    },
    {
      sku: `E2E-${run}-EXC`,
      productId: exchange,
      condition: "Refurbished",
      purchaseChoice: "Exchange",
      warranty: "6 months",
      price: "800.00",
      leadTimeDays: 2,
      purchaseType: "exchange",
      exchangeTerms: { coreCharge: "300.00", coreDueDays: 30, coreConditions: ["Complete"] },
    },
  ];
  const quoteItems = [];
  for (const { sku, ...offer } of offers) {
    await api(vendor, "PUT", `/vendor/api/offers/${sku}`, offer);
    const detail = await api(buyer, "POST", "/customer/api/catalog/detail", {
      productId: offer.productId,
      requesterId: 50001,
      facilityId: 1001,
    });
    const option = detail.data.options.find((candidate: { vendorSku: string }) => candidate.vendorSku === sku);
    expect(option, sku).toBeDefined();
    quoteItems.push({
      priceOptionId: option.priceOptionId,
      productId: offer.productId,
      quantity: sku.endsWith("BUY") ? 2 : 1,
      price: option.price,
    });
  }
  const placed = await api(buyer, "POST", "/customer/api/orders", {
    requesterId: 50001,
    userId: 1,
    facilityId: 1001,
    shippingAddressId: 11,
    billingAddressId: 13,
    shippingMethod: "GROUND",
    poNumber: `PO-E2E-${run}`,
    quoteItems,
  });
  return { orderNumber: placed.data.orderNumber as string, gtin: generateDeviceIdentifiers(productIndexes[0])[0]!.deviceId };
}

type Look = (heading: string | RegExp, name: string) => Promise<void>;

/** An admin's pages, each checked and kept: the users, the offers and one offer changed, a price file to its end. */
async function adminPages(page: Page, use: Hands, look: Look, says: (text: string) => Promise<void>, run: string, productIndex: number) {
  await page.goto(`${deskBase}/desk/users`);
  await look("Your vendor's users", "users");
  await use.press("Offers");
  await look("Your offers", "offers");
  await use.fill("Search", `sku:"E2E-${run}-BUY"`);
  await use.press("Search");
  await use.press(`E2E-${run}-BUY`);
  await look(`Offer E2E-${run}-BUY`, "offer");
  await use.fill("Lead time (days)", "1");
  await use.press("Save");
  await says("Done: the offer is published.");
  await page.goto(`${deskBase}/desk/price-files`);
  await look("Price files", "price-files");
  const csv = `sku,productId,condition,purchaseChoice,warranty,price,leadTimeDays\nE2E-${run}-PF,${productId(productIndex)},New OEM,Buy,1 year,99.00,3\nE2E-${run}-BAD,${productId(productIndex)},New OEM,Buy,1 year,free,3\n`;
  await page.getByLabel(/^File/).setInputFiles({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await use.press("Upload and start");
  await expect.poll(() => page.locator(".job-rate").textContent(), { timeout: 30_000 }).toContain("1 created");
  await look("Price file", "price-file-done");
  // The wrong row, by its line in the file (the header is line 1).
  expect(await page.locator("tbody tr").count()).toBe(1);
  expect(await page.locator("tbody tr td").first().textContent()).toBe("3");
}

describe("a desk user's whole day in a browser", () => {
  for (const [mode, hands, products] of [
    ["pointer", pointer, [40, 41]],
    ["keyboard", keyboard, [42, 43]],
  ] as const) {
    it(`invited, signs in with a passkey, confirms with a price change, ships two parcels scanning UDIs, receives a core, invoices, signs out (${mode})`, async () => {
      const run = `${mode.slice(0, 3).toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
      const { orderNumber, gtin } = await theDaysOrder(run, [...products]);
      const invited = await api(operator, "POST", `/admin/api/vendors/${DEMO_VENDOR_ID}/desk-users`, {
        email: `e2e-${run.toLowerCase()}@oem.example`,
        displayName: `E2E ${mode}`,
        role: "admin",
      });

      // axe-core is injected into the desk's pages, whose Content-Security-Policy would otherwise refuse it.
      const context = await browser.newContext({ bypassCSP: true, locale: "en-US", viewport: { width: 1366, height: 768 } });
      const page = await withAuthenticator(context);
      const use = hands(page);
      let shot = 0;
      /** The page as the user sees it now: its heading, axe-core's verdict, a screenshot kept. */
      const look = async (heading: string | RegExp, name: string) => {
        await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toMatch(heading);
        await expectAccessible(page, name);
        shot += 1;
        await page.screenshot({ path: path.join(SCREENSHOTS, `${mode}-${String(shot).padStart(2, "0")}-${name}.png`), fullPage: true });
      };
      const says = (text: string) => expect.poll(() => page.locator("main").textContent()).toContain(text);

      await page.goto(invited.data.invitationUrl.replace(baseUrl, deskBase));
      await look("Create your passkey", "invitation");
      await use.press("Create a passkey");
      await page.waitForURL(`${deskBase}/desk`);
      // The order reaches the vendor's projection within seconds.
      await expect
        .poll(async () => {
          await page.reload();
          return page.locator("main").textContent();
        })
        .toContain(orderNumber);
      await look("Your work", "worklist");

      await use.press(orderNumber);
      await look(`Order ${orderNumber}`, "order");
      await use.press("1");
      await look(`Line 1 of ${orderNumber}`, "line-to-confirm");
      // Confirmed with a price change (IP): a lower price applies at once.
      await use.fill("Status (X12 855)", "IP");
      await use.fill("New unit price", "110.00");
      await use.fill("Promised ship date", day(2));
      await use.fill("Reason (shown to the buyer)", "Distributor promotion");
      await use.press("Send the confirmation");
      await says("Done: the confirmation is sent.");
      await expect.poll(() => page.locator("dl.facts").textContent()).toContain("Acknowledged");

      // Two parcels, one unit each, its label scanned.
      for (const parcel of [1, 2]) {
        await use.fill("Tracking number", `1ZE2E${run}${parcel}`);
        await use.fill("Quantity", "1");
        await use.fill("Scan each unit's label", `(01)${gtin}(17)301231(10)LOT-${run}(21)SN-${run}-${parcel}\n`);
        await use.press("Ship");
        await says("Done: the parcel is shipped.");
        expect(await page.locator("dl.facts").textContent()).toContain(`(shipped ${parcel})`);
      }
      await look(`Line 1 of ${orderNumber}`, "line-shipped");

      // The exchange line: confirmed and shipped; its core opens, the hospital sends it back, the user receives it.
      await use.press("The whole order, and its invoice");
      await look(`Order ${orderNumber}`, "order-half-shipped");
      await use.press("2");
      await use.fill("Ship by", day(1));
      await use.press("Confirm the line");
      await says("Done: the line is confirmed.");
      await use.fill("Tracking number", `1ZE2E${run}3`);
      await use.press("Ship");
      await says("Done: the parcel is shipped.");
      const [core] = (
        await api(buyer, "GET", `/customer/api/returns?q=${encodeURIComponent(`kind:core AND orderNumber:"${orderNumber}"`)}`)
      ).data.returns;
      await api(buyer, "POST", `/customer/api/returns/${core.returnId}/ship`, { carrierName: "UPS", trackingNumber: `1ZCORE${run}` });
      await page.reload();
      await look(`Line 2 of ${orderNumber}`, "line-core-to-receive");
      await says(`Core ${core.rmaNumber}`);
      await use.press("Receive the core");
      await says("Done: the unit is received.");
      await says("Nothing more to do.");

      // The invoice of what shipped, filled in; matched at once.
      await use.press("The whole order, and its invoice");
      await use.fill("Invoice number", `INV-${run}`);
      await use.fill("Freight", "15.00");
      await use.press("Send the invoice");
      await look(`Invoice INV-${run}`, "invoice");
      await says("Matched: every line agrees with the order and what shipped.");
      // 2 × 110.00 + 1 × 800.00 + 15.00 freight.
      expect(await page.locator("dl.facts").textContent()).toContain("1035.00");

      // The hospital sees the price change, the parcels' units and the core received.
      const order = (await api(buyer, "GET", `/customer/api/orders/${orderNumber}?include=lineItems`)).data;
      expect(order.lineItems.map((line: { price: string }) => line.price).sort()).toEqual(["110.00", "800.00"]);
      const accepted = (await api(buyer, "GET", `/customer/api/returns/${core.returnId}`)).data;
      expect(accepted.status).toBe("accepted");

      // The admin's pages: users, offers (one changed), a price file followed to its end.
      if (mode === "pointer") await adminPages(page, use, look, says, run, products[0]);

      // On a tablet: the worklist with no sideways scrolling of the page.
      await page.setViewportSize({ width: 768, height: 1024 });
      await page.goto(`${deskBase}/desk`);
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
          .documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await look("Your work", "worklist-tablet");
      await page.setViewportSize({ width: 1366, height: 768 });

      await use.press("Sign out");
      await page.waitForURL(`${deskBase}/desk/sign-in`);
      await look("Sign in", "sign-in");
      await use.press("Sign in with a passkey");
      await page.waitForURL(`${deskBase}/desk`);
      expect(await page.locator(".who").textContent()).toContain(`E2E ${mode}`);
      await context.close();
    });
  }
});
