import { Remembered } from "../../platform/remembered";
import { sha256Hex } from "../../platform/sha256";
import { fromBase64Url, randomToken, toBase64Url } from "../../shared/auth/secrets";

/**
 * PunchOut sessions (migrations/0033). A PunchOutSetupRequest makes one with a start code S, the StartPage's one-time
 * secret; opening the StartPage trades S for the session cookie "S.R" (R fresh). Only hashes of S and of the cookie are
 * stored, and the API access token the shop acts with is stored encrypted: under a key derived from S until the
 * StartPage is opened, then under one derived from the cookie. A copy of the database opens no session and spends no
 * token, even with the StartPage URL a log may have kept.
 */

export const START_CODE_SECONDS = 300;
/** A session lasts at most this long, and never past its access token. */
export const SESSION_SECONDS = 3600;
export const SESSION_COOKIE = "mp_punchout";

export type PunchOutOperation = "create" | "edit" | "inspect";

export interface CartLine {
  priceOptionId: string;
  productId: string;
  quantity: number;
  unitPriceCents: number;
  description: string;
  manufacturerName: string;
  manufacturerPartId: string;
  unitOfMeasure: string;
  leadTimeDays: number | null;
  purchaseType: string;
  /** Values of the quote's custom fields (catalog detail's customFields), carried to the order as requiredFields. */
  requiredFields: { fieldId: string; value: string }[];
}

export interface PunchOutSession {
  id: number;
  connectionId: number;
  operation: PunchOutOperation;
  buyerCookie: string;
  formPostUrl: string;
  token: string;
  cart: CartLine[];
  expiresAt: string;
  facilityId: number;
  requesterId: number;
}

interface SessionRow {
  id: number;
  connection_id: number;
  operation: PunchOutOperation;
  buyer_cookie: string;
  form_post_url: string;
  token_ciphertext: string;
  cart: string;
  expires_at: string;
  facility_id: number;
  requester_id: number;
}

const encoder = new TextEncoder();

async function keyOf(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: encoder.encode("medparts punchout access token") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

async function encrypt(secret: string, token: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(secret), encoder.encode(token)));
  return `${toBase64Url(iv)}.${toBase64Url(sealed)}`;
}

async function decrypt(secret: string, ciphertext: string): Promise<string | null> {
  const [iv, sealed] = ciphertext.split(".");
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64Url(iv!) }, await keyOf(secret), fromBase64Url(sealed!));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

export interface NewSession {
  connectionId: number;
  operation: PunchOutOperation;
  buyerCookie: string;
  formPostUrl: string;
  token: string;
  tokenExpiresAt: number;
  cart: CartLine[];
}

/** Stores a new session (one statement) and returns its start code. */
export async function createSession(db: D1Database, session: NewSession, now = new Date()): Promise<string> {
  const startCode = randomToken(24);
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_SECONDS * 1000, session.tokenExpiresAt)).toISOString();
  await db
    .prepare(
      "INSERT INTO punchout_sessions (connection_id, operation, buyer_cookie, form_post_url, start_hash, start_expires_at, token_ciphertext, cart, created_at, expires_at) " +
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )
    .bind(
      session.connectionId,
      session.operation,
      session.buyerCookie,
      session.formPostUrl,
      await sha256Hex(startCode),
      new Date(now.getTime() + START_CODE_SECONDS * 1000).toISOString(),
      await encrypt(startCode, session.token),
      JSON.stringify(session.cart),
      now.toISOString(),
      expiresAt,
    )
    .run();
  return startCode;
}

/** A session without its cart: what never changes while it lasts. */
export type SessionKeys = Omit<PunchOutSession, "cart">;

/**
 * Sessions' unchanging part by cookie hash, per isolate until they end: a page then reads only the cart, at the same
 * time as its API call (one sequential round trip instead of two). The cart read is also what tells that a session has
 * ended on another isolate (its transfer): it finds no row.
 */
const known = new Remembered<SessionKeys>(Date.now, 10_000, (keys) => Date.parse(keys.expiresAt));

const COOKIE = /^([A-Za-z0-9_-]{32})\.[A-Za-z0-9_-]{32}$/;

/** The session a cookie opens: its unchanging part now, its cart (null: ended) as it is read. */
export async function openShopSession(
  db: D1Database,
  cookie: string | undefined,
): Promise<{ keys: SessionKeys; cart: Promise<CartLine[] | null> } | null> {
  if (!cookie || !COOKIE.test(cookie)) return null;
  const hash = await sha256Hex(cookie);
  const cached = known.peek(hash, SESSION_SECONDS);
  if (cached) return { keys: cached, cart: cartOf(db, hash) };
  const session = await sessionByHash(db, cookie, hash);
  if (!session) return null;
  const { cart, ...keys } = session;
  known.set(hash, keys);
  return { keys, cart: Promise.resolve(cart) };
}

async function cartOf(db: D1Database, hash: string): Promise<CartLine[] | null> {
  const row = await db
    .prepare("SELECT cart FROM punchout_sessions WHERE session_hash = ? AND expires_at > ?")
    .bind(hash, new Date().toISOString())
    .first<{ cart: string }>();
  return row ? (JSON.parse(row.cart) as CartLine[]) : null;
}

/**
 * Trades a start code for the session cookie's value, once, before the code expires; null otherwise. The token is
 * encrypted again under a key derived from the whole cookie, which only the browser holds: the start code, which a
 * suite or a log may have seen in the StartPage URL, then opens nothing, even with a copy of the database.
 */
export async function openSession(
  db: D1Database,
  startCode: string,
  now = new Date(),
): Promise<{ cookie: string; operation: PunchOutOperation } | null> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(startCode)) return null;
  const cookie = `${startCode}.${randomToken(24)}`;
  const row = await db
    .prepare(
      "UPDATE punchout_sessions SET start_hash = NULL, session_hash = ?1 WHERE start_hash = ?2 AND start_expires_at > ?3 AND expires_at > ?3 " +
        "RETURNING id, operation, token_ciphertext",
    )
    .bind(await sha256Hex(cookie), await sha256Hex(startCode), now.toISOString())
    .first<{ id: number; operation: PunchOutOperation; token_ciphertext: string }>();
  if (!row) return null;
  const token = await decrypt(startCode, row.token_ciphertext);
  if (token === null) return null;
  await db
    .prepare("UPDATE punchout_sessions SET token_ciphertext = ? WHERE id = ?")
    .bind(await encrypt(cookie, token), row.id)
    .run();
  return { cookie, operation: row.operation };
}

/** The live session a cookie value opens, with its token decrypted; null for anything else. */
export async function sessionOf(db: D1Database, cookie: string | undefined, now = new Date()): Promise<PunchOutSession | null> {
  if (!cookie || !COOKIE.test(cookie)) return null;
  return sessionByHash(db, cookie, await sha256Hex(cookie), now);
}

async function sessionByHash(db: D1Database, cookie: string, hash: string, now = new Date()): Promise<PunchOutSession | null> {
  const row = await db
    .prepare(
      "SELECT s.*, c.facility_id, c.requester_id FROM punchout_sessions s JOIN procurement_connections c ON c.id = s.connection_id " +
        "WHERE s.session_hash = ? AND s.expires_at > ?",
    )
    .bind(hash, now.toISOString())
    .first<SessionRow>();
  if (!row) return null;
  const token = await decrypt(cookie, row.token_ciphertext);
  if (token === null) return null;
  return {
    id: row.id,
    connectionId: row.connection_id,
    operation: row.operation,
    buyerCookie: row.buyer_cookie,
    formPostUrl: row.form_post_url,
    token,
    cart: JSON.parse(row.cart) as CartLine[],
    expiresAt: row.expires_at,
    facilityId: row.facility_id,
    requesterId: row.requester_id,
  };
}

export async function saveCart(db: D1Database, sessionId: number, cart: CartLine[]): Promise<void> {
  await db.prepare("UPDATE punchout_sessions SET cart = ? WHERE id = ?").bind(JSON.stringify(cart), sessionId).run();
}

/** Ends a session (its cart transferred): the cookie opens nothing after. */
export async function endSession(db: D1Database, sessionId: number, cookie: string): Promise<void> {
  known.forget(await sha256Hex(cookie));
  await db
    .prepare("UPDATE punchout_sessions SET session_hash = NULL, expires_at = ? WHERE id = ?")
    .bind(new Date().toISOString(), sessionId)
    .run();
}

/** Housekeeping: sessions past their end are deleted in bounded batches. */
export async function purgeSessions(db: D1Database, now: Date, limit = 500): Promise<number> {
  const { meta } = await db
    .prepare("DELETE FROM punchout_sessions WHERE id IN (SELECT id FROM punchout_sessions WHERE expires_at <= ? LIMIT ?)")
    .bind(now.toISOString(), limit)
    .run();
  return meta.changes ?? 0;
}
