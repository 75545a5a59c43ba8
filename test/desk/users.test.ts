import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditDeskAction } from "../../src/operator/desk/forms";
import { csrfOf, desk, deskForm, deskSession, inviteDeskUser, registerPasskey, sessionOf, signInWith } from "../helpers/desk";
import { SoftwareAuthenticator } from "../helpers/passkeys";

/**
 * A vendor's admin manages its users on the desk (docs/desk.md, "Who signs in"): invites the rest (the link shown once),
 * disables one (out at once, sign-in refused) and enables it again; a desk user cannot; another vendor's users are
 * beyond reach.
 */

describe("the order desk's users", () => {
  it("an admin invites a desk user, who registers; disabled, the user is out at once and cannot sign in; enabled, it can", async () => {
    const admin = await deskSession(2, "admin");
    const page = await desk("/desk/users", { cookie: admin.session });
    expect(page.status).toBe(200);
    const csrf = await csrfOf(page);
    const invited = await deskForm("/desk/users", admin.session, {
      _csrf: csrf!,
      email: "Picker@Vendor.example",
      displayName: "Pat Picker",
      role: "desk",
    });
    expect(invited.status).toBe(201);
    const html = await invited.text();
    const link = /<code>(https:\/\/medparts\.test\/desk\/invitations\/[A-Za-z0-9_-]{43})<\/code>/.exec(html)?.[1];
    expect(link).toBeDefined();
    expect(html).toContain("picker@vendor.example");

    const authenticator = await SoftwareAuthenticator.create();
    const picker = sessionOf(await registerPasskey(link!, authenticator)).id!;
    expect((await desk("/desk", { cookie: picker })).status).toBe(200);
    // A desk user does not manage users.
    expect((await desk("/desk/users", { cookie: picker })).status).toBe(403);

    const { userId } = (await env.DB.prepare("SELECT id AS userId FROM vendor_users WHERE email = 'picker@vendor.example'").first<{
      userId: number;
    }>())!;
    const disabled = await deskForm(`/desk/users/${userId}/disable`, admin.session, { _csrf: csrf! });
    expect(disabled.status).toBe(200);
    expect((await desk("/desk", { cookie: picker })).status).toBe(303);
    expect((await signInWith(authenticator)).status).toBe(403);
    const audit = await env.DB.prepare("SELECT actor FROM audit_log WHERE action = 'desk_user.disabled' AND target_id = ?")
      .bind(String(userId))
      .first<{ actor: string }>();
    expect(audit?.actor).toBe(`vendor_user:${admin.userId}`);

    expect((await deskForm(`/desk/users/${userId}/enable`, admin.session, { _csrf: csrf! })).status).toBe(200);
    expect((await signInWith(authenticator)).status).toBe(200);
    // Not oneself, and a bad email is refused with its reason.
    expect((await deskForm(`/desk/users/${admin.userId}/disable`, admin.session, { _csrf: csrf! })).status).toBe(422);
    const bad = await deskForm("/desk/users", admin.session, { _csrf: csrf!, email: "not an email", displayName: "X", role: "desk" });
    expect([bad.status, (await bad.text()).includes("must be an email address")]).toEqual([422, true]);
  });

  it("inviting an active user again withdraws its passkeys and ends its sessions: only who registers from the new link signs in", async () => {
    const admin = await deskSession(2, "admin");
    const invited = await inviteDeskUser(2, "desk");
    const device = await SoftwareAuthenticator.create();
    const picker = sessionOf(await registerPasskey(invited.invitationUrl, device)).id!;
    expect((await desk("/desk", { cookie: picker })).status).toBe(200);

    const csrf = (await csrfOf(await desk("/desk/users", { cookie: admin.session })))!;
    const again = await deskForm("/desk/users", admin.session, {
      _csrf: csrf,
      email: invited.email,
      displayName: "Dana Reyes",
      role: "desk",
    });
    expect(again.status).toBe(201);
    const link = /<code>(https:\/\/medparts\.test\/desk\/invitations\/[A-Za-z0-9_-]{43})<\/code>/.exec(await again.text())![1]!;
    // Out at once, and the old passkey no longer signs in.
    expect((await desk("/desk", { cookie: picker })).status).toBe(303);
    expect((await signInWith(device)).status).toBe(403);
    const audit = await env.DB.prepare("SELECT before FROM audit_log WHERE action = 'desk_user.reinvite' AND target_id = ?")
      .bind(String(invited.userId))
      .first<{ before: string }>();
    expect(JSON.parse(audit!.before)).toEqual({ status: "active" });
    // The new link registers a new passkey, which signs in.
    const newDevice = await SoftwareAuthenticator.create();
    expect((await registerPasskey(link, newDevice)).status).toBe(200);
    expect((await signInWith(newDevice)).status).toBe(200);
  });

  it("an action is audited with its user even when the session ended meanwhile (signed out elsewhere)", async () => {
    const { userId } = await deskSession(2, "desk");
    const ended = {
      userId,
      vendorId: 2,
      email: "x@vendor.example",
      displayName: "X",
      role: "desk" as const,
      idHash: "gone",
      csrfToken: "t",
    };
    await auditDeskAction(env.DB, ended, "desk_user.line_acknowledge", { lineId: 1 });
    const row = await env.DB.prepare("SELECT action FROM audit_log WHERE actor = ? AND action = 'desk_user.line_acknowledge'")
      .bind(`vendor_user:${userId}`)
      .first<{ action: string }>();
    expect(row?.action).toBe("desk_user.line_acknowledge");
  });

  it("a desk whose vendor API client is disabled signs its users out (303), not a server error", async () => {
    const { session } = await deskSession(3, "desk");
    const desks = "(SELECT client_id FROM vendor_desks WHERE vendor_id = 3)";
    await env.DB.prepare(`UPDATE api_clients SET enabled = 0 WHERE client_id = ${desks}`).run();
    try {
      const res = await desk("/desk", { cookie: session });
      expect([res.status, res.headers.get("Location")]).toEqual([303, "/desk/sign-in"]);
      expect((await desk("/desk/lines/1", { cookie: session })).status).toBe(303);
    } finally {
      await env.DB.prepare(`UPDATE api_clients SET enabled = 1 WHERE client_id = ${desks}`).run();
    }
  });

  it("another vendor's admin reaches none of the vendor's users; a form without its CSRF token is refused", async () => {
    const first = await deskSession(2, "desk");
    const other = await deskSession(3, "admin");
    const csrf = await csrfOf(await desk("/desk/users", { cookie: other.session }));
    expect((await deskForm(`/desk/users/${first.userId}/disable`, other.session, { _csrf: csrf! })).status).toBe(404);
    expect((await desk("/desk", { cookie: first.session })).status).toBe(200);
    expect(await (await desk("/desk/users", { cookie: other.session })).text()).not.toContain(`/desk/users/${first.userId}/`);
    expect((await deskForm(`/desk/users/${first.userId}/disable`, other.session, {})).status).toBe(403);
  });
});
