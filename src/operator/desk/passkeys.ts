import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { fromBase64Url, toBase64Url } from "../../shared/auth/secrets";
import { auditStatement } from "../onboarding/audit";

/**
 * Passkeys (WebAuthn Level 3) through @simplewebauthn/server (docs/desk.md, "Passkeys"): discoverable credentials with
 * user verification required, no attestation asked for (a desk needs no authenticator model). Each ceremony's
 * challenge is stored and deleted when it is checked (single use, CHALLENGE_MINUTES). The relying party is the host the
 * desk is served at, the origin its scheme and host: a passkey made for one deployment does not sign in to another.
 */

export const CHALLENGE_MINUTES = 5;
const RP_NAME = "Medparts order desk";

export interface RelyingParty {
  /** The host (WebAuthn RP ID). */
  id: string;
  /** The origin clients must have signed for. */
  origin: string;
}

export const relyingPartyOf = (url: string): RelyingParty => {
  const parsed = new URL(url);
  return { id: parsed.hostname, origin: parsed.origin };
};

export class PasskeyRefused extends Error {}

async function storeChallenge(
  db: D1Database,
  challenge: string,
  purpose: "registration" | "authentication",
  userId: number | null,
  now: Date,
) {
  const expiresAt = new Date(now.getTime() + CHALLENGE_MINUTES * 60_000).toISOString();
  await db.batch([
    db.prepare("DELETE FROM desk_challenges WHERE expires_at <= ?").bind(now.toISOString()),
    db
      .prepare("INSERT INTO desk_challenges (challenge, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)")
      .bind(challenge, purpose, userId, expiresAt),
  ]);
}

/** The check of a response's challenge: one of ours for this purpose (and user), unexpired; deleted as it is read. */
const consumeChallenge =
  (db: D1Database, purpose: "registration" | "authentication", userId: number | null, now: Date) => async (challenge: string) =>
    (await db
      .prepare(
        "DELETE FROM desk_challenges WHERE challenge = ?1 AND purpose = ?2 AND user_id IS ?3 AND expires_at > ?4 RETURNING 1 AS found",
      )
      .bind(challenge, purpose, userId, now.toISOString())
      .first()) !== null;

export async function registrationOptions(
  db: D1Database,
  rp: RelyingParty,
  user: { userId: number; email: string; displayName: string },
  now = new Date(),
) {
  const { results } = await db
    .prepare("SELECT credential_id AS id, transports FROM vendor_user_passkeys WHERE user_id = ?")
    .bind(user.userId)
    .all<{ id: string; transports: string }>();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.displayName,
    userID: new Uint8Array(new TextEncoder().encode(`vendor-user-${user.userId}`)),
    attestationType: "none",
    excludeCredentials: results.map((row) => ({ id: row.id, transports: JSON.parse(row.transports) as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await storeChallenge(db, options.challenge, "registration", user.userId, now);
  return options;
}

/**
 * Registers the passkey of an invited user's response, uses up the invitation and activates the user, in one batch
 * with its audit entry. Refused (PasskeyRefused) when the challenge, origin, RP or signature do not check out, or the
 * invitation was used meanwhile.
 */
export async function registerPasskey(
  db: D1Database,
  rp: RelyingParty,
  invitation: { userId: number; tokenHash: string },
  response: RegistrationResponseJSON,
  now = new Date(),
): Promise<void> {
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: consumeChallenge(db, "registration", invitation.userId, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    throw new PasskeyRefused(error instanceof Error ? error.message : String(error));
  }
  if (!verification.verified) throw new PasskeyRefused("The passkey could not be verified.");
  const { credential } = verification.registrationInfo;
  const at = now.toISOString();
  const [used] = await db.batch([
    db
      .prepare("UPDATE vendor_user_invitations SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING 1")
      .bind(invitation.tokenHash, at),
    db
      .prepare(
        "INSERT INTO vendor_user_passkeys (credential_id, user_id, public_key, counter, transports, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE changes() > 0",
      )
      .bind(
        credential.id,
        invitation.userId,
        toBase64Url(credential.publicKey),
        credential.counter,
        JSON.stringify(credential.transports ?? []),
        at,
      ),
    db
      .prepare("UPDATE vendor_users SET status = 'active', updated_at = ?2 WHERE id = ?1 AND status = 'invited' AND changes() > 0")
      .bind(invitation.userId, at),
    auditStatement(
      db,
      {
        actor: `vendor_user:${invitation.userId}`,
        action: "desk_user.passkey_registered",
        targetType: "vendor_user",
        targetId: String(invitation.userId),
        before: null,
        after: { credentialId: credential.id },
      },
      at,
    ),
  ]);
  if (used!.results.length === 0) throw new PasskeyRefused("The invitation was used or has expired.");
}

export async function authenticationOptions(db: D1Database, rp: RelyingParty, now = new Date()) {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required", timeout: CHALLENGE_MINUTES * 60_000 });
  await storeChallenge(db, options.challenge, "authentication", null, now);
  return options;
}

/** The user a sign-in response proves to be (active, its vendor enabled), its passkey's counter moved on. */
export async function authenticate(
  db: D1Database,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  now = new Date(),
): Promise<number> {
  const passkey = await db
    .prepare(
      `SELECT p.credential_id AS id, p.public_key AS publicKey, p.counter, p.transports, p.user_id AS userId
       FROM vendor_user_passkeys p JOIN vendor_users u ON u.id = p.user_id JOIN vendors v ON v.id = u.vendor_id
       WHERE p.credential_id = ? AND u.status = 'active' AND v.disabled_at IS NULL`,
    )
    .bind(typeof response.id === "string" ? response.id.slice(0, 1024) : "")
    .first<{ id: string; publicKey: string; counter: number; transports: string; userId: number }>();
  if (!passkey) throw new PasskeyRefused("No active user has this passkey.");
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: consumeChallenge(db, "authentication", null, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.id,
        publicKey: fromBase64Url(passkey.publicKey),
        counter: passkey.counter,
        transports: JSON.parse(passkey.transports) as AuthenticatorTransport[],
      },
      requireUserVerification: true,
    });
  } catch (error) {
    throw new PasskeyRefused(error instanceof Error ? error.message : String(error));
  }
  if (!verification.verified) throw new PasskeyRefused("The passkey could not be verified.");
  const at = now.toISOString();
  await db.batch([
    db
      .prepare("UPDATE vendor_user_passkeys SET counter = ?2, last_used_at = ?3 WHERE credential_id = ?1")
      .bind(passkey.id, verification.authenticationInfo.newCounter, at),
    auditStatement(
      db,
      {
        actor: `vendor_user:${passkey.userId}`,
        action: "desk_user.signed_in",
        targetType: "vendor_user",
        targetId: String(passkey.userId),
        before: null,
        after: { credentialId: passkey.id },
      },
      at,
    ),
  ]);
  return passkey.userId;
}
