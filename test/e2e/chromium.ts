import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
