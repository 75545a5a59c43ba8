/**
 * Webhook signatures (docs/api.md, "Verifying a delivery"): `Medparts-Signature: t=<unix seconds>,v1=<hex>` where v1 is
 * HMAC-SHA256 over `<t>.<raw body>` with the endpoint's signing secret. Web Crypto only, so the Worker and a Node
 * receiver (scripts/tools/webhook-listener.ts) share this module.
 */
import { hexOf } from "../../platform/sha256";

export const SIGNATURE_HEADER = "Medparts-Signature";
/** A receiver should refuse deliveries signed longer ago than this (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

async function hmacHex(key: string, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hexOf(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message)));
}

/** The endpoint's signing secret, derived from the Worker's WEBHOOK_SECRET_KEY and the endpoint's stored salt. */
export async function signingSecret(secretKey: string, salt: string): Promise<string> {
  return `whsec_${await hmacHex(secretKey, `medparts webhook endpoint ${salt}`)}`;
}

export async function signatureHeader(secret: string, body: string, at: Date): Promise<string> {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`;
}

/** Constant-time comparison of two hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** What a receiver does: the signature must match the raw body and be recent. */
export async function verifySignature(secret: string, header: string | null, body: string, now = new Date()): Promise<boolean> {
  const parts = new Map((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = Number(parts.get("t"));
  const v1 = parts.get("v1");
  if (!Number.isSafeInteger(t) || !v1) return false;
  if (Math.abs(now.getTime() / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  return sameHex(await hmacHex(secret, `${t}.${body}`), v1);
}
