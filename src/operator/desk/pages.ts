import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { type DeskSession, SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES } from "./sessions";

/**
 * The desk's pages (docs/desk.md), server-rendered with hono/html (every interpolated value escaped). No inline script
 * or style: the Content-Security-Policy allows only /desk/assets (DESK_CSP). The passkey ceremonies need JavaScript
 * (WebAuthn is a browser API); every other action is a plain form.
 */

export const DESK_ASSETS = "/desk/assets";

export const DESK_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

export function layout(title: string, content: Content, session?: DeskSession): Content {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Medparts order desk</title>
<link rel="stylesheet" href="${DESK_ASSETS}/desk.css"></head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<strong>Medparts order desk</strong>
${
  session
    ? html`<span class="who">${session.displayName} (${session.role})</span>
<form method="post" action="/desk/sign-out"><input type="hidden" name="_csrf" value="${session.csrfToken}"><button type="submit">Sign out</button></form>`
    : ""
}
</header>
<main id="main">
<h1>${title}</h1>
${content}
</main>
</body></html>`;
}

const ceremony = (kind: "registration" | "authentication", label: string, token?: string) =>
  html`<div data-ceremony="${kind}" ${token ? html`data-token="${token}"` : ""}>
<button type="button" class="primary">${label}</button>
<p class="status" role="status" aria-live="polite"></p>
<noscript><p class="notice error">Passkeys need JavaScript: turn it on for this page.</p></noscript>
</div>
<script src="${DESK_ASSETS}/desk.js" defer></script>`;

export const signInPage = () =>
  layout(
    "Sign in",
    html`<p>Sign in with the passkey you created from your invitation: your device asks for your fingerprint, face or PIN.</p>
${ceremony("authentication", "Sign in with a passkey")}
<p>No passkey yet? Ask your vendor's admin (or Medparts' operator) for an invitation.</p>`,
  );

export const invitationPage = (invited: { email: string; displayName: string }, token: string) =>
  layout(
    "Create your passkey",
    html`<p>Welcome, ${invited.displayName}. You were invited to the order desk as <strong>${invited.email}</strong>.</p>
<p>Create a passkey on this device: it replaces a password, and only your device holds it.</p>
${ceremony("registration", "Create a passkey", token)}`,
  );

export const invitationGonePage = () =>
  layout(
    "Invitation not valid",
    html`<p class="notice error">This invitation was used, has expired or was withdrawn. Ask for a new one.</p>`,
  );

export const homePage = (session: DeskSession) =>
  layout(
    "Your desk",
    html`<p>Signed in as <strong>${session.email}</strong>, ${session.role === "admin" ? "an admin" : "a desk user"} of vendor ${session.vendorId}.</p>
<section aria-labelledby="sessions"><h2 id="sessions">Sessions</h2>
<p>A session ends after ${SESSION_IDLE_MINUTES} minutes without activity and after ${SESSION_ABSOLUTE_HOURS} hours in any case.</p>
<form method="post" action="/desk/sign-out-everywhere"><input type="hidden" name="_csrf" value="${session.csrfToken}"><button type="submit">Sign out everywhere</button></form>
</section>`,
    session,
  );

export const DESK_CSS = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f7f9fb}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.25rem;background:#0b3d5c;color:#fff}
header .who{margin-left:auto}
header button{background:#fff;color:#0b3d5c}
main{padding:1.25rem;max-width:72rem;margin:0 auto;background:#fff;min-height:60vh}
h1{font-size:1.6rem;margin-top:0}
button{font:inherit;padding:.45rem .9rem;border:0;border-radius:4px;cursor:pointer;background:#0b5c8e;color:#fff}
button.primary{font-size:1.1rem;padding:.6rem 1.2rem}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
form{display:inline}
.notice{padding:.5rem .75rem;border-left:4px solid #0b5c8e;background:#eef5fa}
.error{border-color:#b00020;background:#fdeeee}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;color:#000;padding:.5rem}
`;

/**
 * The passkey ceremonies in the browser: options from the server, the WebAuthn call (the JSON forms of WebAuthn
 * Level 3: parseCreationOptionsFromJSON, parseRequestOptionsFromJSON, toJSON), the credential posted back; then to the
 * desk. Errors are announced in the status region.
 */
export const DESK_JS = `
(() => {
  const root = document.querySelector("[data-ceremony]");
  if (!root) return;
  const kind = root.dataset.ceremony;
  const token = root.dataset.token;
  const status = root.querySelector(".status");
  const say = (text) => { status.textContent = text; };
  const post = async (path, body) => {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.detail || "The server refused (" + res.status + ").");
    return data;
  };
  root.querySelector("button").addEventListener("click", async () => {
    if (!window.PublicKeyCredential || !PublicKeyCredential.parseCreationOptionsFromJSON) {
      say("This browser does not support passkeys here. Use a current Chrome, Edge, Safari or Firefox.");
      return;
    }
    try {
      say("Waiting for your device…");
      const options = await post("/desk/passkeys/" + kind + "-options", { token });
      const credential = kind === "registration"
        ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
        : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
      await post("/desk/passkeys/" + kind, { token, response: credential.toJSON() });
      say("Done. Opening your desk…");
      window.location.assign("/desk");
    } catch (error) {
      say(error && error.message ? error.message : String(error));
    }
  });
})();
`;
