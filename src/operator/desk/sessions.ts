import { sha256Hex } from "../../platform/sha256";
import { randomToken } from "../../shared/auth/secrets";

/**
 * Desk sessions (docs/desk.md, "Sessions"): a random 256-bit id in the `__Host-medparts-desk` cookie (HttpOnly, Secure,
 * SameSite=Strict, Path=/), of which only the SHA-256 is stored. A session ends at sign-out, at sign-out everywhere
 * (all of its user's), after SESSION_IDLE_MINUTES without a request, after SESSION_ABSOLUTE_HOURS whatever the
 * activity, and at once when its user or vendor is disabled (checked on every request). A new session is made at each
 * sign-in, never reused from the request (no fixation). Its CSRF token is derived from the id (SHA-256 of a label and
 * the id): a page's forms carry it, a cross-site form cannot know it.
 */

export const SESSION_COOKIE = "__Host-medparts-desk";
export const SESSION_IDLE_MINUTES = 30;
export const SESSION_ABSOLUTE_HOURS = 12;
/** last_seen_at is written at most this often (each request would otherwise write). */
const TOUCH_EVERY_MS = 60_000;

export interface DeskUser {
  userId: number;
  vendorId: number;
  email: string;
  displayName: string;
  role: "admin" | "desk";
}

export interface DeskSession extends DeskUser {
  /** The session's id hash: its key in desk_sessions. */
  idHash: string;
  csrfToken: string;
}

export const csrfTokenOf = async (sessionId: string) => (await sha256Hex(`desk-csrf:${sessionId}`)).slice(0, 43);

/** Starts a session for the user; returns the cookie's value (the id itself, never stored). */
export async function startSession(db: D1Database, userId: number, now = new Date()): Promise<string> {
  const id = randomToken(32);
  const endsAt = new Date(now.getTime() + SESSION_ABSOLUTE_HOURS * 3_600_000);
  await db
    .prepare("INSERT INTO desk_sessions (id_hash, user_id, created_at, last_seen_at, ends_at) VALUES (?, ?, ?, ?, ?)")
    .bind(await sha256Hex(id), userId, now.toISOString(), now.toISOString(), endsAt.toISOString())
    .run();
  return id;
}

/**
 * The session of a cookie's id, when it is live: not past its idle or absolute timeout, its user active and its vendor
 * not disabled. A dead one is deleted. Touches last_seen_at (at most once a minute) unless `touch` is false: a page's own
 * polling (the worklist's live counts) is not the user's activity, so it never keeps an idle session alive.
 */
export async function readSession(
  db: D1Database,
  sessionId: string | undefined,
  now = new Date(),
  touch = true,
): Promise<DeskSession | null> {
  if (!sessionId || !/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return null;
  const idHash = await sha256Hex(sessionId);
  const row = await db
    .prepare(
      `SELECT s.last_seen_at AS lastSeenAt, s.ends_at AS endsAt, u.id AS userId, u.vendor_id AS vendorId, u.email, u.display_name AS displayName,
         u.role, u.status, v.disabled_at AS vendorDisabledAt
       FROM desk_sessions s JOIN vendor_users u ON u.id = s.user_id JOIN vendors v ON v.id = u.vendor_id WHERE s.id_hash = ?`,
    )
    .bind(idHash)
    .first<DeskUser & { lastSeenAt: string; endsAt: string; status: string; vendorDisabledAt: string | null }>();
  if (!row) return null;
  const idleSince = now.getTime() - Date.parse(row.lastSeenAt);
  const live =
    row.status === "active" &&
    row.vendorDisabledAt === null &&
    idleSince < SESSION_IDLE_MINUTES * 60_000 &&
    now.getTime() < Date.parse(row.endsAt);
  if (!live) {
    await db.prepare("DELETE FROM desk_sessions WHERE id_hash = ?").bind(idHash).run();
    return null;
  }
  if (touch && idleSince >= TOUCH_EVERY_MS) {
    await db.prepare("UPDATE desk_sessions SET last_seen_at = ? WHERE id_hash = ?").bind(now.toISOString(), idHash).run();
  }
  const { userId, vendorId, email, displayName, role } = row;
  return { userId, vendorId, email, displayName, role, idHash, csrfToken: await csrfTokenOf(sessionId) };
}

export async function endSession(db: D1Database, idHash: string): Promise<void> {
  await db.prepare("DELETE FROM desk_sessions WHERE id_hash = ?").bind(idHash).run();
}

/** Every session of the user ends (sign-out everywhere; a user disabled). */
export const endSessionsStatement = (db: D1Database, userId: number) =>
  db.prepare("DELETE FROM desk_sessions WHERE user_id = ?").bind(userId);

export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${SESSION_ABSOLUTE_HOURS * 3600}`;
}
export const clearedSessionCookie = () => `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`;
