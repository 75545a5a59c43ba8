import { createHmac, timingSafeEqual } from "node:crypto";

/** True when `header` (Medparts-Signature) signs `rawBody` with `secret` and is at most 5 minutes old. */
export function verifyMedpartsSignature(secret: string, header: string, rawBody: string | Buffer, toleranceSeconds = 300): boolean {
  const parts = new Map(header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = Number(parts.get("t"));
  const given = Buffer.from(parts.get("v1") ?? "", "hex");
  if (!Number.isSafeInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
