/**
 * Webhook signature verification with Web Crypto (Workers, Deno, browsers, Node 18+): the algorithm of
 * portal/snippets/verify-webhook.ts. `Medparts-Signature: t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 keyed
 * with the endpoint's secret (`whsec_...`, used as is) over `<t>.<raw body>`; a `t` more than 5 minutes from now is
 * refused.
 */
import { webCrypto } from "./crypto.js";
import { SignatureVerificationError } from "./errors.js";
import type { MedpartsEvent } from "./types.js";

/** The header every delivery is signed in. */
export const SIGNATURE_HEADER = "Medparts-Signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type RawBody = string | Uint8Array | ArrayBuffer;

export interface VerifyOptions {
  /** Largest accepted distance between `t` and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time: unix seconds or a Date. Default the clock. */
  now?: number | Date;
}

const encoder = new TextEncoder();

/**
 * True when `header` (the delivery's `Medparts-Signature`) signs exactly `rawBody` with `secret` and its `t` is within
 * the tolerance. Pass the raw body as received, before any JSON parsing. Never throws for a bad header.
 */
export async function verifySignature(
  secret: string,
  header: string | null | undefined,
  rawBody: RawBody,
  options: VerifyOptions = {},
): Promise<boolean> {
  return (await check(secret, header, rawBody, options)) === undefined;
}

/**
 * Verifies a delivery and answers its event; throws {@link SignatureVerificationError} (with the reason) when the
 * signature is missing, malformed, stale or not the body's.
 *
 * ```ts
 * const event = await constructEvent(await request.text(), request.headers.get("Medparts-Signature"), secret);
 * ```
 */
export async function constructEvent(
  rawBody: RawBody,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): Promise<MedpartsEvent> {
  const reason = await check(secret, header, rawBody, options);
  if (reason !== undefined) throw new SignatureVerificationError({ message: `Webhook signature verification failed: ${reason}` });
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  try {
    return JSON.parse(text) as MedpartsEvent;
  } catch (error) {
    throw new SignatureVerificationError({ message: "Webhook body is not JSON", cause: error });
  }
}

/** The `Medparts-Signature` value for a body: for testing your receiver. */
export async function signPayload(secret: string, rawBody: RawBody, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  return `t=${timestamp},v1=${toHex(await hmac(secret, timestamp, rawBody))}`;
}

/** Why the signature does not hold, or undefined when it does. */
async function check(
  secret: string,
  header: string | null | undefined,
  rawBody: RawBody,
  options: VerifyOptions,
): Promise<string | undefined> {
  if (!secret) return "no secret";
  if (!header) return `no ${SIGNATURE_HEADER} header`;
  let t: number | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === "t" && /^\d{1,15}$/.test(value)) t = Number(value);
    else if (key === "v1") {
      const bytes = fromHex(value);
      if (bytes) signatures.push(bytes);
    }
  }
  if (t === undefined || signatures.length === 0) return `malformed ${SIGNATURE_HEADER} header`;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now === undefined ? Date.now() / 1000 : options.now instanceof Date ? options.now.getTime() / 1000 : options.now;
  if (Math.abs(now - t) > tolerance) return `timestamp outside the tolerance of ${tolerance} s`;
  const expected = await hmac(secret, t, rawBody);
  // Every v1 is compared (a rotation may sign twice), each in constant time.
  let match = false;
  for (const given of signatures) match = constantTimeEqual(given, expected) || match;
  return match ? undefined : "no signature matches the body";
}

async function hmac(secret: string, t: number, rawBody: RawBody): Promise<Uint8Array> {
  const crypto = await webCrypto();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = encoder.encode(`${t}.`);
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody instanceof Uint8Array ? rawBody : new Uint8Array(rawBody);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix, 0);
  message.set(body, prefix.length);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
