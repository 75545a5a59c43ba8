import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GUIDES } from "../../scripts/portal/guides";
import { AUDIENCE_NAMES, AUDIENCES } from "../../src/platform/openapi/audiences";
import { API_VERSIONS, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { launchChromium } from "./chromium";

/** The developer portal (/docs) in a real headless Chromium (Debian's `chromium`), against `wrangler dev`. */

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** An operation of each reference (its anchor), whose code samples the reference test opens. */
const SAMPLED_OPERATION = {
  customer: "orders/POST/customer/api/orders",
  vendor: "vendor-fulfilment/GET/vendor/api/order-lines",
  operator: "catalog-import/POST/admin/api/catalog/imports",
  scim: "scim/GET/scim/v2/Users",
} as const;

/** Screenshots of each reference and of a guide, kept as artifacts of the run (git-ignored). */
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? "test-results/e2e";
const FIRST_PAINT_BUDGET_MS = 1_500;

const baseUrl = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => browser?.close());

/** A page that records requests to other hosts and script errors. */
async function watchedPage(): Promise<{ page: Page; outside: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(baseUrl) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) outside.push(r.url());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, outside, errors };
}

type Impact = "minor" | "moderate" | "serious" | "critical";
const SERIOUS: readonly Impact[] = ["serious", "critical"];
const EVERY_IMPACT: readonly Impact[] = ["minor", "moderate", ...SERIOUS];

/** axe-core's violations of the given impacts (serious and critical unless told) on the page as it is now. */
async function violations(page: Page, impacts: readonly Impact[] = SERIOUS): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const { axe } = globalThis as unknown as {
      axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
    };
    return (await axe.run()).violations;
  });
  return found
    .filter((v) => impacts.includes(v.impact as Impact))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The page's first contentful paint, ms after navigation started. */
const firstPaint = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        new PerformanceObserver((list: { getEntries: () => { name: string; startTime: number }[] }) => {
          const paint = list.getEntries().find((entry) => entry.name === "first-contentful-paint");
          if (paint) resolve(paint.startTime);
        }).observe({ type: "paint", buffered: true }),
      ),
  );

describe("the developer portal", () => {
  it("home, every guide and an error page: painted within 1.5 s, searchable, accessible, nothing from another host", async () => {
    const { page, outside, errors } = await watchedPage();
    for (const path of ["/docs", ...GUIDES.map((guide) => `/docs/guides/${guide}`), "/docs/errors/price-option-used"]) {
      const res = await page.goto(`${baseUrl}${path}`);
      expect(res?.status(), path).toBe(200);
      expect(await firstPaint(page), path).toBeLessThanOrEqual(FIRST_PAINT_BUDGET_MS);
      expect(await violations(page), path).toEqual([]);
    }
    await page.goto(`${baseUrl}/docs/guides/webhooks`);
    await page.screenshot({ path: `${ARTIFACTS}/guide-webhooks.png` });

    // The left navigation has every guide and reference.
    const navigation = await page.$$eval("nav.side a", (links) => links.map((a) => a.getAttribute("href")));
    for (const guide of GUIDES) expect(navigation).toContain(`/docs/guides/${guide}`);
    for (const audience of AUDIENCE_NAMES) expect(navigation).toContain(`/docs/reference/${audience}`);

    // Search: typing loads the index and lists matching pages; a result leads to its page.
    await page.fill("#portal-search", "idempotency");
    await expect.poll(() => page.locator("#portal-results a").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const titles = await page.$$eval("#portal-results a", (links) => links.map((a) => a.getAttribute("href")));
    expect(titles).toContain("/docs/guides/orders");
    await page.fill("#portal-search", "signature");
    await expect
      .poll(() => page.$$eval("#portal-results a", (links) => links.map((a) => a.getAttribute("href"))))
      .toContain("/docs/guides/webhooks");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/docs\/(guides|errors|reference)\//);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("one search over guides, errors and every reference's operations: a result leads to the operation", async () => {
    const { page, outside, errors } = await watchedPage();
    const contract = (await (await fetch(`${baseUrl}/customer/api/openapi.json?audience=customer`)).json()) as {
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    const lookup = contract.paths["/customer/api/users/lookup"]!.get!;
    const anchor = `/docs/reference/customer#tag/${lookup.tags[0]!.toLowerCase()}/GET/customer/api/users/lookup`;
    await page.goto(`${baseUrl}/docs/guides/getting-started`);
    const results = () => page.$$eval("#portal-results a", (links) => links.map((a) => a.getAttribute("href") ?? ""));
    // A word of guides and operations alike finds both.
    await page.fill("#portal-search", "webhook");
    await expect.poll(results, { timeout: 15_000 }).toContain("/docs/guides/webhooks");
    expect((await results()).some((href) => href.startsWith("/docs/reference/"))).toBe(true);
    await page.fill("#portal-search", "lookup");
    await expect.poll(results).toContain(anchor);
    await page.locator(`#portal-results a[href="${anchor}"]`).click();
    await page.waitForURL(`${baseUrl}${anchor}`);
    // Scalar shows the operation the address names, in view.
    const heading = page.locator("main.references-rendered").getByText(lookup.summary, { exact: true }).first();
    await expect
      .poll(
        async () => {
          const box = await heading.boundingBox();
          return box !== null && box.y >= 0 && box.y < 900;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("guides: code highlighted, a Copy button on each block, language tabs by keyboard and remembered across pages", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${baseUrl}/docs/guides/webhooks`);
    expect(await page.locator("pre code span[class^='hljs-']").count()).toBeGreaterThan(0);
    expect(await page.locator(".guide pre").count()).toBe(await page.locator(".guide .code > button.copy").count());

    // The first tab shown; a click, then the arrow keys, choose another.
    const tabs = page.getByRole("tablist", { name: "Language" }).getByRole("tab");
    expect(await tabs.allTextContents()).toEqual(["TypeScript (Node)", "Python", "Java (17 or later)", "C# (.NET 5 or later)"]);
    const visiblePanels = () => page.locator('[role="tabpanel"]:visible').evaluateAll((panels) => panels.map((p) => p.id));
    expect(await visiblePanels()).toEqual(["typescript-node-panel"]);
    await page.getByRole("tab", { name: "Python" }).click();
    expect(await visiblePanels()).toEqual(["python-panel"]);
    await page.keyboard.press("ArrowRight");
    expect(await visiblePanels()).toEqual(["java-17-or-later-panel"]);
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Java (17 or later)");
    await page.keyboard.press("End");
    expect(await visiblePanels()).toEqual(["c-net-5-or-later-panel"]);

    // Copy puts the block's code, as shown, on the clipboard.
    await page.locator("#c-net-5-or-later-panel button.copy").click();
    const shown = await page.locator("#c-net-5-or-later-panel pre").textContent();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(shown);
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Copied");

    // The language chosen holds on the next page; a link to a tab's section selects it.
    await page.reload();
    expect(await visiblePanels()).toEqual(["c-net-5-or-later-panel"]);
    await page.goto(`${baseUrl}/docs/guides/webhooks#python`);
    expect(await visiblePanels()).toEqual(["python-panel"]);
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Try-it works out of the box: Authorize runs the client credentials flow, then a read answers 200, with a fresh correlation id each time", async () => {
    const { page, outside, errors } = await watchedPage();
    const buyer = inject("buyer");
    const answers: { url: string; status: number; correlationId: string | undefined }[] = [];
    page.on("response", (res) => {
      if (/\/(auth\/oauth2\/token|customer\/api\/users\/lookup)/.test(res.url()))
        answers.push({ url: res.url(), status: res.status(), correlationId: res.request().headers()["x-correlation-id"] });
    });
    await page.goto(`${baseUrl}/docs/reference/customer`);
    await page.waitForSelector(`h1:has-text("${AUDIENCES.customer.title}")`, { timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    await page.getByText("Client ID:").first().click();
    await page.keyboard.type(buyer.clientId);
    await page.getByText("Client Secret:").first().click();
    await page.keyboard.type(buyer.clientSecret);
    await page.getByRole("button", { name: "Authorize" }).first().click();
    await expect
      .poll(() => answers.filter((a) => a.url.endsWith("/auth/oauth2/token")).map((a) => a.status), { timeout: 10_000 })
      .toEqual([200]);

    await page.getByRole("button", { name: "Open Group - Users" }).click();
    await page.getByText("A user's contact id, companies, facilities and addresses").first().click();
    await page.locator("button", { hasText: "Test Request(get /customer/api/users/lookup)" }).first().click();
    // The Try-it client is a module of its own, fetched when first opened.
    await page.getByRole("dialog", { name: "API Client" }).waitFor();
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press("Control+Enter"); // Scalar's shortcut for Send
      await expect.poll(() => answers.filter((a) => a.url.includes("/users/lookup")).length, { timeout: 10_000 }).toBe(i + 1);
    }
    const reads = answers.filter((a) => a.url.includes("/users/lookup"));
    // The example userId only: loginUserId, its exclusive alternative, has no example to send.
    expect(reads.map((a) => [new URL(a.url).search, a.status])).toEqual([
      ["?userId=1", 200],
      ["?userId=1", 200],
    ]);
    expect(reads[0]!.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reads[1]!.correlationId).not.toBe(reads[0]!.correlationId);

    // The Try-it panel open, with its answer: no violation of any impact (reference.js works around Scalar's own).
    expect(await violations(page, EVERY_IMPACT)).toEqual([]);
    // Closed, it leaves nothing of the page inert.
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator(".scalar-client--open").count()).toBe(0);
    expect(
      await page.locator("header.top, main.references-rendered").evaluateAll((nodes) => nodes.map((n) => n.closest("[inert]") !== null)),
    ).toEqual([false, false]);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const audience of AUDIENCE_NAMES) {
    it(`the ${audience} reference: its own document and no other version's, every version selectable, code samples, accessible`, async () => {
      const { page, outside, errors } = await watchedPage();
      const documents: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/openapi.json")) documents.push(new URL(r.url()).search);
      });
      const res = await page.goto(`${baseUrl}/docs/reference/${audience}`);
      expect(res?.status()).toBe(200);
      expect(await firstPaint(page)).toBeLessThanOrEqual(FIRST_PAINT_BUDGET_MS);
      await page.waitForSelector(`h1:has-text("${AUDIENCES[audience].title}")`, { timeout: 60_000 });
      await page.waitForLoadState("networkidle");

      // Code samples in curl, Node (TypeScript) fetch, Python requests and C# HttpClient, and no other.
      await page.locator("button:has-text('More')").last().click();
      const clients = (await page.locator("[role=option], [role=menuitem]").allTextContents()).map((text) => text.trim());
      expect(clients.sort()).toEqual(["Curl", "Fetch", "HttpClient", "Requests"]);
      await page.keyboard.press("Escape");

      // The selector offers every version, the latest chosen; only the latest's document was fetched, idle time included.
      const selector = page.locator("#api-version");
      expect(await selector.inputValue()).toBe(LATEST_VERSION);
      expect((await selector.locator("option").allTextContents()).sort()).toEqual(
        API_VERSIONS.map((v) => (v === LATEST_VERSION ? `${v} (latest)` : v)).sort(),
      );
      await page.waitForTimeout(3_000);
      expect(documents).toEqual([`?audience=${audience}`]);

      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/reference-${audience}.png` });

      // Another version: its document alone, named in the address so that a link or a reload keeps it.
      const older = API_VERSIONS[0]!;
      await selector.selectOption(older);
      await expect.poll(() => documents).toEqual([`?audience=${audience}`, `?audience=${audience}&version=${older}`]);
      await expect.poll(() => page.locator(`text=v${older}`).count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(new URL(page.url()).searchParams.get("version")).toBe(older);
      await page.reload();
      await page.waitForLoadState("networkidle");
      expect(await page.locator("#api-version").inputValue()).toBe(older);
      expect(documents.at(-1)).toBe(`?audience=${audience}&version=${older}`);

      // The buyer's and the vendor's operations also in the TypeScript and Python SDKs (at the version they speak, the
      // latest): an operation's own picker offers them, and the TypeScript one shows the SDK's typed call.
      const operation = SAMPLED_OPERATION[audience];
      await page.goto(`${baseUrl}/docs/reference/${audience}#tag/${operation}`);
      await page.waitForSelector(`h1:has-text("${AUDIENCES[audience].title}")`, { timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      await page.locator("[data-testid=client-picker]:visible").first().click();
      const samples = (await page.locator("[role=option]").allTextContents()).map((text) => text.trim());
      const withSdks = audience === "customer" || audience === "vendor";
      expect(samples.includes("TypeScript SDK") && samples.includes("Python SDK"), samples.join(", ")).toBe(withSdks);
      if (withSdks) {
        await page.locator("[role=option]:has-text('TypeScript SDK')").first().click();
        await expect.poll(() => page.locator(".request-card:visible").first().textContent()).toContain("await medparts.");
      }
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
