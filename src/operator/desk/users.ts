import { VENDOR_SCOPES } from "../../platform/principal";
import { sha256Hex } from "../../platform/sha256";
import { randomToken } from "../../shared/auth/secrets";
import { auditStatement } from "../onboarding/audit";
import { createClient } from "../onboarding/clients";

/**
 * A vendor's desk users and their invitations (docs/desk.md, "Who signs in"): an invitation is a random token shown
 * once (its SHA-256 kept), valid once and for INVITATION_MINUTES, that lets its user register a passkey. Inviting an
 * email the vendor already has invites that user again (a lost passkey, an expired invitation), unless disabled; an
 * active user invited again loses its passkeys and sessions at once.
 */

export const INVITATION_MINUTES = 60 * 24;
/** What an invitation takes as an email address: one @, a dotted domain, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const DESK_ROLES = ["admin", "desk"] as const;
export type DeskRole = (typeof DESK_ROLES)[number];

export interface Invitation {
  userId: number;
  token: string;
  expiresAt: string;
}

export class InvitationRefused extends Error {}

/**
 * The vendor's desk client (vendor_desks, migration 0046): the vendor API client the desk's users act through, made
 * with the vendor's first invitation, its secret never shown.
 */
async function ensureDeskClient(db: D1Database, vendorId: number, actor: string, now: Date): Promise<void> {
  if (await db.prepare("SELECT 1 FROM vendor_desks WHERE vendor_id = ?").bind(vendorId).first()) return;
  try {
    await createClient(db, { kind: "vendor", vendorId, name: "Order desk", scopes: [...VENDOR_SCOPES] }, actor, now, (clientId, at) => [
      db.prepare("INSERT INTO vendor_desks (vendor_id, client_id, created_at) VALUES (?, ?, ?)").bind(vendorId, clientId, at),
    ]);
  } catch (error) {
    // Made meanwhile by a concurrent invitation (its batch won): that one is the desk's.
    if (!(await db.prepare("SELECT 1 FROM vendor_desks WHERE vendor_id = ?").bind(vendorId).first())) throw error;
  }
}

export async function inviteUser(
  db: D1Database,
  input: { vendorId: number; email: string; displayName: string; role: DeskRole; invitedBy: string },
  now = new Date(),
): Promise<Invitation> {
  await ensureDeskClient(db, input.vendorId, input.invitedBy, now);
  const at = now.toISOString();
  const email = input.email.trim().toLowerCase();
  const existing = await db
    .prepare("SELECT id, status FROM vendor_users WHERE vendor_id = ? AND email = ?")
    .bind(input.vendorId, email)
    .first<{ id: number; status: string }>();
  if (existing?.status === "disabled") throw new InvitationRefused(`${email} is disabled; enable the user first.`);
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + INVITATION_MINUTES * 60_000).toISOString();
  const tokenHash = await sha256Hex(token);
  // An active user invited again (a lost device) starts over: its passkeys are withdrawn and its sessions end with the
  // new invitation, so whoever registers from the link is the only one who can sign in as that user, and the user sees it.
  const reinvitesActive = existing?.status === "active";
  const userRow = existing
    ? db
        .prepare("UPDATE vendor_users SET display_name = ?2, role = ?3, status = 'invited', updated_at = ?4 WHERE id = ?1")
        .bind(existing.id, input.displayName, input.role, at)
    : db
        .prepare(
          "INSERT INTO vendor_users (vendor_id, email, display_name, role, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'invited', ?, ?)",
        )
        .bind(input.vendorId, email, input.displayName, input.role, at, at);
  const results = await db.batch([
    userRow,
    auditStatement(
      db,
      {
        actor: input.invitedBy,
        action: reinvitesActive ? "desk_user.reinvite" : "desk_user.invite",
        targetType: "vendor_user",
        targetId: existing ? String(existing.id) : null,
        before: existing ? { status: existing.status } : null,
        after: { vendorId: input.vendorId, email, role: input.role },
      },
      at,
    ),
    db
      .prepare(
        "INSERT INTO vendor_user_invitations (token_hash, user_id, created_by, expires_at) SELECT ?1, id, ?2, ?3 FROM vendor_users WHERE vendor_id = ?4 AND email = ?5",
      )
      .bind(tokenHash, input.invitedBy, expiresAt, input.vendorId, email),
    db.prepare("SELECT id FROM vendor_users WHERE vendor_id = ? AND email = ?").bind(input.vendorId, email),
    ...(reinvitesActive
      ? [
          db.prepare("DELETE FROM vendor_user_passkeys WHERE user_id = ?").bind(existing.id),
          db.prepare("DELETE FROM desk_sessions WHERE user_id = ?").bind(existing.id),
        ]
      : []),
  ]);
  const userId = (results[3]!.results[0] as { id: number }).id;
  return { userId, token, expiresAt };
}

/** The user an invitation token names, while it is unused and unexpired (null otherwise). */
export async function invitedUser(db: D1Database, token: string, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return db
    .prepare(
      `SELECT u.id AS userId, u.vendor_id AS vendorId, u.email, u.display_name AS displayName, u.role, i.token_hash AS tokenHash
       FROM vendor_user_invitations i JOIN vendor_users u ON u.id = i.user_id JOIN vendors v ON v.id = u.vendor_id
       WHERE i.token_hash = ? AND i.used_at IS NULL AND i.expires_at > ? AND u.status != 'disabled' AND v.disabled_at IS NULL`,
    )
    .bind(await sha256Hex(token), now.toISOString())
    .first<{ userId: number; vendorId: number; email: string; displayName: string; role: DeskRole; tokenHash: string }>();
}

export interface VendorUserRow {
  userId: number;
  email: string;
  displayName: string;
  role: DeskRole;
  status: "invited" | "active" | "disabled";
}

/** The vendor's desk users, by name. */
export async function vendorUsers(db: D1Database, vendorId: number): Promise<VendorUserRow[]> {
  const { results } = await db
    .prepare(
      "SELECT id AS userId, email, display_name AS displayName, role, status FROM vendor_users WHERE vendor_id = ? ORDER BY display_name, id",
    )
    .bind(vendorId)
    .all<VendorUserRow>();
  return results;
}

/**
 * Disables (or enables again) one of the vendor's users, by one of its admins: a disabled user's sessions end in the
 * same batch, and every later request and sign-in is refused. False: no such user of the vendor.
 */
export async function setUserDisabled(
  db: D1Database,
  vendorId: number,
  userId: number,
  disabled: boolean,
  actor: string,
): Promise<boolean> {
  const at = new Date().toISOString();
  const [changed] = await db.batch([
    disabled
      ? db
          .prepare(
            "UPDATE vendor_users SET status = 'disabled', updated_at = ?3 WHERE id = ?1 AND vendor_id = ?2 AND status != 'disabled' RETURNING id",
          )
          .bind(userId, vendorId, at)
      : db
          .prepare(
            "UPDATE vendor_users SET status = CASE WHEN EXISTS (SELECT 1 FROM vendor_user_passkeys WHERE user_id = ?1) THEN 'active' ELSE 'invited' END, updated_at = ?3 WHERE id = ?1 AND vendor_id = ?2 AND status = 'disabled' RETURNING id",
          )
          .bind(userId, vendorId, at),
    auditStatement(
      db,
      {
        actor,
        action: disabled ? "desk_user.disabled" : "desk_user.enabled",
        targetType: "vendor_user",
        targetId: String(userId),
        before: null,
        after: { vendorId },
      },
      at,
    ),
    // Only a user of this vendor, now disabled: another vendor's user id ends nobody's sessions.
    db
      .prepare(
        "DELETE FROM desk_sessions WHERE user_id = ?1 AND ?2 = 1 AND EXISTS (SELECT 1 FROM vendor_users WHERE id = ?1 AND vendor_id = ?3 AND status = 'disabled')",
      )
      .bind(userId, disabled ? 1 : 0, vendorId),
  ]);
  if (changed!.results.length > 0) return true;
  return (await db.prepare("SELECT 1 FROM vendor_users WHERE id = ? AND vendor_id = ?").bind(userId, vendorId).first()) !== null;
}
