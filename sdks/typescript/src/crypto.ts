/**
 * Web Crypto wherever the SDK runs: `globalThis.crypto` in Workers, Deno, browsers and Node 19+; Node 18 has it only
 * as `require("node:crypto").webcrypto`, loaded lazily (through a computed specifier, so bundlers for browsers and
 * Workers do not try to include it).
 */
let cached: Crypto | undefined;

export async function webCrypto(): Promise<Crypto> {
  if (cached) return cached;
  const global = (globalThis as { crypto?: Crypto }).crypto;
  if (global?.subtle && typeof global.getRandomValues === "function") {
    cached = global;
    return cached;
  }
  const specifier = ["node", "crypto"].join(":");
  const mod = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as { webcrypto?: Crypto };
  if (!mod.webcrypto) throw new Error("Medparts SDK: Web Crypto is not available in this runtime");
  cached = mod.webcrypto;
  return cached;
}

export async function randomUUID(): Promise<string> {
  const c = await webCrypto();
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
