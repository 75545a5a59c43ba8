/**
 * Self-contained price option ids (docs/architecture.md, "Quotes without storage"): a quote's terms that are not
 * in its offer revision (whose rows are never changed in place), signed with HMAC-SHA-256, so that catalog detail
 * stores nothing and an order reads the terms back from the id itself. Single use is the order's to enforce (the
 * UNIQUE index on order_lines.quote_id).
 *
 * Layout, 35 bytes, then the first 16 bytes of the MAC over them, base64url after `po_`:
 *   version (1) | offer revision id | tenant id | requester contact id | facility id | price in cents |
 *   agreement id (0: the list price) | issued at (Unix seconds) — each an unsigned 32-bit big-endian integer — |
 *   nonce (6 random bytes: two quotes of the same terms in the same second differ).
 * The id is readable by whoever holds it: it holds nothing the caller was not shown (the price, the ids it sent).
 */

export interface PriceOptionTerms {
  offerId: number;
  tenantId: number;
  requesterContactId: number;
  facilityId: number;
  priceCents: number;
  /** The price agreement whose price this is; 0 for the offer's list price. */
  agreementId: number;
  /** Unix seconds. */
  issuedAt: number;
}

const VERSION = 1;
const FIELDS = ["offerId", "tenantId", "requesterContactId", "facilityId", "priceCents", "agreementId", "issuedAt"] as const;
const NONCE_BYTES = 6;
const PAYLOAD_BYTES = 1 + FIELDS.length * 4 + NONCE_BYTES;
const MAC_BYTES = 16;
export const PRICE_OPTION_ID_PREFIX = "po_";
/** The length of a signed id: a legacy id (a random token, migrations/0002) is shorter. */
export const SIGNED_ID_LENGTH = PRICE_OPTION_ID_PREFIX.length + Math.ceil(((PAYLOAD_BYTES + MAC_BYTES) * 4) / 3);
const MAX_U32 = 0xffff_ffff;

/** The current key signs and verifies; the previous one (during a rotation, for 30 days) only verifies. */
export interface PriceOptionKeys {
  current: string;
  previous?: string | undefined;
}

/**
 * Keys imported once per isolate. The keys themselves are kept, not the promises of their import: a promise belongs to
 * the context that made it (a request, a Durable Object), and another context may not await it.
 */
const importedKeys = new Map<string, CryptoKey>();
async function hmacKey(secret: string): Promise<CryptoKey> {
  const known = importedKeys.get(secret);
  if (known) return known;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  importedKeys.set(secret, key);
  return key;
}

async function macOf(secret: string, payload: Uint8Array): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), payload);
  return new Uint8Array(mac, 0, MAC_BYTES);
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function signPriceOption(keys: PriceOptionKeys, terms: PriceOptionTerms): Promise<string> {
  const bytes = new Uint8Array(PAYLOAD_BYTES + MAC_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, VERSION);
  FIELDS.forEach((field, i) => {
    const value = terms[field];
    if (!Number.isInteger(value) || value < 0 || value > MAX_U32) throw new RangeError(`price option ${field} ${value} does not fit`);
    view.setUint32(1 + i * 4, value);
  });
  crypto.getRandomValues(bytes.subarray(PAYLOAD_BYTES - NONCE_BYTES, PAYLOAD_BYTES));
  bytes.set(await macOf(keys.current, bytes.subarray(0, PAYLOAD_BYTES)), PAYLOAD_BYTES);
  return PRICE_OPTION_ID_PREFIX + toBase64Url(bytes);
}

/** True when `id` has the shape of a signed id (it may still fail verification). */
export const isSignedPriceOptionId = (id: string) => id.length === SIGNED_ID_LENGTH && id.startsWith(PRICE_OPTION_ID_PREFIX);

/** The terms of an id this service signed with either key; null for anything else (malformed, forged, altered). */
export async function readPriceOption(keys: PriceOptionKeys, id: string): Promise<PriceOptionTerms | null> {
  if (!isSignedPriceOptionId(id)) return null;
  const bytes = fromBase64Url(id.slice(PRICE_OPTION_ID_PREFIX.length));
  if (bytes?.length !== PAYLOAD_BYTES + MAC_BYTES || bytes[0] !== VERSION) return null;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  const mac = bytes.subarray(PAYLOAD_BYTES);
  let valid = false;
  for (const secret of [keys.current, keys.previous]) {
    if (secret && crypto.subtle.timingSafeEqual(await macOf(secret, payload), mac)) valid = true;
  }
  return valid ? termsOf(bytes) : null;
}

function termsOf(bytes: Uint8Array): PriceOptionTerms {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return Object.fromEntries(FIELDS.map((field, i) => [field, view.getUint32(1 + i * 4)])) as unknown as PriceOptionTerms;
}

/**
 * The terms an id says, unverified (no key needed: the id is readable by whoever holds it), or null when it has not the
 * shape of one. For display only (the PunchOut cart's unit price); an order verifies the id itself.
 */
export function readUnverifiedPriceOption(id: string): PriceOptionTerms | null {
  if (!isSignedPriceOptionId(id)) return null;
  const bytes = fromBase64Url(id.slice(PRICE_OPTION_ID_PREFIX.length));
  return bytes?.length === PAYLOAD_BYTES + MAC_BYTES && bytes[0] === VERSION ? termsOf(bytes) : null;
}
