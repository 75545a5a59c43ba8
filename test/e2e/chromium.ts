import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

/** Debian's Chromium for the e2e suite (playwright-core never downloads a browser): `CHROMIUM_PATH` or /usr/bin/chromium. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// No background traffic: this machine has no network beyond loopback and the package registries.
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

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core on the page: no serious or critical violation (the page's context must bypass its CSP to inject it). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe.run();
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact})`);
  });
  expect(violations, what).toEqual([]);
}

/** An access token of a client the e2e setup made (client credentials grant against the running server). */
export async function clientToken(baseUrl: string, client: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}
