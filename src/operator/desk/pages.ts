import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { amountText } from "../../platform/money";
import { CONFIRMATION_CODES } from "../../shared/confirmations/codes";
import { type DeskSession, SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES } from "./sessions";
import type { VendorUserRow } from "./users";
import { ATTENTION_LISTS, canShip, type DeskLine, PAGE_SIZE, WORK_STATES, type WorkCounts } from "./vendor-work";

/**
 * The desk's pages (docs/desk.md), server-rendered with hono/html (every interpolated value escaped). No inline script
 * or style: the Content-Security-Policy allows only /desk/assets (DESK_CSP). The passkey ceremonies need JavaScript
 * (WebAuthn is a browser API); every other action is a plain form.
 */

export const DESK_ASSETS = "/desk/assets";

/** How often the worklist asks for its counts (docs/desk.md, "Live counts"). */
export const LIVE_POLL_SECONDS = 10;

export const DESK_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

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
    ? html`<nav aria-label="Desk"><a href="/desk">Work</a>${session.role === "admin" ? html` <a href="/desk/offers">Offers</a> <a href="/desk/users">Users</a>` : ""}</nav>
<span class="who">${session.displayName} · ${session.email} · ${session.role === "admin" ? "admin" : "desk"}</span>
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

export const csrfField = (session: DeskSession) => html`<input type="hidden" name="_csrf" value="${session.csrfToken}">`;

export const notice = (text: string | null | undefined, error = false) =>
  text ? html`<p class="notice${error ? " error" : ""}" role="${error ? "alert" : "status"}">${text}</p>` : "";

export interface WorklistView {
  counts: WorkCounts;
  lines: DeskLine[];
  total: number;
  page: number;
  status: string;
  orderNumber: string;
  q: string;
  error: string | null;
}

const STATUS_CHOICES = [
  { status: "open", label: "All open" },
  ...WORK_STATES,
  ...ATTENTION_LISTS.map(({ attention, label }) => ({ status: attention, label })),
];
const COUNTED = [...WORK_STATES, ...ATTENTION_LISTS.map(({ attention, label }) => ({ status: attention, label }))];

/** The worklist: counts per state (each a link to its lines), a filter form, the lines newest first, paging. */
export const homePage = (session: DeskSession, view: WorklistView) => {
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const query = (page: number) =>
    `?${new URLSearchParams({
      status: view.status,
      ...(view.orderNumber ? { orderNumber: view.orderNumber } : {}),
      ...(view.q ? { q: view.q } : {}),
      page: String(page),
    })}`;
  return layout(
    "Your work",
    html`${notice(view.error, true)}
<nav aria-label="Lines by state"><ul class="counts" data-live="/desk/counts">
${COUNTED.map(
  ({ status, label }) =>
    html`<li><a href="/desk?status=${status}"${view.status === status ? html` aria-current="page"` : ""}><span class="count" data-status="${status}">${view.counts[status as keyof WorkCounts]}</span> ${label}</a></li>`,
)}
</ul></nav>
<p class="live" role="status" aria-live="polite"></p>
<script src="${DESK_ASSETS}/desk.js" defer></script>
<form method="get" action="/desk" class="filters">
<label for="status">State</label>
<select id="status" name="status">${STATUS_CHOICES.map(
      ({ status, label }) => html`<option value="${status}"${view.status === status ? " selected" : ""}>${label}</option>`,
    )}</select>
<label for="orderNumber">Order number</label>
<input id="orderNumber" name="orderNumber" value="${view.orderNumber}" pattern="[A-Za-z0-9-]{1,40}" autocomplete="off">
<label for="q">Search</label>
<input id="q" name="q" value="${view.q}" size="36" maxlength="500" autocomplete="off" aria-describedby="q-help">
<button type="submit">Show</button>
</form>
<p id="q-help" class="help">The API's q language, e.g. <code>partNumber~"CBL"</code>, <code>poNumber:"PO-1234"</code>, <code>shipToState:IL AND quantity&gt;5</code>, <code>orderDate&gt;="2026-12-01"</code>.</p>
${
  view.lines.length === 0
    ? html`<p>No line here.</p>`
    : html`<table><caption>${view.total} line${view.total === 1 ? "" : "s"}, newest first</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Line</th><th scope="col">Part</th><th scope="col">Qty</th><th scope="col">State</th><th scope="col">Ordered</th><th scope="col">Ship to</th></tr></thead>
<tbody>${view.lines.map(
        (line) =>
          html`<tr><td><a href="/desk/orders/${line.orderNumber}">${line.orderNumber}</a></td><td><a href="/desk/lines/${line.lineId}">${line.lineNumber}</a></td><td>${line.partNumber}<br><small>${line.description}</small></td><td>${line.quantity}</td><td>${line.statusName}${line.returnsToReceive > 0 ? html`<br><small>a return to receive</small>` : ""}${
            line.invoicesInException > 0 ? html`<br><small>an invoice in exception</small>` : ""
          }</td><td>${line.orderDate.slice(0, 10)}</td><td>${line.shipTo.city}, ${line.shipTo.state}</td></tr>`,
      )}</tbody></table>
<nav aria-label="Pages" class="pages">${view.page > 0 ? html`<a href="/desk${query(view.page - 1)}" rel="prev">Newer</a>` : ""} Page ${view.page + 1} of ${pages} ${
        view.page + 1 < pages ? html`<a href="/desk${query(view.page + 1)}" rel="next">Older</a>` : ""
      }</nav>`
}
<section aria-labelledby="sessions"><h2 id="sessions">Sessions</h2>
<p>A session ends after ${SESSION_IDLE_MINUTES} minutes without activity and after ${SESSION_ABSOLUTE_HOURS} hours in any case.</p>
<form method="post" action="/desk/sign-out-everywhere">${csrfField(session)}<button type="submit">Sign out everywhere</button></form>
</section>`,
    session,
  );
};

const dateInput = (id: string, label: string) =>
  html`<label for="${id}">${label}</label><input id="${id}" name="${id}" type="date" required>`;

/** A line with the moves its state allows (confirm, confirm with a change, backorder, reject, ship), each a form. */
export const linePage = (
  session: DeskSession,
  line: DeskLine,
  message: { text: string; error: boolean } | null,
  returns: Content | "" = "",
) => {
  const action = (name: string) => `/desk/lines/${line.lineId}/${name}`;
  const canConfirm = line.statusName === "Ordered" || line.statusName === "Backordered";
  return layout(
    `Line ${line.lineNumber} of ${line.orderNumber}`,
    html`${message ? notice(message.text, message.error) : ""}
<dl class="facts">
<dt>Order</dt><dd><a href="/desk/orders/${line.orderNumber}">${line.orderNumber}</a>, line ${line.lineNumber}</dd>
<dt>State</dt><dd>${line.statusName}${line.statusReason ? html` (${line.statusReason})` : ""}</dd>
<dt>Part</dt><dd>${line.partNumber}: ${line.description}</dd>
<dt>Quantity</dt><dd>${line.quantity} (shipped ${line.shippedQuantity})</dd>
<dt>Unit price</dt><dd>${amountText(line.price)}</dd>
<dt>PO number</dt><dd>${line.poNumber ?? "none"}</dd>
<dt>Promised ship date</dt><dd>${line.promisedShipDate ?? "not yet"}</dd>
<dt>Confirmation</dt><dd>${line.confirmationCode ?? "none yet"}${line.pendingChange ? html` (the ${line.pendingChange.code} change waits for the buyer's answer)` : ""}</dd>
<dt>Ship to</dt><dd>${line.shipTo.city}, ${line.shipTo.state}, ${line.shipTo.country}</dd>
</dl>
${
  canConfirm
    ? html`<section aria-labelledby="acknowledge-title"><h2 id="acknowledge-title">Confirm</h2>
<form method="post" action="${action("acknowledge")}">${csrfField(session)}${dateInput("promisedShipDate", "Ship by")} <button type="submit">Confirm the line</button></form></section>
<section aria-labelledby="code-title"><h2 id="code-title">Confirm with a change</h2>
<form method="post" action="${action("confirm")}" class="ship">${csrfField(session)}
<label for="code">Status (X12 855)</label><select id="code" name="code">${CONFIRMATION_CODES.map(
        (entry) => html`<option value="${entry.code}">${entry.code}: ${entry.meaning}</option>`,
      )}</select>
<label for="unitPrice">New unit price</label><input id="unitPrice" name="unitPrice" inputmode="decimal" placeholder="${amountText(line.price)}" autocomplete="off">
<label for="changeQuantity">Quantity</label><input id="changeQuantity" name="quantity" inputmode="numeric" pattern="[0-9]{1,9}" placeholder="${line.quantity}" autocomplete="off">
<label for="changePromised">Promised ship date</label><input id="changePromised" name="promisedShipDate" type="date">
<label for="changeExpected">Expected ship date (backorders)</label><input id="changeExpected" name="expectedShipDate" type="date">
<label for="substitutePart">Substitute part number</label><input id="substitutePart" name="substitutePartNumber" maxlength="64" autocomplete="off">
<label for="substituteDescription">Substitute description</label><input id="substituteDescription" name="substituteDescription" maxlength="500">
<label for="changeReason">Reason (shown to the buyer)</label><input id="changeReason" name="reason" maxlength="500">
<p>A change of price, quantity or product waits for the buyer's answer; the codes say which fields they need.</p>
<button type="submit">Send the confirmation</button></form></section>
<section aria-labelledby="backorder-title"><h2 id="backorder-title">Backorder</h2>
<form method="post" action="${action("backorder")}">${csrfField(session)}${dateInput("expectedShipDate", "Expected ship date")}
<label for="backorder-reason">Reason</label><input id="backorder-reason" name="reason" maxlength="500"> <button type="submit">Backorder</button></form></section>`
    : ""
}
${
  canShip(line)
    ? html`<section aria-labelledby="ship-title"><h2 id="ship-title">Ship a parcel</h2>
<form method="post" action="${action("ship")}" class="ship">${csrfField(session)}
<label for="trackingNumber">Tracking number</label><input id="trackingNumber" name="trackingNumber" required maxlength="64" autocomplete="off">
<label for="carrierName">Carrier</label><input id="carrierName" name="carrierName" maxlength="100" placeholder="the order's" autocomplete="off">
<label for="quantity">Quantity</label><input id="quantity" name="quantity" inputmode="numeric" pattern="[0-9]{1,9}" placeholder="${line.quantity - line.shippedQuantity}" autocomplete="off">
<label for="units">Scan each unit's label</label>
<textarea id="units" name="units" rows="6" cols="48" aria-describedby="units-help" autocomplete="off" spellcheck="false"></textarea>
<p id="units-help">A barcode scanner types each label and Enter here: one label a line (GS1, HIBCC or ISBT 128). Lots, serials and expiry dates are read from them and kept with the parcel.</p>
<button type="submit">Ship</button></form></section>`
    : ""
}
${
  line.statusName === "Ordered"
    ? html`<section aria-labelledby="reject-title"><h2 id="reject-title">Reject</h2>
<form method="post" action="${action("reject")}">${csrfField(session)}<label for="reject-reason">Reason</label><input id="reject-reason" name="reason" required maxlength="500"> <button type="submit">Reject the line</button></form></section>`
    : ""
}
${returns}
<p><a href="/desk/orders/${line.orderNumber}">The whole order, and its invoice</a> · <a href="/desk">Back to your work</a></p>`,
    session,
  );
};

/** The vendor's users (admins only): invite one (its link shown once), disable or enable one. */
export const usersPage = (
  session: DeskSession,
  users: VendorUserRow[],
  message: { text: string; error: boolean } | null,
  invitation: { email: string; url: string; expiresAt: string } | null,
) =>
  layout(
    "Your vendor's users",
    html`${message ? notice(message.text, message.error) : ""}
${
  invitation
    ? html`<p class="notice" role="status">Send ${invitation.email} this link, valid once until ${invitation.expiresAt} (it is not shown again):<br><code>${invitation.url}</code></p>`
    : ""
}
<table><caption>${users.length} user${users.length === 1 ? "" : "s"}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Access</th></tr></thead>
<tbody>${users.map(
      (user) =>
        html`<tr><td>${user.displayName}</td><td>${user.email}</td><td>${user.role}</td><td>${user.status}</td><td>${
          user.userId === session.userId
            ? "you"
            : html`<form method="post" action="/desk/users/${user.userId}/${user.status === "disabled" ? "enable" : "disable"}">${csrfField(session)}<button type="submit">${
                user.status === "disabled" ? "Enable" : "Disable"
              }<span class="skip"> ${user.email}</span></button></form>`
        }</td></tr>`,
    )}</tbody></table>
<section aria-labelledby="invite-title"><h2 id="invite-title">Invite a user</h2>
<form method="post" action="/desk/users">${csrfField(session)}
<label for="email">Email</label><input id="email" name="email" type="email" required maxlength="254" autocomplete="off">
<label for="displayName">Name</label><input id="displayName" name="displayName" required maxlength="100">
<label for="role">Role</label><select id="role" name="role"><option value="desk">desk: orders, shipments, returns, invoices</option><option value="admin">admin: users and offers too</option></select>
<button type="submit">Invite</button></form></section>`,
    session,
  );

export const forbiddenPage = (session: DeskSession, what = "users") =>
  layout("Admins only", html`<p>Only your vendor's admins manage its ${what}.</p><p><a href="/desk">Back to your work</a></p>`, session);

export const notFoundPage = (session: DeskSession, what = "line") =>
  layout("Not found", html`<p>Your vendor has no such ${what}.</p><p><a href="/desk">Back to your work</a></p>`, session);

export const DESK_CSS = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f7f9fb}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.25rem;background:#0b3d5c;color:#fff}
header .who{margin-left:auto}
header button{background:#fff;color:#0b3d5c}
header nav a{color:#fff;margin-right:.75rem}
code{word-break:break-all}
main{padding:1.25rem;max-width:72rem;margin:0 auto;background:#fff;min-height:60vh}
h1{font-size:1.6rem;margin-top:0}
button{font:inherit;padding:.45rem .9rem;border:0;border-radius:4px;cursor:pointer;background:#0b5c8e;color:#fff}
button.primary{font-size:1.1rem;padding:.6rem 1.2rem}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
form{display:inline}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}
section form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
section form.ship{display:grid;grid-template-columns:max-content minmax(12rem,32rem);gap:.5rem}
section form.ship p,section form.ship button{grid-column:2}
textarea{font:inherit;font-family:ui-monospace,monospace}
input,select{font:inherit;padding:.35rem .5rem}
ul.counts{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;padding:0}
ul.counts a{display:block;padding:.6rem 1rem;border:1px solid #ccd3da;border-radius:6px;text-decoration:none;color:#0b3d5c}
ul.counts a[aria-current]{border-color:#0b5c8e;background:#eef5fa}
.count{font-size:1.4rem;font-weight:700;margin-right:.25rem}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ccd3da;padding:.4rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600;padding:.4rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.facts dt{font-weight:600}
.pages{margin:1rem 0}
.notice{padding:.5rem .75rem;border-left:4px solid #0b5c8e;background:#eef5fa}
.error{border-color:#b00020;background:#fdeeee}
section form.document{display:block}
.fields{display:grid;grid-template-columns:max-content minmax(12rem,24rem);gap:.5rem;margin:.5rem 0}
section form.step{margin:.5rem 0}
fieldset{border:1px solid #ccd3da;border-radius:4px;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
article{border-top:1px solid #ccd3da;padding-top:.5rem;margin-top:1rem}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;color:#000;padding:.5rem}
`;

/**
 * The passkey ceremonies in the browser: options from the server, the WebAuthn call (the JSON forms of WebAuthn
 * Level 3: parseCreationOptionsFromJSON, parseRequestOptionsFromJSON, toJSON), the credential posted back; then to the
 * desk. Errors are announced in the status region.
 */
export const DESK_JS = `
(() => {
  const counts = document.querySelector("[data-live]");
  if (!counts) return;
  const live = document.querySelector(".live");
  const shown = {};
  for (const span of counts.querySelectorAll("[data-status]")) shown[span.dataset.status] = Number(span.textContent);
  const poll = async () => {
    if (document.hidden) return;
    const res = await fetch(counts.dataset.live, { headers: { Accept: "application/json" } }).catch(() => null);
    if (!res || !res.ok) return;
    const now = (await res.json()).counts || {};
    let arrived = 0;
    for (const span of counts.querySelectorAll("[data-status]")) {
      const status = span.dataset.status;
      if (typeof now[status] !== "number") continue;
      span.textContent = String(now[status]);
      if (status === "Ordered" && now[status] > shown[status]) arrived = now[status] - shown[status];
    }
    if (arrived > 0) {
      live.textContent = "";
      const link = document.createElement("a");
      link.href = "/desk?status=Ordered";
      link.textContent = arrived === 1 ? "1 new line to confirm: show it" : arrived + " new lines to confirm: show them";
      live.append(link);
    }
  };
  setInterval(poll, ${LIVE_POLL_SECONDS * 1000});
})();
(() => {
  const job = document.querySelector("[data-job]");
  if (!job || job.dataset.done === "yes") return;
  const bar = job.querySelector("progress");
  const percent = job.querySelector(".job-percent");
  const rate = job.querySelector(".job-rate");
  const poll = async () => {
    const res = await fetch(job.dataset.job, { headers: { Accept: "application/json" } }).catch(() => null);
    if (res && (res.status === 401 || res.status === 404)) return window.location.reload();
    if (!res || !res.ok) return setTimeout(poll, 2000);
    const now = await res.json();
    if (now.done) return window.location.reload();
    const value = Math.round(now.progress.fraction * 100);
    bar.value = value;
    bar.textContent = value + "%";
    percent.textContent = value + "%";
    rate.textContent = (now.progress.rowsPerSecond ?? "…") + " rows/s" + (now.progress.secondsLeft !== null ? ", about " + now.progress.secondsLeft + " s left" : "") + ".";
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
})();
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
