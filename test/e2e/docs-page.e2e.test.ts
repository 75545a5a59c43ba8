import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { API_VERSIONS, FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { launchChromium } from "./chromium";

/** The /docs page in a real headless Chromium (Debian's `chromium`), against `wrangler dev`. */

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

const baseUrl = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => browser?.close());

async function documentedOperations(): Promise<string[]> {
  const res = await fetch(`${baseUrl}/customer/api/openapi.json`);
  expect(res.status).toBe(200);
  const document = (await res.json()) as {
    paths: Record<string, Record<string, unknown>>;
    webhooks?: Record<string, Record<string, unknown>>;
  };
  // Operations, then the webhooks (one per event type), which Swagger UI renders as operations named by the webhook.
  return [...Object.entries(document.paths), ...Object.entries(document.webhooks ?? {})].flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => HTTP_METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

describe("GET /docs", () => {
  it("renders every documented operation from the Worker's own assets, with no outside request", async () => {
    const expected = await documentedOperations();
    expect(expected).toContain("POST /auth/oauth2/token");

    const page = await browser.newPage();
    const outside: string[] = [];
    const pageErrors: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(baseUrl) && !r.url().startsWith("data:")) outside.push(r.url());
    });
    page.on("pageerror", (e) => pageErrors.push(e.message));

    const res = await page.goto(`${baseUrl}/docs`);
    expect(res?.status()).toBe(200);
    await page.waitForSelector(".opblock", { timeout: 30_000 });
    // Swagger UI renders the operations tag by tag: 150-odd of them take seconds on a loaded machine.
    await expect.poll(() => page.locator(".opblock").count(), { timeout: 30_000 }).toBe(expected.length);

    const rendered = await page.$$eval(".opblock", (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector(".opblock-summary-method")?.textContent?.trim()} ${b.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
      ),
    );
    expect(rendered.sort()).toEqual([...expected].sort());
    // Two panels (site/docs/medparts-docs.js): the buyers' and vendors' APIs first, then the operator plane's.
    expect(await page.locator(".info .title").first().textContent()).toContain("Medparts Customer API");

    // The Authorize dialog offers the OAuth2 client credentials flow from the document.
    await page.locator("button.authorize").first().click();
    const dialog = page.locator(".dialog-ux .modal-ux");
    await expect.poll(() => dialog.textContent()).toContain("clientCredentials");
    expect(await dialog.textContent()).toContain(`${baseUrl}/auth/oauth2/token`);
    await page.keyboard.press("Escape");

    // The version selector lists every version, the latest chosen; another one renders that version's document.
    const versions = await page.$$eval("#api-version option", (options) => options.map((o) => o.getAttribute("value") ?? ""));
    expect([...versions].reverse()).toEqual([...API_VERSIONS]);
    expect(await page.locator(".info .version").first().textContent()).toContain(LATEST_VERSION);
    await page.selectOption("#api-version", FIRST_VERSION);
    await expect.poll(() => page.locator(".info .version").first().textContent(), { timeout: 30_000 }).toContain(FIRST_VERSION);

    if (process.env.E2E_SCREENSHOTS) {
      mkdirSync(process.env.E2E_SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/docs.png`, fullPage: false });
    }
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
