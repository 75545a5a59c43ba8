import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { auditStatement } from "../onboarding/audit";
import type { DeskSession } from "./sessions";

/** What every desk form needs (docs/desk.md): the signed-in session with its CSRF token checked, fields, the audit entry. */

export const deskProblem = (status: 400 | 403 | 410, detail: string) =>
  new Response(JSON.stringify({ title: status === 403 ? "Forbidden" : status === 410 ? "Gone" : "Refused", status, detail }), {
    status,
    headers: { "Content-Type": "application/problem+json" },
  });

/** A signed-in form: the session, and its CSRF token in `_csrf`; anything else is sent to sign in (or refused). */
export async function signedInForm(c: Context<AppEnv>): Promise<DeskSession | Response> {
  const session = c.get("deskSession");
  if (!session) return c.redirect("/desk/sign-in", 303);
  const form = await c.req.parseBody();
  if (form._csrf !== session.csrfToken) return deskProblem(403, "The form's CSRF token is missing or not this session's: reload the page.");
  return session;
}

/** A form's text fields, trimmed; a missing field (or a file) reads as "". */
export async function formFields(c: Context<AppEnv>): Promise<(name: string) => string> {
  const form = await c.req.parseBody();
  return (name) => (typeof form[name] === "string" ? (form[name] as string).trim() : "");
}

/**
 * An action of the user in the audit log, and the session's touch. The entry follows a statement on the user's own row
 * (which is never deleted), not the session's, so that an action done while the session ended meanwhile (signed out
 * elsewhere) is still recorded: auditStatement writes only after a statement that changed a row.
 */
export async function auditDeskAction(db: D1Database, session: DeskSession, action: string, after: unknown): Promise<void> {
  const at = new Date().toISOString();
  await db.batch([
    db.prepare("UPDATE vendor_users SET updated_at = updated_at WHERE id = ?").bind(session.userId),
    auditStatement(
      db,
      { actor: `vendor_user:${session.userId}`, action, targetType: "vendor_user", targetId: String(session.userId), before: null, after },
      at,
    ),
    db.prepare("UPDATE desk_sessions SET last_seen_at = ? WHERE id_hash = ?").bind(at, session.idHash),
  ]);
}

/** A whole number a form field holds (digits only), else the text as typed, for the vendor API to name. */
export const countOrText = (text: string) => (/^\d{1,9}$/.test(text) ? Number(text) : text);
