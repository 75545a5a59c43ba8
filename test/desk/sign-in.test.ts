import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES } from "../../src/operator/desk/sessions";
import { call, json, operatorTokenFor } from "../helpers/api";
import { csrfOf, DESK_ORIGIN, desk, inviteDeskUser, registerPasskey, sessionOf, signInWith } from "../helpers/desk";
import { SoftwareAuthenticator } from "../helpers/passkeys";

/**
 * The order desk's sign-in (docs/desk.md): an operator's invitation, a passkey registered from it (a software
 * authenticator signing what the browser would), sessions in a __Host- cookie with idle and absolute timeouts, CSRF
 * tokens on forms, sign-out and sign-out everywhere, and a disabled vendor's users out at once.
 */

const ORIGIN = DESK_ORIGIN;
const VENDOR = 2;
const invite = (email?: string, vendorId = VENDOR) => inviteDeskUser(vendorId, "admin", email);
const register = registerPasskey;
const signIn = signInWith;

describe("the order desk's sign-in", () => {
  it("an invitation registers a passkey once and signs its user in with a __Host- session cookie", async () => {
    const invited = await invite();
    expect(invited.invitationUrl).toMatch(/^https:\/\/medparts\.test\/desk\/invitations\/[A-Za-z0-9_-]{43}$/);
    const page = await desk(new URL(invited.invitationUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(await page.text()).toContain(invited.email);

    // A registration signed for another origin is refused, and the invitation stays valid.
    const token = invited.invitationUrl.split("/").pop()!;
    const options = await json(await desk("/desk/passkeys/registration-options", { method: "POST", json: { token } }));
    const forged = await (await SoftwareAuthenticator.create()).register(options, "https://evil.example");
    expect((await desk("/desk/passkeys/registration", { method: "POST", json: { token, response: forged } })).status).toBe(400);

    const authenticator = await SoftwareAuthenticator.create();
    const registered = await register(invited.invitationUrl, authenticator);
    expect(registered.status, await registered.clone().text()).toBe(200);
    const session = sessionOf(registered);
    expect(session.id).toBeDefined();
    expect(session.cookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Strict; Max-Age=\d+$/);
    const home = await desk("/desk", { cookie: session.id! });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(invited.email);

    // Used: the link is gone, and cannot register a second passkey.
    expect((await desk(new URL(invited.invitationUrl).pathname)).status).toBe(410);
    expect((await desk("/desk/passkeys/registration-options", { method: "POST", json: { token } })).status).toBe(410);
    const replayed = await desk("/desk/passkeys/registration", { method: "POST", json: { token, response: {} } });
    expect(replayed.status).toBe(410);
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE target_type = 'vendor_user' AND target_id = ? ORDER BY id")
      .bind(String(invited.userId))
      .all<{ action: string }>();
    expect(audit.results.map((row) => row.action)).toEqual(["desk_user.invite", "desk_user.passkey_registered"]);
  });

  it("signs in with the passkey: a new session each time, the counter moving on; a replayed assertion or an unknown passkey is refused", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    await register((await invite()).invitationUrl, authenticator);
    const options = await json(await desk("/desk/passkeys/authentication-options", { method: "POST", json: {} }));
    const assertion = await authenticator.authenticate(options, ORIGIN);
    const first = await desk("/desk/passkeys/authentication", { method: "POST", json: { response: assertion } });
    expect(first.status, await first.clone().text()).toBe(200);
    const second = await signIn(authenticator);
    expect(sessionOf(second).id).not.toBe(sessionOf(first).id);
    // The same assertion again: its challenge was used.
    expect((await desk("/desk/passkeys/authentication", { method: "POST", json: { response: assertion } })).status).toBe(403);
    // A passkey nobody registered.
    expect((await signIn(await SoftwareAuthenticator.create())).status).toBe(403);
    // A response signed for another origin.
    const elsewhere = await authenticator.authenticate(
      await json(await desk("/desk/passkeys/authentication-options", { method: "POST", json: {} })),
      "https://evil.example",
    );
    expect((await desk("/desk/passkeys/authentication", { method: "POST", json: { response: elsewhere } })).status).toBe(403);
  });

  it("refuses cross-origin posts and forms without the session's CSRF token; sign-out ends the session", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    const { id } = sessionOf(await register((await invite()).invitationUrl, authenticator));
    const csrf = await csrfOf(await desk("/desk", { cookie: id! }));
    expect(csrf).toMatch(/^[0-9a-f]{43}$/);
    const form = (fields: Record<string, string>) => ({
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(
      (await desk("/desk/sign-out", { method: "POST", cookie: id!, ...form({ _csrf: csrf! }), origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await desk("/desk/sign-out", { method: "POST", cookie: id!, ...form({ _csrf: csrf! }), origin: null })).status).toBe(403);
    expect((await desk("/desk/sign-out", { method: "POST", cookie: id!, ...form({}) })).status).toBe(403);
    // Fetch metadata decides when the browser sends it: cross-site is refused whatever the Origin says.
    const crossSite = { ...form({ _csrf: csrf! }), headers: { ...form({}).headers, "Sec-Fetch-Site": "cross-site" } };
    expect((await desk("/desk/sign-out", { method: "POST", cookie: id!, ...crossSite })).status).toBe(403);
    expect((await desk("/desk/sign-out", { method: "POST", cookie: id!, ...form({ _csrf: "0".repeat(43) }) })).status).toBe(403);
    expect((await desk("/desk", { cookie: id! })).status).toBe(200);
    const out = await desk("/desk/sign-out", { method: "POST", cookie: id!, ...form({ _csrf: csrf! }) });
    expect([out.status, out.headers.get("Location")]).toEqual([303, "/desk/sign-in"]);
    expect(out.headers.get("Set-Cookie")).toContain("Max-Age=0");
    expect((await desk("/desk", { cookie: id! })).headers.get("Location")).toBe("/desk/sign-in");
    // A cookie the server never issued (fixation) is no session.
    expect((await desk("/desk", { cookie: "A".repeat(43) })).status).toBe(303);
  });

  it("sign-out everywhere ends every session of the user; idle and absolute timeouts end one", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    const invited = await invite();
    const one = sessionOf(await register(invited.invitationUrl, authenticator)).id!;
    const two = sessionOf(await signIn(authenticator)).id!;
    const csrf = await csrfOf(await desk("/desk", { cookie: two }));
    const everywhere = await desk("/desk/sign-out-everywhere", {
      method: "POST",
      cookie: two,
      body: `_csrf=${csrf}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(everywhere.status).toBe(303);
    for (const session of [one, two]) expect((await desk("/desk", { cookie: session })).status).toBe(303);

    const idle = sessionOf(await signIn(authenticator)).id!;
    const absolute = sessionOf(await signIn(authenticator)).id!;
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await env.DB.prepare(
      "UPDATE desk_sessions SET last_seen_at = ? WHERE user_id = ? AND created_at = (SELECT min(created_at) FROM desk_sessions WHERE user_id = ?)",
    )
      .bind(minutesAgo(SESSION_IDLE_MINUTES + 1), invited.userId, invited.userId)
      .run();
    expect((await desk("/desk", { cookie: idle })).status).toBe(303);
    expect((await desk("/desk", { cookie: absolute })).status).toBe(200);
    await env.DB.prepare("UPDATE desk_sessions SET ends_at = ? WHERE user_id = ?").bind(minutesAgo(1), invited.userId).run();
    expect((await desk("/desk", { cookie: absolute })).status).toBe(303);
    expect(SESSION_ABSOLUTE_HOURS).toBeGreaterThan(0);
  });

  it("a disabled vendor's users are out at once and cannot sign in; another vendor's invitation is its own", async () => {
    const vendorId = 3;
    const authenticator = await SoftwareAuthenticator.create();
    const session = sessionOf(await register((await invite(undefined, vendorId)).invitationUrl, authenticator)).id!;
    expect((await desk("/desk", { cookie: session })).status).toBe(200);
    const disabled = await call(await operatorTokenFor(), `/admin/api/vendors/${vendorId}/disable`, { method: "POST" });
    expect(disabled.status, await disabled.clone().text()).toBe(200);
    expect((await desk("/desk", { cookie: session })).status).toBe(303);
    expect((await signIn(authenticator)).status).toBe(403);
    const refused = await call(await operatorTokenFor(), `/admin/api/vendors/${vendorId}/desk-users`, {
      method: "POST",
      json: { email: "new@vendor.example", displayName: "New", role: "desk" },
    });
    expect(refused.status).toBe(422);
  });
});
