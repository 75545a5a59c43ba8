import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_VENDOR_ID } from "../../src/api/vendors/routes";
import { clientToken, expectAccessible, launchChromium } from "./chromium";

/**
 * The vendor order desk in a real headless Chromium against `wrangler dev` (docs/desk.md), with a virtual authenticator
 * (the Chrome DevTools Protocol's WebAuthn domain) standing for the user's device: invited by the operator, the user
 * creates a passkey and lands on the worklist, opens a line, signs out and signs in again, all from the keyboard. Each
 * page is checked with axe-core for serious or critical violations. The desk is opened at localhost (a secure context
 * and a valid WebAuthn RP ID, which an IP address is not).
 */

const baseUrl = inject("baseUrl");
const operator = inject("operator");
const deskBase = baseUrl.replace("127.0.0.1", "localhost");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
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

/** Tab to the control named `name` and press Enter: the keyboard alone. */
async function pressByKeyboard(page: Page, name: string): Promise<void> {
  for (let tabs = 0; tabs < 40; tabs++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(
      () =>
        (
          globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }
        ).document.activeElement?.textContent?.trim() ?? "",
    );
    if (focused === name) {
      await page.keyboard.press("Enter");
      return;
    }
  }
  throw new Error(`no focusable control named ${name}`);
}

describe("the vendor order desk in a browser", () => {
  it("invited, creates a passkey, works, signs out and in again with it: keyboard only, every page accessible", async () => {
    const invited = await fetch(`${baseUrl}/admin/api/vendors/${DEMO_VENDOR_ID}/desk-users`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await clientToken(baseUrl, operator)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email: `e2e-${Date.now()}@oem.example`, displayName: "E2E Desk", role: "admin" }),
    });
    expect(invited.status).toBe(201);
    const { invitationUrl } = ((await invited.json()) as { data: { invitationUrl: string } }).data;

    // axe-core is injected into the desk's pages, whose Content-Security-Policy would otherwise refuse it.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await withAuthenticator(context);
    await page.goto(invitationUrl.replace(baseUrl, deskBase));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Create your passkey");
    await expectAccessible(page, "invitation page");
    await pressByKeyboard(page, "Create a passkey");
    await page.waitForURL(`${deskBase}/desk`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Your work");
    await expectAccessible(page, "worklist");

    // A line of the demo vendor's: its page and the forms its state allows.
    const lineLinks = page.locator("tbody a");
    expect(await lineLinks.count()).toBeGreaterThan(0);
    await lineLinks.first().click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toMatch(/^Line \d+ of ORD-/);
    await expectAccessible(page, "line page");

    // The users page (an admin's), then sign out and in again with the same passkey.
    await page.goto(`${deskBase}/desk/users`);
    await expectAccessible(page, "users page");
    // A form post: Chromium sends its Origin as "null" under Referrer-Policy no-referrer; Sec-Fetch-Site says same-origin.
    await pressByKeyboard(page, "Sign out");
    await page.waitForURL(`${deskBase}/desk/sign-in`);
    await expectAccessible(page, "sign-in page");
    await pressByKeyboard(page, "Sign in with a passkey");
    await page.waitForURL(`${deskBase}/desk`);
    expect(await page.locator(".who").textContent()).toContain("E2E Desk");
    await context.close();
  });
});
